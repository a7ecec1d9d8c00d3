"""Who was appointed where, read from the store for the sealing policy (DESIGN decisions 11 and 12).

An official reads a competition's sealed content only in the office its records gave him
(:func:`domain.officials.appointments.reads_as_appointed`). The offices are the Competition stream's
``OfficialAppointed`` and ``OfficialRemoved`` events; they are kept per competition in memory with the stream's
version they were read to, and brought forward by asking the store only for the events past that version (one
indexed query, no replay of the competition).

A judge's every read asked the store that question, one read at a time under one lock for the process: 14.5 %
of a hand read's time in the serve process (issue 17). Now the question is asked:

* when the view of the competition is older than :data:`REFRESH_SECONDS` — by one request, while the others
  answer from the view as it is (no lock is held over a query);
* whenever the view refuses (an official not appointed there, or not in that office): so an appointment counts
  from the first read after it was stored, as before.

So a grant is never late, and a removal (or a competition adopting Regulations, whose appointments then bind)
counts on every read that starts :data:`REFRESH_SECONDS` (plus one query's time) after it was stored. The token
deny list has the same shape with 5 s (api/revocations.py).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from api.auth import Principal
from domain.competition.aggregate import competition_stream_id, recorded_event
from domain.competition.events import OfficialAppointed, OfficialRemoved
from domain.officials.appointments import READS_BY_ROLE, reads_as_appointed
from domain.roles import Role

#: the stored events of the Competition's stream that change who holds an office
_OFFICES_CHANGED = frozenset({OfficialAppointed.__name__, OfficialRemoved.__name__})


@dataclass(frozen=True, slots=True)
class _Office:
    role: Role
    tables: tuple[int, ...]


#: how old a competition's view of its offices may be before a read asks the store for its new events
REFRESH_SECONDS = 0.05


@dataclass(frozen=True, slots=True)
class _View:
    #: the Competition stream's version read to (0: no stream, nobody appointed)
    version: int
    offices: dict[str, _Office] | None
    #: when the query that read to ``version`` began (the clock's reading)
    read_at: float


class StoredAppointments:
    """``(principal, competition) → bool``: does the principal read there in the office his token names?"""

    def __init__(
        self, events: Callable[[], Any], refresh_seconds: float = REFRESH_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        #: the store's event store, fetched when first needed (the app's pipeline may open after the app is made)
        self._events = events
        self.refresh_seconds = refresh_seconds
        self._clock = clock
        #: guards the two below; never held over a query
        self._lock = threading.Lock()
        self._known: dict[str, _View] = {}
        #: competitions whose view one request is bringing forward now (the others answer from the view)
        self._reading: set[str] = set()
        #: queries made (for the tests and the bench: a read answered from the view makes none)
        self.queries = 0

    def __call__(self, principal: Principal, competition_id: str) -> bool:
        if principal.role in READS_BY_ROLE:
            return True
        if reads_as_appointed(self.officials(competition_id), principal.person, principal.role):
            return True
        # Refused by the view: an appointment stored since it was read must count at once, so the store is asked
        # (an official reading where he holds no office pays that query, as every read did before).
        return reads_as_appointed(self.officials(competition_id, fresh=True), principal.person, principal.role)

    def officials(self, competition_id: str, *, fresh: bool = False) -> dict[str, _Office] | None:
        """Person → office at ``competition_id`` (None: no Regulations adopted, the competition appointed nobody):
        from the view while it is recent (see the module's note), read forward from the store when ``fresh``."""
        now = self._clock()
        with self._lock:
            kept = self._known.get(competition_id)
            if kept is not None and not fresh and (
                now - kept.read_at < self.refresh_seconds or competition_id in self._reading
            ):
                return kept.offices
            leading = not fresh and competition_id not in self._reading
            if leading:
                self._reading.add(competition_id)
        try:
            found = self._read_forward(competition_id, kept, now)
        finally:
            if leading:
                with self._lock:
                    self._reading.discard(competition_id)
        with self._lock:
            latest = self._known.get(competition_id)
            # two requests may read at once: the view read furthest (then latest) is kept
            if latest is None or (found.version, found.read_at) >= (latest.version, latest.read_at):
                self._known[competition_id] = found
        return found.offices

    def _read_forward(self, competition_id: str, kept: _View | None, began: float) -> _View:
        version = kept.version if kept is not None else 0
        offices = dict(kept.offices) if kept is not None and kept.offices is not None else {}
        self.queries += 1
        for stored in self._events().get(competition_stream_id(competition_id), gt=version or None):
            # only the appointments are decoded: the name of the stored event says which they are
            if type(stored).__name__ in _OFFICES_CHANGED:
                changed = recorded_event(stored)
                if isinstance(changed, OfficialAppointed):
                    offices[changed.person] = _Office(changed.role, changed.tables)
                elif isinstance(changed, OfficialRemoved):
                    offices.pop(changed.person, None)
            version = stored.originator_version
        # version 0: no Regulations adopted, the competition appointed nobody
        return _View(version, offices if version else None, began)
