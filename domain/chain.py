"""Tamper evidence (DESIGN decision 7): every stored event carries a hash chained to its stream's previous one.

``link(previous, body)`` is SHA-256 over the previous link and the event's canonical form, so changing
any byte of any stored event, or removing, inserting or reordering one, breaks every link after it.
The canonical form is JSON (RFC 8259) as orjson writes it with sorted keys: UTF-8, no insignificant white
space, keys in code-point order, strings escaped only where JSON must (``"``, ``\\``, control characters),
numbers in their shortest round-trip form as ECMAScript writes them (``1e-7``, ``0.00001``, ``1e+21``; as RFC 8785),
datetimes, dataclasses and other values JSON has no type for as ``str()`` gives them, enums as their values.
A body orjson refuses (an integer beyond 64 bits, a key that is not a string) takes the standard library's
form instead (``json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson

from domain.memo import BoundedMemo

#: The link before a stream's first event.
GENESIS = "0" * 64


_CANONICAL = orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def canonical(body: Mapping[str, Any]) -> bytes:
    # orjson: a seventh of the referee's time went to the standard library's encoder, about 8 µs an event.
    try:
        return orjson.dumps(body, default=str, option=_CANONICAL)
    except TypeError:
        return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str).encode()


def canonical_or_none(value: Any) -> bytes | None:
    """``value``'s canonical form as orjson writes it, or None where orjson refuses it (:func:`canonical` would
    then take the standard library's form of the whole body)."""
    try:
        return orjson.dumps(value, default=str, option=_CANONICAL)
    except TypeError:
        return None


def link(previous: str, body: Mapping[str, Any]) -> str:
    return link_of(previous, canonical(body))


def link_of(previous: str, canonical_body: bytes) -> str:
    """The link over a body already in its canonical form (what :func:`canonical` made of it)."""
    digest = hashlib.sha256()
    digest.update(previous.encode("ascii"))
    digest.update(canonical_body)
    return digest.hexdigest()


def canonical_chain_body(
    stream: str, version: int, type_name: str, at_text: str, payload: Mapping[str, Any], meta: Mapping[str, Any]
) -> bytes:
    """``canonical(chain_body(...))`` written piece by piece, the same bytes: the body's keys in their sorted order
    (``at``, ``meta``, ``payload``, ``stream``, ``type``, ``version``) around the payload's and the meta's own canonical
    forms. The referee makes one for every event it stores: no dict of the body, and only the payload and the meta
    sorted. ``at_text`` is the time's ``isoformat()``. Where orjson refuses the payload or the meta (a
    body the standard library writes, :func:`canonical`), the whole body is written as before."""
    meta_text = canonical_or_none(meta)
    payload_text = canonical_or_none(payload) if meta_text is not None else None
    if payload_text is None or meta_text is None:
        return canonical(
            {"stream": stream, "version": version, "type": type_name, "at": at_text, "payload": payload, "meta": meta}
        )
    return b"".join(
        (
            _text_piece(b'{"at":', at_text),
            b',"meta":',
            meta_text,
            b',"payload":',
            payload_text,
            _text_piece(b',"stream":', stream),
            _type_piece(type_name),
            b"%d}" % version,
        )
    )


def _text_piece(key: bytes, text: str) -> bytes:
    return key + orjson.dumps(text)  # a str's JSON form (escaped where JSON must), as in the whole body


#: a type's ``,"type":"…","version":`` piece, written once per type
_TYPE_PIECES: dict[str, bytes] = {}


def _type_piece(type_name: str) -> bytes:
    piece = _TYPE_PIECES.get(type_name)
    if piece is None:
        piece = _TYPE_PIECES[type_name] = _text_piece(b',"type":', type_name) + b',"version":'
    return piece


def link_after(previous: str, canonical_body: bytes) -> str:
    """:func:`link_of`, in one call to SHA-256 (the previous link is ASCII hexadecimal)."""
    return hashlib.sha256(previous.encode("ascii") + canonical_body).hexdigest()


#: times written lately → (the time, its text). Keyed by identity: a record's times are a few objects met again and
#: again (its events share one time; the log's received time is one object a millisecond, the table's claim one per
#: distinct text read, ingest/envelope.py), and ``isoformat()`` costs about as much as the rest of the record's meta;
#: as many as the envelope keeps of the times it read. The time is held beside its
#: text, so its identity cannot be reused while the entry lives; a time equal in another zone is another object.
_TIME_TEXTS: BoundedMemo[int, tuple[datetime, str]] = BoundedMemo(8192)


def time_text(at: datetime) -> str:
    """``at.isoformat()``, remembered for the few times a referee is writing now."""
    found = _TIME_TEXTS.get(id(at))
    if found is not None and found[0] is at:
        return found[1]
    return _TIME_TEXTS.keep(id(at), (at, at.isoformat()))[1]


@dataclass(frozen=True, slots=True)
class BrokenLink:
    """Where a chain stops verifying: the position in the stream and what was expected."""

    position: int
    expected: str
    found: str

    def __str__(self) -> str:
        return f"event {self.position}: expected link {self.expected[:16]}…, found {self.found[:16]}…"


def first_broken_link(links: Iterable[tuple[Mapping[str, Any], str, str]]) -> BrokenLink | None:
    """Walk a stream of (body, stored previous link, stored link); answer the first that does not verify."""
    previous = GENESIS
    for position, (body, stored_previous, stored_link) in enumerate(links):
        if stored_previous != previous:
            return BrokenLink(position, previous, stored_previous)
        expected = link(previous, body)
        if stored_link != expected:
            return BrokenLink(position, expected, stored_link)
        previous = stored_link
    return None
