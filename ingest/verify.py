"""``pokeraudit verify``: recompute every stored stream's hash chain and report the first broken link.

Walks the store's notification log (every stored event, in the order it was stored), keeps each stream's
last link, and checks each event against it: its ``prev_link`` must be the stream's last link, its versions
must follow on, and its ``link`` must be the hash of what is stored of it. An event that no longer decodes
(a byte changed in its stored form) is broken too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain.chain import GENESIS, link
from domain.chained import chain_body
from ingest.store import Store


@dataclass(frozen=True, slots=True)
class ChainReport:
    streams: int
    events: int
    broken: str = ""  # the first broken link in words, "" when every chain verifies
    notification_id: int | None = None

    @property
    def ok(self) -> bool:
        return not self.broken


def verify_store(store: Store, page: int = 1000) -> ChainReport:
    heads: dict[UUID, tuple[int, str]] = {}
    count = 0
    for n in store.notifications(page=page):
        count += 1
        problem = _check(store, n, heads)
        if problem:
            return ChainReport(len(heads), count, problem, n.id)
    return ChainReport(len(heads), count)


def _check(store: Store, notification: Any, heads: dict[UUID, tuple[int, str]]) -> str:
    stream = notification.originator_id
    where = f"stream {stream} version {notification.originator_version} (notification {notification.id})"
    try:
        event: Any = store.mapper.to_domain_event(notification)
        body = chain_body(
            event.originator_id, event.originator_version, type(event).__name__, event.timestamp,
            event.payload, event.meta,
        )
        prev_link, stored_link = event.prev_link, event.link
    except Exception as err:  # noqa: BLE001 - any failure to read a stored event is a broken record
        return f"{where}: the stored event no longer reads ({type(err).__name__}: {err})"
    version, head = heads.get(stream, (0, GENESIS))
    if notification.originator_version != version + 1:
        return f"{where}: expected version {version + 1}"
    if prev_link != head:
        return f"{where}: it links to {prev_link[:16]}…, the stream's previous link is {head[:16]}…"
    expected = link(head, body)
    if stored_link != expected:
        return f"{where}: its content hashes to {expected[:16]}…, its stored link is {stored_link[:16]}…"
    heads[stream] = (notification.originator_version, stored_link)
    return ""
