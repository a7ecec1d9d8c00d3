"""Who was appointed where, read from the store for the sealing policy (DESIGN decisions 11 and 12).

An official reads a competition's sealed content only in the office its records gave him
(:func:`domain.officials.appointments.reads_as_appointed`). The offices are the Competition stream's
``OfficialAppointed`` and ``OfficialRemoved`` events; they are kept per competition with the stream's version
they were read to, and each read asks the store only for the events past that version (one indexed query, no
replay of the competition), so an appointment or a removal counts from the read after it was stored.
"""

from __future__ import annotations

import threading
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


class StoredAppointments:
    """``(principal, competition) → bool``: does the principal read there in the office his token names?"""

    def __init__(self, events: Callable[[], Any]) -> None:
        #: the store's event store, fetched when first needed (the app's pipeline may open after the app is made)
        self._events = events
        self._lock = threading.Lock()
        #: competition → (the stream's version read to, person → office); None: no stream, nobody appointed
        self._known: dict[str, tuple[int, dict[str, _Office]]] = {}

    def __call__(self, principal: Principal, competition_id: str) -> bool:
        if principal.role in READS_BY_ROLE:
            return True
        return reads_as_appointed(self.officials(competition_id), principal.person, principal.role)

    def officials(self, competition_id: str) -> dict[str, _Office] | None:
        with self._lock:
            version, offices = self._known.get(competition_id, (0, {}))
            offices = dict(offices)
            for stored in self._events().get(competition_stream_id(competition_id), gt=version or None):
                # only the appointments are decoded: the name of the stored event says which they are
                if type(stored).__name__ in _OFFICES_CHANGED:
                    changed = recorded_event(stored)
                    if isinstance(changed, OfficialAppointed):
                        offices[changed.person] = _Office(changed.role, changed.tables)
                    elif isinstance(changed, OfficialRemoved):
                        offices.pop(changed.person, None)
                version = stored.originator_version
            if version == 0:
                return None  # no Regulations adopted: the competition appointed nobody
            self._known[competition_id] = (version, offices)
            return offices
