"""A payload's bounds, the fast answer: whether every value of a record's payload is within what a competition can
hold (``ingest.catalog``'s bounds, the catalogs' names, the depth), without building the path of each value.

Every record the referee reads is walked here (:func:`ingest.envelope.verify_bounds`); only a payload this walk
doubts is walked again by the envelope's walk that names the field and the bound. Plain typed Python, compiled with
mypyc (deploy/native.py): the walk is a loop over a payload's dicts and lists, a few dozen values a record.
"""

from __future__ import annotations

from typing import Any

from domain.ofc.events import OFC
from domain.officials.permissions import Delegation
from domain.rulebooks import RULEBOOKS
from domain.variants import VARIANTS
from ingest.catalog import CHIPS_BOUND, ITEMS_BOUND, NAME_BOUND, NUMBER_BOUNDS, TEXT_BOUND, TEXT_FIELDS

#: how deep a payload's values may nest (the deepest event type nests five levels)
DEPTH_BOUND = 12
#: the names a value of these fields may take, wherever they appear in a payload: checked before the log
KNOWN_NAMES: dict[str, frozenset[str]] = {
    "rulebook": frozenset(RULEBOOKS),
    "variant": frozenset({*VARIANTS, OFC}),
    "delegations": frozenset(d.value for d in Delegation),
}


_DEFAULT_NUMBER_BOUNDS = (-CHIPS_BOUND, CHIPS_BOUND)
#: the fields whose strings :func:`in_bounds` judges by more than the name's bound
_NAMED_OR_TEXT = frozenset(TEXT_FIELDS) | frozenset(KNOWN_NAMES)


def in_bounds(value: Any, name: str, depth: int) -> bool:
    """True when the walk that names the field (:func:`ingest.envelope.verify_bounds`) would find nothing to refuse
    in ``value`` (False: let it say what)."""
    if depth > DEPTH_BOUND:
        return False
    kind = type(value)
    if kind is str:
        if len(value) > (TEXT_BOUND if name in TEXT_FIELDS else NAME_BOUND) or not value.isascii():
            return False  # a non-ASCII string may hold a lone surrogate: _within looks closer
        known = KNOWN_NAMES.get(name)
        return known is None or value in known
    if kind is int:
        least, most = NUMBER_BOUNDS.get(name, _DEFAULT_NUMBER_BOUNDS)
        return bool(least <= value <= most)
    if kind is dict:
        if len(value) > ITEMS_BOUND:
            return False
        deeper = depth + 1
        if deeper > DEPTH_BOUND:
            return not value  # any item would be too deep (the check the calls below begin with)
        for key, item in value.items():
            if type(key) is not str or len(key) > NAME_BOUND or not key.isascii():
                return False
            # a field's whole number or plain name judged here, as below, without a call for each: most of a
            # payload's values are (a seat, an amount, a card), and every record is walked
            kind = type(item)
            if kind is int:
                least, most = NUMBER_BOUNDS.get(key, _DEFAULT_NUMBER_BOUNDS)
                if not least <= item <= most:
                    return False
            elif kind is str and key not in _NAMED_OR_TEXT:
                if len(item) > NAME_BOUND or not item.isascii():
                    return False
            elif not in_bounds(item, key, deeper):
                return False
        return True
    if kind is list or kind is tuple:
        if len(value) > ITEMS_BOUND:
            return False
        deeper = depth + 1
        if deeper > DEPTH_BOUND:
            return not value
        if name in _NAMED_OR_TEXT:
            return all(in_bounds(item, name, deeper) for item in value)
        # as for a field's value above: a list's cards, seats, amounts judged in the loop
        for item in value:
            kind = type(item)
            if kind is str:
                if len(item) > NAME_BOUND or not item.isascii():
                    return False
            elif kind is int:
                least, most = NUMBER_BOUNDS.get(name, _DEFAULT_NUMBER_BOUNDS)
                if not least <= item <= most:
                    return False
            elif not in_bounds(item, name, deeper):
                return False
        return True
    # None and booleans pass; a float, a subclass, anything else is the naming walk's to judge
    return value is None or kind is bool
