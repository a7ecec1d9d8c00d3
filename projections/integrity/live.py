"""Integrity's counters as a read model the projector keeps: each ended hold'em hand is added to its
competition's counters as it is projected, and the players and pairs it changed are written in the page's one
transaction with the position (exactly once, as every read model; a rebuild makes them afresh).

The projector holds the counters of the competitions it has written to as a cache of their stored rows: a page
adds its hands to them and writes the rows of the players and pairs it touched, whole. When the page fails, or
another projector overtakes this one, the cache is dropped with the projector's other state and read back from
the rows when next needed. A rebuild holds its rows back (:meth:`IntegrityProjection.hold`): no reader sees its
fresh tables before the swap, so a pair's row is written once at the end (or every :data:`HELD_HANDS` hands)
instead of at every page that touched it — rewriting every touched row's JSON at every page was most of what
integrity's rows cost a rebuild. What a failed page needs to read back is then the rows last written plus the
hands of the pages committed since, which it keeps for that. A rebuild's processes each keep the counters of
their share of the hands under their own ``part`` (the hands of a stream go to one process); a read adds the
parts up (:meth:`Counters.merge`). Memory and rows grow with the players and pairs seen, never with the hands
(but a rebuild's held hands, at most :data:`HELD_HANDS`).

A hand's events are kept until it ends (a hand in progress, a few dozen small payloads) and then dropped; a
hand whose first events another run projected is read back from the store at its next event.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from domain.hand.codec import decode
from domain.hand.events import HandStarted
from domain.integrity.record import HandRecord, is_holdem, record_from_payloads
from projections import schema
from projections.integrity import tables
from projections.integrity.counters import Counters, PairCounts, PlayerCounts
from projections.integrity.stored import READ

#: a stored event as the projector has it (projections.hand_projection.Stored): ``stream``, ``version``,
#: ``type``, ``payload``, ``meta``
Event = Any
#: what reads a stream's stored events up to a version from the store (a hand begun in an earlier run)
Earlier = Callable[[str, int], Iterable[Event]]
#: (SQL, parameters) → rows, on the tables the page is written to
Query = Callable[[str, tuple[Any, ...]], list[tuple[Any, ...]]]

_KEPT = READ | {"HandEnded"}
#: a rebuild writes its held rows at least every so many hands: the hands since the rows last written are kept
#: (a failed page reads the rows back and adds them again), so this bounds that memory (a record is ~1-2 kB)
HELD_HANDS = 10_000


class IntegrityProjection:
    """Integrity's part of the projector, for the tables of one ``part``."""

    def __init__(self, part: int = 0) -> None:
        self.part = part
        #: stream → (competition, the hand's events so far, its start decoded when the hand projection had
        #: it); None for a hand integrity does not read
        self._open: dict[str, tuple[str, list[Event], HandStarted | None] | None] = {}
        #: competition → its counters of this part, as stored plus this page's hands
        self._counters: dict[str, Counters] = {}
        #: what this page changed: competition → players, pairs
        self._players: dict[str, set[str]] = {}
        self._pairs: dict[str, set[tuple[str, str]]] = {}
        self.hands = 0
        #: holding the rows back (a rebuild): the hands of the pages committed since the rows were last written
        #: (competition → records, in the order added), and those of the page being projected
        self._held = False
        self._since: dict[str, list[HandRecord]] = {}
        self._page: list[tuple[str, HandRecord]] = []
        self._written = False
        #: competitions to read back and add the held hands to again (:meth:`ready`)
        self._reload: set[str] = set()

    def hold(self, held: bool) -> None:
        """Hold the rows back until :meth:`rows` is asked for them ``final``-ly (or :data:`HELD_HANDS` hands have
        passed): for a rebuild's fresh tables, which nobody reads before the swap. Off again: as before."""
        self._held = held
        self._since.clear()
        self._page.clear()
        self._reload.clear()

    def committed(self) -> None:
        """The page's transaction committed: its hands are in what a failed page would read back."""
        if not self._held:
            return
        if self._written:
            # the rows written with this page hold every hand so far
            self._since.clear()
        else:
            for competition, record in self._page:
                self._since.setdefault(competition, []).append(record)
        self._page.clear()
        self._written = False

    def forget(self) -> None:
        """Drop every cache (the page failed, or a rebuild starts): they are read back from the rows (holding
        them back, with the committed pages' hands added again to what the rows say: :meth:`ready`)."""
        self._open.clear()
        self._counters.clear()
        self._players.clear()
        self._pairs.clear()
        self._page.clear()
        self._written = False
        self._reload = set(self._since)

    def ready(self, query: Query, reads: Any) -> None:
        """After :meth:`forget` while holding rows back: the competitions of the hands committed since the rows
        were written read back and those hands added again (their players and pairs to be written)."""
        for competition in sorted(self._reload):
            self._counters_of(competition, query, reads)
            for record in self._since[competition]:
                self._touched(competition, record)
        self._reload.clear()

    def leave_out(self, stream: str) -> None:
        """The hand's further events are passed over (one of its events could not be read)."""
        self._open[stream] = None

    def event(self, event: Event, earlier: Earlier, query: Query, reads: Any, started: object = None) -> None:
        """One stored event of a hand's stream; ``reads`` is the page's Writes (which tables to read back);
        ``started``: the hand's start already decoded (the projector's hand projection has it), or None."""
        if self._reload:
            self.ready(query, reads)
        stream = event.stream
        if event.version == 1:
            self._open[stream] = self._opened(event, started)
            return
        if stream not in self._open:
            events = list(earlier(stream, event.version - 1))
            opened = self._opened(events[0]) if events else None
            if opened is not None:
                opened[1].extend(e for e in events[1:] if e.type in _KEPT)
            self._open[stream] = opened
        kept = self._open[stream]
        if kept is None or event.type not in _KEPT:
            return
        kept[1].append(event)
        if event.type == "HandEnded":
            del self._open[stream]
            competition, events, decoded_start = kept
            # read from the payloads the projector parsed: decoding each into its event object first was half
            # the time integrity's part of a rebuild took outside the counting
            start = decoded_start if decoded_start is not None else decode(events[0].payload)
            record = record_from_payloads(start, [e.payload for e in events[1:]], stream, competition, "") \
                if isinstance(start, HandStarted) else None
            if record is None:
                return
            counters = self._counters_of(competition, query, reads)
            # the first hand fills the evaluation tables at once (a tenth of a second), which a rebuild would
            # otherwise fill one multiset at a time over its first tens of thousands of hands
            tables.fill()
            counters.add(record)
            self.hands += 1
            if self._held:
                self._page.append((competition, record))
            self._touched(competition, record)

    def _touched(self, competition: str, record: HandRecord) -> None:
        """The players and pairs whose rows the next write rewrites."""
        players = self._players.setdefault(competition, set())
        players.update(record.players)
        pairs = self._pairs.setdefault(competition, set())
        names = sorted(record.players)
        pairs.update((a, b) for i, a in enumerate(names) for b in names[i + 1 :])

    @staticmethod
    def _opened(event: Event, started: object = None) -> tuple[str, list[Event], HandStarted | None] | None:
        if event.type != "HandStarted" or not is_holdem(str(event.payload.get("variant", ""))):
            return None
        return (str(event.meta.get("competition_id", "")), [event],
                started if isinstance(started, HandStarted) else None)

    def _counters_of(self, competition: str, query: Query, reads: Any) -> Counters:
        found = self._counters.get(competition)
        if found is None:
            found = self._counters[competition] = load(
                query(reads.integrity_competition_of, (competition, self.part)),
                query(reads.integrity_players_of, (competition, self.part)),
                query(reads.integrity_pairs_of, (competition, self.part)),
            )
            # held back: the committed pages' hands the rows do not hold yet (none but after a failed page)
            for record in self._since.get(competition, ()):
                found.add(record)
        return found

    def rows(self, final: bool = False) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        """The page's rows (competitions, players, pairs), and the page's changes forgotten; holding them back,
        none until ``final`` (or :data:`HELD_HANDS` hands are held)."""
        if self._held and not final and (
            self._reload or len(self._page) + sum(map(len, self._since.values())) < HELD_HANDS
        ):
            return [], [], []
        if self._reload:
            raise RuntimeError("held integrity rows written before the counters were read back (ready())")
        self._written = self._held
        competitions: list[tuple[Any, ...]] = []
        players: list[tuple[Any, ...]] = []
        pairs: list[tuple[Any, ...]] = []
        for competition, names in self._players.items():
            counters = self._counters[competition]
            competitions.append((competition, self.part, counters.hands, dump_seating(counters)))
            players.extend((competition, self.part, n, dump_player(counters.players[n])) for n in sorted(names))
            for a, b in sorted(self._pairs.get(competition, ())):
                pairs.append((competition, self.part, a, b, dump_pair(counters.pairs[(a, b)])))
        self._players.clear()
        self._pairs.clear()
        return competitions, players, pairs


# --- the rows' JSON -------------------------------------------------------------------------------------------


def _flat(counts: dict[int, int]) -> list[int]:
    return [x for item in counts.items() for x in item]


def _unflat(flat: list[int]) -> dict[int, int]:
    return dict(zip(flat[::2], flat[1::2], strict=True))


#: compact JSON, the encoder made once (json.dumps with separators makes one per call, and every page writes
#: the rows of every player and pair it touched)
_dumps = json.JSONEncoder(separators=(",", ":")).encode


def dump_player(p: PlayerCounts) -> str:
    return _dumps([p.counts, p.net, p.net_bb, p.net_bb_sq, p.adjusted_bb, p.adjusted_bb_sq, _flat(p.opposed)])


def load_player(text: str) -> PlayerCounts:
    counts, net, net_bb, net_bb_sq, adjusted, adjusted_sq, opposed = json.loads(text)
    return PlayerCounts(counts, net, net_bb, net_bb_sq, adjusted, adjusted_sq, _unflat(opposed))


def dump_pair(p: PairCounts) -> str:
    return _dumps([p.hands, p.pots, p.flow, p.gross, p.flow_sq, p.luck, p.luck_var, p.all_ins,
                   _flat(p.decisions[0]), _flat(p.decisions[1]), p.evidence])


def load_pair(text: str) -> PairCounts:
    hands, pots, flow, gross, flow_sq, luck, luck_var, all_ins, first, second, evidence = json.loads(text)
    return PairCounts(hands, pots, flow, gross, flow_sq, luck, luck_var, all_ins, (_unflat(first), _unflat(second)),
                      {kind: [(w, h, r) for w, h, r in heap] for kind, heap in evidence.items()})


def dump_seating(counters: Counters) -> str:
    return _dumps({session: {table: sorted(names) for table, names in tables.items()}
                   for session, tables in counters.seating.items()})


def load(
    competition: list[tuple[Any, ...]], players: list[tuple[Any, ...]], pairs: list[tuple[Any, ...]]
) -> Counters:
    """One part's counters from its rows (none: empty counters)."""
    counters = Counters()
    for hands, seating in competition:
        counters.hands = int(hands)
        counters.seating = {session: {table: set(names) for table, names in tables.items()}
                            for session, tables in json.loads(seating).items()}
    for name, state in players:
        counters.players[str(name)] = load_player(str(state))
    for a, b, state in pairs:
        counters.pairs[(str(a), str(b))] = load_pair(str(state))
    return counters


def read_counters(query: Callable[[str, tuple[Any, ...]], list[Any]], competition: str) -> Counters | None:
    """The competition's counters as the projector keeps them (projections/integrity/live.py), its parts added
    up; None when the read models hold none of its hands."""
    parts = query(schema.INTEGRITY_COMPETITION_PARTS, (competition,))
    if not parts:
        return None
    players: dict[int, list[Any]] = {}
    pairs: dict[int, list[Any]] = {}
    for part, *row in query(schema.INTEGRITY_PLAYER_PARTS, (competition,)):
        players.setdefault(int(part), []).append(row)
    for part, *row in query(schema.INTEGRITY_PAIR_PARTS, (competition,)):
        pairs.setdefault(int(part), []).append(row)
    total: Counters | None = None
    for part, hands, seating in sorted(parts):
        counters = load([(hands, seating)], players.get(int(part), []), pairs.get(int(part), []))
        if total is None:
            total = counters
        else:
            total.merge(counters)
    return total
