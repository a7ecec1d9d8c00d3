"""The desk: what the referee does with a record that is not a hand's — the federation's acts.

A competition's Regulations, its officials, registrations, draws, levels, the floor's moves and eliminations;
violations and penalties; challenges, protests and their decisions; rulings on a hand; the signatures on the
protocol. For each record the desk finds the aggregate the act belongs to (ids from natural keys, like a
hand's):

=====================================  =====================================================================
Competition                            one per competition (``competition_stream_id``), its floor included
DisciplinaryCase                       one per participant per competition (``case_id``)
SeasonRecord                           one per athlete per season (``season_record_id``)
Protest                                one per protest of a competition (``protest_id``)
HandChallenges                         one per competition (``challenges_id``)
HandReview                             one per hand a ruling is about (``hand_review_id``)
ProtocolSignatures                     one per competition (``signatures_id``)
=====================================  =====================================================================

A hand is named in these records as ``"<table>/<number>"`` (:func:`domain.competition.hand_checks.hand_name`), a penalty a protest contests
as ``"penalty-<number>"`` in the sanctioned participant's case, and a competition's season is the year it
starts in (:func:`season_of`). Federation records carry no sequence number: their order is the log's.

checks the recorder's role against the roles table (:func:`domain.officials.verify_permitted`, with the
``recorded_by`` role of the envelope), gives the aggregate what it cannot know by itself (the domain does no
I/O: the standing season disqualifications at registration, the players at the table of a missed-round
penalty, whether the competition has ended and what the contested sanction was for a protest, the hand's
mechanical outcome for a ruling), and calls the act. A refused act raises its
:class:`domain.errors.RuleError`, which the referee stores as a rejection citing the rule, exactly like a
hand's.

The desk keeps its aggregates hot in the referee's own table of hot aggregates, so the referee's
``forget()`` after a failed commit drops them with the hands (their memory is then ahead of the store).

Values an aggregate derives from an act (a draw's starting buttons, a level's blinds, a finishing place, a
violation's occurrence) are recomputed, never taken on trust: a record whose derived values disagree with
the rules' is refused with the rule that fixes them.

Every record of a competition that adopted Regulations, a hand's or a federation act, is also judged against
its appointments (:meth:`Desk.refusal_of_office`, DESIGN decision 11): an official acts only in the office the
competition's records gave him, a dealer only at the tables they assigned him (bfsp 2.1.1).

Hand events pass the roles table here too (:func:`refusal_of_hand_event`): an official's act at a hand
(``MisdealDeclared``, ``HandVoided``, the corrections) recorded by the wrong role is refused, while the
importer and the simulator keep reporting the game as dealt (:mod:`domain.officials.permissions`).

A competition's hands are judged against the competition (a ``competition_id`` with no Competition aggregate
— imports, plain simulations — keeps its hands judged by the Hand alone):

* a hand's start is refused where the competition disagrees (:func:`domain.competition.hand_checks
  .verify_hand_start`: the floor's seating and button, a halted or broken table, the level's forced bets, the
  raise cap, the chips the hands left each player, kept as a :class:`ChipCount` followed along the
  Competition's stream);
* a ruling that re-awards a pot moves the chips it moves in that count, so the next hand is dealt with the
  chips as ruled (bfsp 5.1); the rulings live on each hand's review, so a count rebuilt from the store finds
  them again at each hand's end and moves them in their turn. Such a ruling comes while the hand's result may
  still be challenged — until the next hand at the table starts, or a minute after the award at a break (bfsp
  5.9.1) — unless it is the Chief Judge's fairness override naming that rule among those it departs from (bfsp
  7.4.1, :mod:`domain.rulings.window`); and it waits while a player whose chips it moves is in a hand being
  played (bfsp 5.1);
* the floor's own record of the table's hand is the desk's: ``TableHandStarted`` once the hand's start is
  accepted, ``TableHandEnded`` when the hand ends, its meta carrying the chips the hand left each player, so
  clients report a table's hand once, as the hand (the referee calls :func:`hand_judged` after each accepted
  hand event);
* a player serving missed rounds is dealt in, and an act of his before his hand is killed is refused; a
  ``PenaltyHandServed`` for a hand where his hand was not killed is refused too, so the hand does not count
  and the penalty goes on (the refusal is the flag: it is stored with the rule and shown to the officials,
  and nothing is counted that did not happen).
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol
from uuid import UUID, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.competition import draw
from domain.competition.aggregate import Competition, Recorder, competition_stream_id, decode_recorded
from domain.competition.events import (
    EliminationReason,
    LevelStarted,
    PlayerEliminated,
    SeatDrawConducted,
)
from domain.competition.hand_checks import ChipCount, hand_name, table_number, verify_hand_start
from domain.competition.placings import Bust
from domain.competition.regulations import cite
from domain.discipline import DisciplinaryCase, PenaltyKind, SeasonRecord, case_id, season_record_id
from domain.discipline.penalties import MISSED_ROUND_RULE
from domain.errors import (
    CompetitionError,
    DisciplineError,
    NotPermittedError,
    ProtestError,
    RuleError,
    RuleRef,
    chips,
)
from domain.hand.aggregate import Hand, hand_id
from domain.hand.events import (
    HandMucked,
    HandShown,
    HandStarted,
    PenaltyHandKilled,
    PlayerActed,
    RawActReported,
)
from domain.officials import Delegation, verify_permitted
from domain.officials.acts import act_of
from domain.officials.appointments import NOT_APPOINTED, verify_appointed
from domain.officials.codec import decode as decode_officials
from domain.officials.permissions import PERMISSIONS, is_permitted
from domain.officials.revocations import DENY_LIST_ID, TokenDenyList
from domain.protests import ChallengeWindow, Protest, challenge, protest_id
from domain.protests.events import ContestedKind, HandChallenged, ProtestDecision, ProtestFiled
from domain.protocol import (
    HandChallenges,
    ProtocolArchive,
    ProtocolSignatures,
    archive_id,
    challenges_id,
    signatures_id,
)
from domain.roles import Role
from domain.rulebooks import Rulebook, get_rulebook
from domain.rulings import HandReview, hand_review_id
from domain.rulings.amend import chips_moved, stacks_in_force
from domain.rulings.events import MuckedCardsInspected, RulingIssued
from domain.rulings.outcome import stored_outcome
from domain.rulings.window import verify_in_time
from ingest.catalog import FEDERATION_CATALOG
from ingest.envelope import Envelope, MalformedRecord
from ingest.judgement import Batch, Bench, hand_stream, illegal, malformed, meta_of, out_of_sequence
from ingest.log import LogRecord
from ingest.store import Store

JSON = dict[str, Any]
_ACTS = frozenset(a.value for a in PERMISSIONS)
_OFFICIALS_CATALOG: dict[str, type] = {"HandMucked": HandMucked}
#: a player's own acts at the table, which a player whose hand is to be killed may not make first
_PLAYERS_ACTS = (PlayerActed, RawActReported, HandShown)
_VOIDS = frozenset({"MisdealDeclared", "HandVoided"})


class NotYet(Exception):
    """The act belongs to an aggregate that does not exist yet (a penalty at a competition never adopted):
    out of sequence, not illegal."""

    def __init__(self, why: str, field: str = "competition_id") -> None:
        self.why = why
        self.field = field
        super().__init__(why)


def season_of(competition: Competition) -> str:
    """The sports season a competition counts in: the calendar year it starts in."""
    return str(competition.regulations.starts_on.year)


@dataclass(frozen=True, slots=True)
class Reported:
    """One record at the desk: the event, who recorded it, when, and the meta to store with it."""

    envelope: Envelope
    event: Any
    meta: JSON

    @property
    def at(self) -> datetime:
        return self.envelope.occurred_at

    @property
    def by(self) -> Recorder:
        return Recorder(self.envelope.recorded_by.person, self.envelope.recorded_by.role)

    @property
    def role(self) -> Role:
        return self.envelope.recorded_by.role

    @property
    def competition_id(self) -> str:
        return self.envelope.competition_id


class Desk:
    def __init__(self, store: Store, hot: MutableMapping[UUID, Any]) -> None:
        self.store = store
        self.hot = hot
        self._ended: dict[str, datetime] = {}
        #: (hand event type, role) → allowed without a delegation: asked for every hand event, so remembered
        self._permitted: dict[tuple[str, Role], bool] = {}
        #: competitions known to have no Competition aggregate (imports, plain simulations): asked at every hand
        #: start and end, so remembered until one is adopted
        self._no_competition: set[str] = set()
        #: streams known to hold no disciplinary case, until the desk opens one
        self._no_case: set[UUID] = set()
        #: (competition, table, hand) → seat → (participant, penalty): players serving missed rounds whose hand
        #: has not been killed yet
        self._to_kill: dict[tuple[str, str, str], dict[int, tuple[str, int]]] = {}
        #: hands whose players serving missed rounds have been noted (at their start, or recalled after a restart)
        self._noted: set[tuple[str, str, str]] = set()
        #: a competition's hand being played → who started it, in whose name the floor records its end (the
        #: hand may end on an official's act, a misdeal or a void, that is no act of the table's)
        self._dealers: dict[UUID, Recorder] = {}

    # --- the entry points ---------------------------------------------------------------------------------

    def judge(self, envelope: Envelope, event: Any, meta: JSON) -> Aggregate:
        """Judge one federation record; the aggregate it changed (its new events pending)."""
        act = Reported(envelope, event, meta)
        self._verify_role(act)
        refusal = self.refusal_of_office(envelope, event)
        if refusal is not None:
            raise refusal
        touched = _HANDLERS[envelope.type](self, act)
        self.hot[touched.id] = touched
        if isinstance(touched, Competition) and isinstance(self.hot.get(_count_key(touched)), ChipCount):
            self.chip_count(touched)  # followed while the act is pending, not read back from the store later
        return touched

    def refusal_of_hand_event(self, envelope: Envelope) -> NotPermittedError | None:
        """The roles table's refusal of a hand event recorded by ``recorded_by``'s role, or the competition's
        refusal of a recorder it did not appoint (a dealer: to that table), or None."""
        role = envelope.recorded_by.role
        key = (envelope.type, role)
        permitted = self._permitted.get(key)
        if permitted is None:
            permitted = self._permitted[key] = envelope.type not in _ACTS or is_permitted(envelope.type, role)
        if not permitted:
            delegations = self._delegations(envelope.competition_id, envelope.recorded_by.person, role)
            try:
                verify_permitted(envelope.type, role, delegations=delegations)
            except NotPermittedError as refusal:
                return refusal
        return self.refusal_of_office(envelope, None)

    def refusal_of_office(self, envelope: Envelope, event: Any) -> NotPermittedError | None:
        """Permissions come from appointments (DESIGN decision 11): the recorder holds his office at the
        envelope's competition, a dealer at the table the record is at (``event``'s own for a federation act:
        :func:`_table_of`; :func:`domain.officials.appointments.verify_appointed`).
        A competition with no records of its own appointed nobody: nothing to check (imports, plain
        simulations)."""
        role = envelope.recorded_by.role
        if role in NOT_APPOINTED:
            return None
        competition = self.competition_of(envelope.competition_id)
        if competition is None:
            return None
        # only a dealer's table is asked (read off the record here, past the competitions with nobody appointed)
        table = _table_of(envelope, event) if role is Role.DEALER else None
        try:
            verify_appointed(
                competition.officials, competition.competition_id, envelope.recorded_by.person, role,
                table=table, doing=f"record {envelope.type}",
            )  # fmt: skip
        except NotPermittedError as refusal:
            return refusal
        return None

    # --- a competition's hands (domain/competition/hand_checks.py) ----------------------------------------

    def refusal_of_hand_start(self, envelope: Envelope, started: HandStarted) -> RuleError | None:
        """The competition's refusal of a hand's start, or None (also for a competition with no aggregate)."""
        competition = self.competition_of(envelope.competition_id)
        if competition is None:
            return None
        count = self.chip_count(competition)
        if started.button is None:
            self._carry_stacks_off_the_floor(competition, started, count)
        try:
            verify_hand_start(
                competition, started, envelope.occurred_at, count,
                envelope.recorded_by.person, envelope.recorded_by.role,
            )  # fmt: skip
        except RuleError as refusal:
            return refusal
        return None

    def refusal_while_serving(self, envelope: Envelope, event: Any) -> DisciplineError | None:
        """A player serving missed rounds acting before his hand is killed is refused: he is dealt in, posts his
        forced bets, and his hand is killed (the federation digest §3.7, bfsp 6.4.4)."""
        if not isinstance(event, _PLAYERS_ACTS):
            return None
        key = (envelope.competition_id, envelope.table_id or "", envelope.hand_id or "")
        if key not in self._noted:
            self._recall_serving(key)
        waiting = self._to_kill.get(key)
        if not waiting or event.seat not in waiting:
            return None
        participant, penalty = waiting[event.seat]
        return DisciplineError(
            f"{participant} is serving penalty-{penalty} (missed rounds): he is dealt in and posts his forced bets, "
            f"and his hand is killed before he acts",
            MISSED_ROUND_RULE,
        )

    def follow_hand(self, batch: Batch, envelope: Envelope, event: Any, hand: Hand, meta: JSON) -> None:
        """After a hand event was accepted: the floor records the table's hand when a competition's hand starts
        and ends (so the table's hands are reported once, as hands), and the kills owed are struck off."""
        key = (envelope.competition_id, envelope.table_id or "", envelope.hand_id or "")
        if isinstance(event, PenaltyHandKilled) and key in self._to_kill:
            self._to_kill[key].pop(event.seat, None)
        if hand.is_over:
            self._noted.discard(key)
            self._to_kill.pop(key, None)
        if not isinstance(event, HandStarted) and not hand.is_over:
            return
        competition = self.competition_of(envelope.competition_id)
        if competition is None:
            return
        started = hand.engine.started
        number = table_number(started.table_id)
        assert number is not None, "the start was checked against the competition"
        meta = {**meta, "hand": hand_name(started.table_id, started.hand_number)}
        if isinstance(event, HandStarted) and not hand.is_over:
            self._note_serving(competition, key, event, set())
            if competition.floor is not None and event.button is not None:
                after_misdeal = self.chip_count(competition).misdealt.get(number, False)
                competition.start_table_hand(
                    number, event.button, envelope.occurred_at, _recorder(envelope), after_misdeal, meta
                )
                self._dealers[hand.id] = _recorder(envelope)
        if hand.is_over:
            dealer = self._dealers.pop(hand.id, None)
            players = {entry.seat: entry.player for entry in started.seats}
            stacks = {players[seat]: chips for seat, chips in sorted(hand.engine.stacks.items())}
            misdealt = any(type(e).__name__ in _VOIDS for e in hand.pending_events)
            if competition.floor is not None and competition.floor.table(number).hand_running:
                meta.update(stacks=stacks, misdealt=misdealt)
                competition.end_table_hand(number, envelope.occurred_at, dealer or self._dealer_of(hand), meta)
            elif started.button is None:
                # A stud hand has no button for the floor to record: the chips it leaves are followed here alone,
                # and found again in the hands themselves after a restart (:meth:`_carry_stacks_off_the_floor`).
                self.chip_count(competition).hand_ended(meta["hand"], number, stacks, misdealt, envelope.occurred_at)
        if competition.pending_events:
            self.chip_count(competition)
            batch.touched[competition.id] = competition

    def _carry_stacks_off_the_floor(self, competition: Competition, started: HandStarted, count: ChipCount) -> None:
        """The chips the table's last hand left its players, where the count has not followed it (a stud hand is
        no record of the floor's and is counted in memory only, so after a restart it is read from the hand)."""
        previous = hand_name(started.table_id, started.hand_number - 1)
        if all(count.source.get(entry.player) == f"hand {previous}" for entry in started.seats):
            return
        found = self.find(hand_id(started.table_id, started.hand_number - 1, competition.competition_id))
        if not isinstance(found, Hand) or not found.is_over:
            return
        ended = [e.timestamp for e in self.hand_events(found) if type(e).__name__ == "HandEnded"]
        players = {entry.seat: entry.player for entry in found.engine.started.seats}
        newer = {
            players[seat]: chips
            for seat, chips in found.engine.stacks.items()
            if players[seat] in count.since and count.since[players[seat]] < ended[-1]
        }
        number = table_number(started.table_id)
        assert number is not None
        count.hand_ended(previous, number, newer, count.misdealt.get(number, False), ended[-1])
        for at, ruling, moved in self._rulings_moving_chips(competition.competition_id, previous):
            count.due(previous, ruling, {p: chips for p, chips in moved.items() if p in newer}, at)
        count.settle()

    def _dealer_of(self, hand: Hand) -> Recorder:
        """Who started ``hand`` (read from its start when the desk has not kept it)."""
        recorded_by = self.hand_events(hand)[0].meta["recorded_by"]
        return Recorder(recorded_by["person"], Role(recorded_by["role"]))

    def _recall_serving(self, key: tuple[str, str, str]) -> None:
        """Who still has his hand to be killed in a hand the desk has not followed from its start (the referee
        was restarted while it was played): the cases, less the kills the hand recorded."""
        competition_id, table_id, number = key
        competition = self.competition_of(competition_id)
        found = self.find(hand_id(table_id, int(number), competition_id)) if number.isdigit() else None
        if competition is None or not isinstance(found, Hand) or found.is_over:
            self._noted.add(key)
            return
        killed = {e.payload["seat"] for e in self.hand_events(found) if type(e).__name__ == "PenaltyHandKilled"}
        self._note_serving(competition, key, found.engine.started, killed)

    def _note_serving(
        self, competition: Competition, key: tuple[str, str, str], started: HandStarted, killed: set[int]
    ) -> None:
        self._noted.add(key)
        waiting = {}
        for entry in started.seats:
            if entry.seat in killed:
                continue
            stream = case_id(competition.competition_id, entry.player)
            if stream in self._no_case:
                continue
            found = self.find(stream)
            if not isinstance(found, DisciplinaryCase):
                self._no_case.add(stream)
                continue
            serving = found.serving
            if serving is not None:
                waiting[entry.seat] = (entry.player, serving)
        if waiting:
            self._to_kill[key] = waiting

    def competition_of(self, competition_id: str) -> Competition | None:
        if competition_id in self._no_competition:
            return None
        found = self.find(competition_stream_id(competition_id))
        if not isinstance(found, Competition):
            self._no_competition.add(competition_id)
            return None
        return found

    def chip_count(self, competition: Competition) -> ChipCount:
        """The chips the competition's stream leaves each player, followed up to its latest event.

        Kept with the hot aggregates (the referee's ``forget()`` drops it with them); rebuilt from the stored
        stream when it is not there."""
        key = _count_key(competition)
        count = self.hot.get(key)
        if not isinstance(count, ChipCount):
            count = ChipCount(competition.regulations.starting_stack)
        if count.version < competition.version:
            pending = competition.pending_events
            stored = competition.version - len(pending)
            recorded: Any
            if count.version < stored:
                for recorded in self.store.events.get(competition.id, gt=count.version, lte=stored):
                    self._follow(competition, count, recorded, rulings=True)
            for recorded in pending:
                if recorded.originator_version > count.version:
                    self._follow(competition, count, recorded, rulings=False)
            count.settle()
        self.hot[key] = count
        return count

    def _follow(self, competition: Competition, count: ChipCount, recorded: Any, rulings: bool) -> None:
        """The count follows one of the Competition's events; at the end of a stored hand (``rulings``), the
        rulings on that hand are found again and moved in their turn (they live on the hand's review, not on the
        Competition's stream). A hand ending in this batch has none yet: a ruling comes after the hand ends."""
        count.follow(recorded.originator_version, decode_recorded(recorded.payload), recorded.meta, recorded.timestamp)
        named = recorded.meta.get("hand") if rulings and type(recorded).__name__ == "TableHandEnded" else None
        if named:
            for at, ruling, moved in self._rulings_moving_chips(competition.competition_id, str(named)):
                count.due(str(named), ruling, moved, at)

    def _rulings_moving_chips(self, competition_id: str, named: str) -> list[tuple[datetime, str, dict[str, int]]]:
        """Each ruling on hand ``named`` that moved chips: when it was issued, its name, player → chips moved."""
        review = self.find(hand_review_id(competition_id, named))
        table_id, _, number = named.rpartition("/")
        hand = self.find(hand_id(table_id, int(number), competition_id)) if number.isdigit() else None
        if not isinstance(review, HandReview) or not isinstance(hand, Hand):
            return []
        outcome = stored_outcome(self.hand_events(hand))
        if outcome is None:
            return []
        times = [e.timestamp for e in self.hand_events(review) if type(e).__name__ == "RulingIssued"]
        rulings = review.rulings
        found = []
        for n, (at, ruling) in enumerate(zip(times, rulings, strict=True)):
            moved = _by_player(hand, chips_moved(outcome, rulings[:n], ruling))
            if moved:
                found.append((at, ruling.ruling, moved))
        return found

    # --- the aggregates -----------------------------------------------------------------------------------

    def find(self, stream: UUID) -> Any | None:
        found = self.hot.get(stream)
        if found is not None:
            return found
        try:
            loaded: Aggregate = self.store.repository.get(stream)
        except AggregateNotFoundError:
            return None
        self.hot[stream] = loaded
        return loaded

    def competition(self, competition_id: str) -> Competition:
        found = self.find(competition_stream_id(competition_id))
        if found is None:
            raise NotYet(f"competition {competition_id} has adopted no Regulations")
        assert isinstance(found, Competition)
        return found

    def case(self, competition: Competition, participant: str, act: Reported) -> DisciplinaryCase:
        found = self.find(case_id(competition.competition_id, participant))
        if found is not None:
            assert isinstance(found, DisciplinaryCase)
            return found
        if participant not in competition.entries:
            raise DisciplineError(
                f"{participant} is not registered at {competition.competition_id}", RuleRef("bfsp", "7.2.1")
            )
        self._no_case.discard(case_id(competition.competition_id, participant))
        return DisciplinaryCase.open(competition.competition_id, participant, act.at, act.meta)

    def protest(self, competition_id: str, protest: str) -> Protest:
        found = self.find(protest_id(competition_id, protest))
        if found is None:
            raise NotYet(f"no protest {protest} has been filed at {competition_id}", "payload.protest")
        assert isinstance(found, Protest)
        return found

    def ended_at(self, competition: Competition) -> datetime | None:
        """When the competition ended (its winner declared), or None while it goes on."""
        if competition.winner is None:
            return None
        known = self._ended.get(competition.competition_id)
        if known is not None:
            return known
        stored: Any
        for stored in self.store.events.get(competition.id):
            if type(stored).__name__ == "CompetitionWinnerDeclared":
                ended: datetime = stored.timestamp
                self._ended[competition.competition_id] = ended
                return ended
        return None

    def archive(self, competition_id: str) -> ProtocolArchive | None:
        # Read from the store each time: the service, not the referee, writes the archive.
        try:
            found: Aggregate = self.store.repository.get(archive_id(competition_id))
        except AggregateNotFoundError:
            return None
        assert isinstance(found, ProtocolArchive)
        return found

    def hand(self, envelope: Envelope) -> Hand:
        if not envelope.table_id or not envelope.hand_id or not envelope.hand_id.isdigit():
            raise MalformedRecord("the record names the hand it is about: its table and hand number", "hand_id")
        found = self.find(hand_id(envelope.table_id, int(envelope.hand_id), envelope.competition_id))
        if found is None:
            raise NotYet(f"no hand {envelope.hand_id} has started at table {envelope.table_id}", "hand_id")
        assert isinstance(found, Hand)
        return found

    def hand_events(self, hand: Aggregate) -> list[Any]:
        """Every event of ``hand`` (or of another aggregate): the stored ones, then those still pending in this
        batch."""
        stored = list(self.store.events.get(hand.id)) if hand.version > len(hand.pending_events) else []
        return [*stored, *hand.pending_events]

    # --- roles ----------------------------------------------------------------------------------------------

    def _delegations(self, competition_id: str, person: str, role: Role) -> list[Delegation]:
        if role is not Role.AUTHORISED:
            return []
        found = self.find(competition_stream_id(competition_id))
        office = found.officials.get(person) if isinstance(found, Competition) else None
        return [Delegation(d) for d in office.delegations] if office is not None else []

    def _verify_role(self, act: Reported) -> None:
        name = act_of(act.event)
        if name is None:
            return
        verify_permitted(name, act.role, delegations=self._delegations(act.competition_id, act.by.person, act.role))

    def _note_end(self, competition: Competition, at: datetime) -> None:
        if competition.winner is not None:
            self._ended.setdefault(competition.competition_id, at)


def _table_of(envelope: Envelope, event: Any) -> int | None:
    """The table a federation act is done at: the envelope's, else the act's own (a chip race's table, the
    ``"<table>/<number>"`` of the hand it is about)."""
    if envelope.table_id:
        return table_number(envelope.table_id)
    table = getattr(event, "table", None)
    if isinstance(table, int) and not isinstance(table, bool):
        return table
    hand = getattr(event, "hand", None)
    if isinstance(hand, str) and "/" in hand:
        return table_number(hand.rpartition("/")[0])
    return None


def _count_key(competition: Competition) -> UUID:
    return uuid5(competition.id, "chip-count")


def _by_player(hand: Hand, moved: dict[int, int]) -> dict[str, int]:
    players = {entry.seat: entry.player for entry in hand.engine.started.seats}
    return {players[seat]: chips for seat, chips in moved.items()}


def _recorder(envelope: Envelope) -> Recorder:
    return Recorder(envelope.recorded_by.person, envelope.recorded_by.role)


def _agrees(reported: Any, computed: Any, what: str, rule: RuleRef, error: type[RuleError] = CompetitionError) -> None:
    if reported != computed:
        raise error(f"the record says {what} {reported}; the rules give {computed}", rule)


# --- the competition ------------------------------------------------------------------------------------------


def _adopt(desk: Desk, act: Reported) -> Aggregate:
    e = act.event
    if e.competition_id != act.competition_id:
        raise MalformedRecord(
            f"the envelope is for {act.competition_id}, the Regulations for {e.competition_id}", "competition_id"
        )
    if desk.find(competition_stream_id(act.competition_id)) is not None:
        raise CompetitionError(
            f"competition {act.competition_id} has adopted its Regulations already; the Chief Judge changes the "
            "schedule, nobody adopts them twice",
            RuleRef("bfsp", "2.1.1"),
        )
    desk._no_competition.discard(act.competition_id)
    return Competition.adopt(act.competition_id, e.regulations, act.at, act.by, act.meta)


def _on_competition(do: Callable[[Desk, Competition, Reported], None]) -> Callable[[Desk, Reported], Aggregate]:
    def handle(desk: Desk, act: Reported) -> Aggregate:
        competition = desk.competition(act.competition_id)
        do(desk, competition, act)
        desk._note_end(competition, act.at)
        return competition

    return handle


def _appoint(desk: Desk, c: Competition, act: Reported) -> None:
    e = act.event
    try:
        delegations = [Delegation(d) for d in e.delegations]
    except ValueError as err:
        raise MalformedRecord(str(err), "payload.delegations") from None
    c.appoint(e.person, e.role, act.at, act.by, delegations, act.meta, tables=e.tables)


def _register(desk: Desk, c: Competition, act: Reported) -> None:
    e = act.event
    season = season_of(c)
    record = desk.find(season_record_id(e.person, season))
    barred = [e.person] if isinstance(record, SeasonRecord) and record.is_disqualified(season, act.at) else []
    c.register(
        e.participant,
        e.person,
        e.birth_date,
        act.at,
        act.by,
        season_disqualified=barred,
        membership_valid=e.membership_valid,
        entry_fee_paid=e.entry_fee_paid,
        consent_personal_data=e.consent_personal_data,
        consent_media=e.consent_media,
        seat=e.seat,
        meta=act.meta,
    )


def _conduct_draw(desk: Desk, c: Competition, act: Reported) -> None:
    e: SeatDrawConducted = act.event
    _agrees(e.buttons, draw.starting_buttons(e.assignments), "starting buttons", cite(c.rulebook, "starting_button"))
    c.conduct_draw(e.seed, e.assignments, e.ordered_by, act.at, act.by, act.meta)


def _start_level(desk: Desk, c: Competition, act: Reported) -> None:
    e: LevelStarted = act.event
    number = c.current_level.number + 1 if c.current_level else 1
    if number <= len(c.levels):
        _agrees(e.level, c.levels[number - 1], f"level {number} is", cite(c.rulebook, "levels"))
    c.start_level(act.at, act.by, act.meta)


def _start_break(desk: Desk, c: Competition, act: Reported) -> None:
    if c.current_level is not None:
        _agrees(act.event.after_level, c.current_level.number, "the break follows level", cite(c.rulebook, "schedule"))
    c.start_break(act.event.minutes, act.at, act.by, act.meta)


def _eliminate(desk: Desk, c: Competition, act: Reported) -> None:
    """One record per bust, or one for the players busted in the same hand with equal starting stacks, who share
    their places (``shared_with``; bfsp 5.10.2, tda-club 28-C)."""
    e: PlayerEliminated = act.event
    if e.reason is EliminationReason.DISQUALIFIED:
        c.disqualify(e.participant, e.ruling, act.at, act.by, act.meta)
        return
    group = (e.participant, *e.shared_with)
    if all(p in c.entries and p not in c.eliminated for p in group):
        for participant in group:
            _verify_bust(desk, c, act, participant, group)
        # The group takes the last places still open (bfsp 5.10.2), the best of them named in the record.
        _agrees(e.place, c.players_left - len(group) + 1, f"{e.participant} finished in place", cite(c.rulebook, "placings"))
    busts = [Bust(p, c.seats.get(p, (0, 0))[0], e.starting_stack) for p in group]
    c.eliminate(e.hand, busts, act.at, act.by, act.meta)


def _verify_bust(desk: Desk, c: Competition, act: Reported, participant: str, group: tuple[str, ...]) -> None:
    """Where the hand he busted in is recorded (``"<table>/<number>"``), he played it with the chips the record
    says and ended it with none, as the ruling in force on the hand left them; and of two busted in one hand, the one who started it with fewer chips is
    eliminated first, so the larger stack places higher, while equal stacks are eliminated in one record and
    share the places (bfsp 5.10.2)."""
    e: PlayerEliminated = act.event
    rule = cite(c.rulebook, "elimination")
    larger = [
        x for x in c.eliminated.values()
        if x.hand == e.hand and x.reason is EliminationReason.NO_CHIPS and x.starting_stack > e.starting_stack
    ]
    if larger:
        raise CompetitionError(
            f"{larger[0].participant} started hand {e.hand} with {chips(larger[0].starting_stack)} and "
            f"{participant} with {chips(e.starting_stack)}: busted in the same hand, the smaller stack is "
            "eliminated first and places lower",
            cite(c.rulebook, "placings"),
        )
    table, _, number = e.hand.rpartition("/")
    found = desk.find(hand_id(table, int(number), c.competition_id)) if table and number.isdigit() else None
    if not isinstance(found, Hand):
        return
    events = desk.hand_events(found)
    seats = {s["player"]: s for s in events[0].payload["seats"]}
    seat = seats.get(participant)
    if seat is None:
        raise CompetitionError(f"{participant} did not play hand {e.hand}", rule)
    _agrees(e.starting_stack, seat["stack"], f"{participant} started hand {e.hand} with", rule)
    outcome = stored_outcome(events)
    if outcome is None:
        raise CompetitionError(f"hand {e.hand} is still being played", rule)
    review = desk.find(hand_review_id(c.competition_id, e.hand))
    final = stacks_in_force(outcome, review.rulings if isinstance(review, HandReview) else ())
    if final.get(seat["seat"], 0):
        ruled = " as ruled" if final != dict(outcome.ended.final_stacks) else ""
        raise CompetitionError(
            f"{participant} finished hand {e.hand}{ruled} with {chips(final[seat['seat']])} chips; a player is "
            "eliminated when he has none left",
            rule,
        )
    busted = sorted(
        (s["stack"], player) for player, s in seats.items()
        if player in c.entries and player not in c.eliminated and player not in group and not final.get(s["seat"], 0)
        and s["stack"] <= e.starting_stack
    )
    if busted:
        stack, player = busted[0]
        if stack == e.starting_stack:
            raise CompetitionError(
                f"{player} also busted in hand {e.hand} and started it with as many chips ({chips(stack)}): they "
                "share the place, eliminated in one record that names them both",
                cite(c.rulebook, "placings"),
            )
        raise CompetitionError(
            f"{player} also busted in hand {e.hand} and started it with fewer chips ({chips(stack)} against "
            f"{chips(e.starting_stack)}): he is eliminated first and places lower",
            cite(c.rulebook, "placings"),
        )


def _hand_for_hand(desk: Desk, c: Competition, act: Reported) -> None:
    _agrees(act.event.players_left, c.players_left, "players left", cite(c.rulebook, "hand_for_hand"))
    c.start_hand_for_hand(act.event.level_seconds_left, act.at, act.by, act.meta)


_COMPETITION: dict[str, Callable[[Desk, Competition, Reported], None]] = {
    "OfficialAppointed": _appoint,
    "OfficialRemoved": lambda d, c, a: c.remove_official(a.event.person, a.event.reason, a.at, a.by, a.meta),
    "ParticipantRegistered": _register,
    "SeatDrawCommitted": lambda d, c, a: c.commit_draw(a.event.seed_sha256, a.at, a.by, a.meta),
    "SeatDrawConducted": _conduct_draw,
    "LevelStarted": _start_level,
    "BreakStarted": _start_break,
    "BreakEnded": lambda d, c, a: c.end_break(a.at, a.by, a.meta),
    "ScheduleChanged": lambda d, c, a: c.change_schedule(
        a.event.levels, a.event.breaks, a.event.reason, a.at, a.by, a.meta
    ),
    "ChipRaceConducted": lambda d, c, a: _chip_race(c, a),
    "PlayerEliminated": _eliminate,
    "HandForHandStarted": _hand_for_hand,
    "HandForHandHandStarted": lambda d, c, a: _hand_for_hand_hand(c, a),
    "HandForHandEnded": lambda d, c, a: c.end_hand_for_hand(a.at, a.by, a.meta),
    "FinalTableDrawCommitted": lambda d, c, a: c.commit_final_table_draw(a.event.seed_sha256, a.at, a.by, a.meta),
    "FinalTableDrawConducted": lambda d, c, a: c.conduct_final_table_draw(
        a.event.seed, a.event.assignments, a.event.ordered_by, a.at, a.by, a.meta
    ),
    "DealAgreed": lambda d, c, a: c.agree_deal(a.event.shares, a.event.left_to_play_for, a.at, a.by, a.meta),
    "PlayerMoved": lambda d, c, a: c.move_player(a.event, a.at, a.by, a.meta),
    "BalanceToleranceWidened": lambda d, c, a: c.widen_tolerance(a.event, a.at, a.by, a.meta),
    "MoverExceptionDecided": lambda d, c, a: c.decide_mover_exception(a.event, a.at, a.by, a.meta),
    "TableHalted": lambda d, c, a: c.halt_table(a.event, a.at, a.by, a.meta),
    "TableBreakCommitted": lambda d, c, a: c.commit_table_break(a.event, a.at, a.by, a.meta),
    "TableBroken": lambda d, c, a: c.break_table(a.event, a.at, a.by, a.meta),
}


def _chip_race(c: Competition, act: Reported) -> None:
    e = act.event
    # The exchange and the race are recomputed from the entries and the race cards: the stored results are
    # the rules', whatever the record's own say.
    c.conduct_chip_race(e.table, e.removed_denomination, e.entries, e.dealt, act.at, act.by, act.meta)


def _hand_for_hand_hand(c: Competition, act: Reported) -> None:
    c.start_hand_for_hand_hand(act.at, act.by, act.meta)


# --- discipline -----------------------------------------------------------------------------------------------


def _on_case(do: Callable[[Desk, Competition, DisciplinaryCase, Reported], None]) -> Callable[[Desk, Reported], Aggregate]:
    def handle(desk: Desk, act: Reported) -> Aggregate:
        competition = desk.competition(act.competition_id)
        case = desk.case(competition, act.event.participant, act)
        do(desk, competition, case, act)
        return case

    return handle


def _violation(desk: Desk, c: Competition, case: DisciplinaryCase, act: Reported) -> None:
    e = act.event
    _agrees(e.occurrence, case.occurrences(e.code) + 1, f"violation {e.code} occurs for the time", RuleRef("bfsp", "7.2.1"), DisciplineError)
    case.record_violation(e.code, e.hand, e.intentional, act.at, act.role, e.description, act.meta)


def _impose(desk: Desk, c: Competition, case: DisciplinaryCase, act: Reported) -> None:
    e = act.event
    if e.imposed_by is not act.role:
        raise NotPermittedError(
            f"the penalty says the {e.imposed_by.value.replace('_', ' ')} imposed it, and it was recorded by the "
            f"{act.role.value.replace('_', ' ')}",
            RuleRef("bfsp", "7.2.1"),
        )
    players = 0
    if e.kind is PenaltyKind.MISSED_ROUNDS:
        if e.participant not in c.seats:
            raise DisciplineError(f"{e.participant} has no seat to miss rounds at", MISSED_ROUND_RULE)
        table = c.seats[e.participant][0]
        players = sum(1 for p, (t, _) in c.seats.items() if t == table and p not in c.eliminated)
        _agrees(e.players_at_table, players, "players at the table", MISSED_ROUND_RULE, DisciplineError)
    case.impose(
        e.violation, e.kind, act.role, act.at,
        rounds=e.rounds, players_at_table=players, chips_removed=e.chips_removed, meta=act.meta,
    )


def _enter_in_protocol(desk: Desk, c: Competition, case: DisciplinaryCase, act: Reported) -> None:
    case.enter_in_protocol(act.event.violation, act.role, act.at, act.meta)


def _serve(desk: Desk, c: Competition, case: DisciplinaryCase, act: Reported) -> None:
    e = act.event
    if case.serving is not None:
        _agrees(e.penalty, case.serving, "the hand is served towards penalty", MISSED_ROUND_RULE, DisciplineError)
    if not e.misdealt:
        _verify_killed(desk, c, e.participant, e.hand)
    case.serve_hand(e.hand, act.at, act.role, misdealt=e.misdealt, meta=act.meta)


def _verify_killed(desk: Desk, c: Competition, participant: str, named: str) -> None:
    """A hand counts towards missed rounds when he was dealt in and his hand killed in it (the federation digest
    §3.7): a hand that ended without the kill recorded does not count, and the penalty goes on."""
    table, _, number = named.rpartition("/")
    found = desk.find(hand_id(table, int(number), c.competition_id)) if table and number.isdigit() else None
    if not isinstance(found, Hand):
        raise NotYet(f"hand {named} is not recorded at {c.competition_id}", "payload.hand")
    events = desk.hand_events(found)
    seat = next((s["seat"] for s in events[0].payload["seats"] if s["player"] == participant), None)
    if seat is None:
        raise DisciplineError(f"{participant} was not dealt in at hand {named}: a missed round is dealt in", MISSED_ROUND_RULE)
    if not any(type(s).__name__ == "PenaltyHandKilled" and s.payload["seat"] == seat for s in events):
        raise DisciplineError(
            f"{participant}'s hand was not killed at hand {named}: a hand counts towards missed rounds when he is "
            "dealt in, posts his forced bets and his hand is killed",
            MISSED_ROUND_RULE,
        )


def _rescind(desk: Desk, c: Competition, case: DisciplinaryCase, act: Reported) -> None:
    e = act.event
    found = desk.find(protest_id(c.competition_id, e.protest))
    decision = found.decision if isinstance(found, Protest) else None
    if decision is None or decision.decision is not ProtestDecision.UPHELD:
        raise DisciplineError(
            f"a penalty is lifted by a protest decided in the participant's favour; protest {e.protest} "
            + ("has not been filed" if found is None else "has not been upheld"),
            RuleRef("bfsp", "7.3.4"),
        )
    case.rescind(e.penalty, e.protest, act.role, act.at, act.meta)


def _season(desk: Desk, act: Reported) -> Aggregate:
    e = act.event
    record = desk.find(season_record_id(e.athlete, e.season))
    if record is None:
        record = SeasonRecord.open(e.athlete, e.season, act.at, act.meta)
    assert isinstance(record, SeasonRecord)
    case = desk.find(case_id(e.competition, e.athlete))
    if not isinstance(case, DisciplinaryCase):
        raise DisciplineError(
            f"{e.athlete} has no disciplinary record at {e.competition}: a season disqualification rests on a "
            "violation there",
            RuleRef("bfsp", "7.2.3"),
        )
    record.decide(case, e.violation, act.role, act.at, e.protocol, act.meta)
    return record


# --- protests -------------------------------------------------------------------------------------------------


def _file(desk: Desk, act: Reported) -> Aggregate:
    e: ProtestFiled = act.event
    if e.competition != act.competition_id:
        raise MalformedRecord(f"the envelope is for {act.competition_id}, the protest for {e.competition}", "competition_id")
    if e.filed_at != act.at:
        raise ProtestError(
            f"the protest says it was filed at {e.filed_at.isoformat()} and was recorded as filed at "
            f"{act.at.isoformat()}; its time decides whether it is in time",
            RuleRef("bfsp", "7.3.2"),
        )
    if desk.find(protest_id(e.competition, e.protest)) is not None:
        raise ProtestError(f"protest {e.protest} has been filed already", RuleRef("bfsp", "7.3"))
    competition = desk.competition(act.competition_id)
    if e.contested.kind is ContestedKind.PENALTY:
        _verify_sanction(desk, competition, e)
    protest = Protest.file(e, desk.ended_at(competition), act.role, act.meta)
    return protest


def _verify_sanction(desk: Desk, competition: Competition, e: ProtestFiled) -> None:
    """The contested penalty exists, is in force, was imposed on ``sanctioned`` by whom the protest says."""
    contested = e.contested
    rule = RuleRef("bfsp", "7.3.1")
    number = contested.reference.removeprefix("penalty-")
    case = desk.find(case_id(competition.competition_id, contested.sanctioned)) if contested.sanctioned else None
    in_force = dict(case.in_force()) if isinstance(case, DisciplinaryCase) else {}
    penalty = in_force.get(int(number)) if number.isdigit() else None
    if penalty is None:
        raise ProtestError(
            f"{contested.reference} is not a penalty in force on {contested.sanctioned or 'anybody'} at "
            f"{competition.competition_id} (penalties are named penalty-<number> in the participant's record)",
            rule,
        )
    if penalty.imposed_by is not contested.decided_by:
        raise ProtestError(
            f"{contested.reference} was imposed by the {penalty.imposed_by.value.replace('_', ' ')}, not the "
            f"{contested.decided_by.value.replace('_', ' ')}",
            rule,
        )


def _forward(desk: Desk, act: Reported) -> Aggregate:
    e = act.event
    protest = desk.protest(act.competition_id, e.protest)
    archive = desk.archive(act.competition_id)
    snapshot = archive.named(e.protocol_snapshot) if archive is not None else None
    if snapshot is None or snapshot.chain_head != e.chain_head:
        raise ProtestError(
            f"the protocol forwarded must be a snapshot the archive keeps with that chain head; "
            f"{e.protocol_snapshot} "
            + ("is not in the archive" if snapshot is None else f"has chain head {snapshot.chain_head[:16]}…"),
            RuleRef("bfsp", "7.3.3"),
        )
    protest.forward(e.protocol_snapshot, e.chain_head, act.role, act.at, act.meta)
    return protest


def _decide(desk: Desk, act: Reported) -> Aggregate:
    e = act.event
    protest = desk.protest(act.competition_id, e.protest)
    if e.decided_by is not act.role:
        raise NotPermittedError(
            f"the decision says the {e.decided_by.value.replace('_', ' ')} decided it, and it was recorded by the "
            f"{act.role.value.replace('_', ' ')}",
            RuleRef("bfsp", "7.3.4"),
        )
    protest.decide(e.decision, e.reasons, act.role, act.at, act.meta)
    return protest


def _notify(desk: Desk, act: Reported) -> Aggregate:
    protest = desk.protest(act.competition_id, act.event.protest)
    protest.notify_filer(act.role, act.at, act.meta)
    return protest


def _challenge(desk: Desk, act: Reported) -> Aggregate:
    """A challenge of a hand's result, judged against the window the hands give: open until the next hand at
    the table starts, or for the rulebook's seconds after the award when the hand was the last before a break
    (bfsp 5.9.1; TDA 2022 22)."""
    e: HandChallenged = act.event
    hand = desk.hand(act.envelope)
    assert act.envelope.table_id is not None and act.envelope.hand_id is not None
    named = hand_name(act.envelope.table_id, act.envelope.hand_id)
    if e.hand != named:
        raise MalformedRecord(f"the challenge is of hand {e.hand}; the envelope names hand {named}", "payload.hand")
    if e.raised_at != act.at:
        raise MalformedRecord(
            f"the challenge says it was raised at {e.raised_at.isoformat()}, the record at {act.at.isoformat()}",
            "payload.raised_at",
        )
    book = _rulebook(desk, act)
    window = _window(desk, act, hand)
    if window is None:
        raise ProtestError(f"hand {named} has not ended: there is no result to challenge yet", book.cite("dispute"))
    judged = challenge(e.hand, e.participant, e.kind, e.grounds, e.raised_at, window, book, act.role)
    _agrees(e.deadline, judged.deadline, "the challenge closes at", book.cite("dispute"), ProtestError)
    found = desk.find(challenges_id(act.competition_id))
    kept = found if isinstance(found, HandChallenges) else HandChallenges.open(act.competition_id, act.at, act.meta)
    kept.record(judged, act.meta)
    return kept


def _rulebook(desk: Desk, act: Reported) -> Rulebook:
    competition = desk.find(competition_stream_id(act.competition_id))
    return competition.rulebook if isinstance(competition, Competition) else get_rulebook(act.envelope.rulebook)


def _window(desk: Desk, act: Reported, hand: Hand) -> ChallengeWindow | None:
    """How long the result of the envelope's ``hand`` stays open to challenge: until the next hand at the table
    starts, or a while after the award when it ended at a break; None while the hand has not ended."""
    assert act.envelope.table_id is not None and act.envelope.hand_id is not None
    ended = [s.timestamp for s in desk.hand_events(hand) if type(s).__name__ == "HandEnded"]
    if not ended:
        return None
    following = desk.find(hand_id(act.envelope.table_id, int(act.envelope.hand_id) + 1, act.competition_id))
    next_started = desk.hand_events(following)[0].timestamp if isinstance(following, Hand) else None
    competition = desk.find(competition_stream_id(act.competition_id))
    at_break = next_started is None and isinstance(competition, Competition) and competition.on_break is not None
    return ChallengeWindow(ended[-1], at_break, next_started)


# --- rulings on a hand ----------------------------------------------------------------------------------------


def _review(desk: Desk, act: Reported, named: str) -> tuple[Hand, HandReview]:
    hand = desk.hand(act.envelope)
    assert act.envelope.table_id is not None and act.envelope.hand_id is not None
    expected = hand_name(act.envelope.table_id, act.envelope.hand_id)
    if named != expected:
        raise MalformedRecord(f"the record is about hand {named}; the envelope names hand {expected}", "payload.hand")
    found = desk.find(hand_review_id(act.competition_id, named))
    review = found if isinstance(found, HandReview) else HandReview.open(act.competition_id, named, act.at, act.meta)
    return hand, review


def _rule(desk: Desk, act: Reported) -> Aggregate:
    e: RulingIssued = act.event
    if e.role is not act.role or e.official != act.by.person:
        raise NotPermittedError(
            f"the ruling says {e.official} ({e.role.value.replace('_', ' ')}) issued it, and it was recorded by "
            f"{act.by.person} ({act.role.value.replace('_', ' ')})",
            RuleRef("bfsp", "2.1.1"),
        )
    hand, review = _review(desk, act, e.hand)
    outcome = stored_outcome(desk.hand_events(hand))
    window = _window(desk, act, hand)
    if outcome is None or window is None:
        raise DisciplineError(
            f"hand {e.hand} has not ended: a ruling amends the outcome of a hand played out", RuleRef("bfsp", "2.2.3")
        )
    moved = _by_player(hand, chips_moved(outcome, review.rulings, e))
    competition = desk.competition_of(act.competition_id)
    if not moved or competition is None:
        review.issue(e, outcome, act.at, act.meta)
        return review
    verify_in_time(e, act.at, window, competition.rulebook)
    count = desk.chip_count(competition)
    in_play = _in_play(desk, competition, act)
    count.verify_amendment(e.hand, e.ruling, moved, in_play)
    review.issue(e, outcome, act.at, act.meta)
    count.amend(e.hand, e.ruling, moved, act.at, in_play)
    return review


def _in_play(desk: Desk, competition: Competition, act: Reported) -> frozenset[str]:
    """The players whose chips are on the table in a hand being played: seated at a table of the floor with a
    hand running, or dealt into a stud hand that followed the one ruled on and is still running (a hand with no
    button is no record of the floor's)."""
    floor = competition.floor
    running = frozenset(p for t in floor.tables if t.hand_running for p in t.players) if floor else frozenset()
    table, number = act.envelope.table_id, act.envelope.hand_id
    if table is None or number is None:
        return running
    following = desk.find(hand_id(table, int(number) + 1, act.competition_id))
    if not isinstance(following, Hand) or following.is_over or following.engine.started.button is not None:
        return running
    return running | frozenset(entry.player for entry in following.engine.started.seats)


def _inspect(desk: Desk, act: Reported) -> Aggregate:
    e: MuckedCardsInspected = act.event
    hand, review = _review(desk, act, e.hand)
    mucked = {
        decode_officials(s.payload, _OFFICIALS_CATALOG).seat
        for s in desk.hand_events(hand)
        if type(s).__name__ == "HandMucked"
    }
    review.inspect(
        e.seats, mucked, e.suspected_by, e.suspicion, e.outcome, e.shown_to_table, act.role, act.at, act.meta
    )
    return review


# --- the protocol's signatures --------------------------------------------------------------------------------


def _sign(desk: Desk, act: Reported) -> Aggregate:
    e = act.event
    if e.person != act.by.person or e.role is not act.role:
        raise NotPermittedError(
            f"{act.by.person} signs in his own name: the signature says {e.person} "
            f"({e.role.value.replace('_', ' ')})",
            RuleRef("bfsp", "2.1.4"),
        )
    competition = desk.competition(act.competition_id)
    office = competition.officials.get(e.person)
    found = desk.find(signatures_id(act.competition_id))
    signatures = (
        found if isinstance(found, ProtocolSignatures)
        else ProtocolSignatures.open(act.competition_id, act.at, act.meta)
    )
    archive = desk.archive(act.competition_id)
    snapshot = archive.snapshot(e.version) if archive is not None else None
    signatures.sign(e, snapshot, office is not None and office.role is e.role, act.at, act.meta)
    return signatures


# --- the service's deny list of API tokens ---------------------------------------------------------------------


def _revoke(desk: Desk, act: Reported) -> Aggregate:
    found = desk.find(DENY_LIST_ID)
    deny_list = found if isinstance(found, TokenDenyList) else TokenDenyList.open(act.at)
    deny_list.revoke(act.event, act.by.person, act.role, act.at, act.meta)
    return deny_list


_HANDLERS: dict[str, Callable[[Desk, Reported], Aggregate]] = {
    "RegulationsAdopted": _adopt,
    **{name: _on_competition(do) for name, do in _COMPETITION.items()},
    "ViolationRecorded": _on_case(_violation),
    "PenaltyImposed": _on_case(_impose),
    "ViolationEnteredInProtocol": _on_case(_enter_in_protocol),
    "PenaltyHandServed": _on_case(_serve),
    "PenaltyRescinded": _on_case(_rescind),
    "SeasonDisqualificationDecided": _season,
    "HandChallenged": _challenge,
    "ProtestFiled": _file,
    "ProtestForwarded": _forward,
    "ProtestDecided": _decide,
    "FilerNotified": _notify,
    "RulingIssued": _rule,
    "MuckedCardsInspected": _inspect,
    "ProtocolSigned": _sign,
    "TokenRevoked": _revoke,
}
assert set(_HANDLERS) == set(FEDERATION_CATALOG), "every federation type has its handler at the desk"


# --- the referee's hook ---------------------------------------------------------------------------------------


class _HasDesk(Protocol):
    @property
    def desk(self) -> Desk: ...


def desk_of(referee: _HasDesk) -> Desk:
    """The referee's desk (made again with the hot aggregates whenever the referee forgets them)."""
    return referee.desk


def route_at_desk(
    bench: Bench, desk: Desk, batch: Batch, record: LogRecord, event_id: UUID, envelope: Envelope, event: Any
) -> bool:
    """Judge ``envelope`` here if it is the desk's (True), else let the referee route it to its hand (False).

    A hand event recorded by a role the roles table refuses is rejected here too (True).
    """
    refusal: RuleError | None = None
    if envelope.type not in FEDERATION_CATALOG:
        refusal = desk.refusal_of_hand_event(envelope) or desk.refusal_while_serving(envelope, event)
        if refusal is None and isinstance(event, HandStarted) and _opens_a_hand(bench, envelope, event):
            refusal = desk.refusal_of_hand_start(envelope, event)
        if refusal is None:
            return False
    if refusal is not None:
        bench.reject(batch, record, event_id, envelope, illegal(record, envelope, refusal))
        return True
    try:
        touched = desk.judge(envelope, event, meta_of(envelope, record))
    except RuleError as err:
        bench.reject(batch, record, event_id, envelope, illegal(record, envelope, err))
        return True
    except NotYet as err:
        bench.reject(batch, record, event_id, envelope, out_of_sequence(record, envelope, err.why))
        return True
    except MalformedRecord as err:
        bench.reject(batch, record, event_id, envelope, malformed(record, envelope, err))
        return True
    batch.accept(record, event_id, envelope, touched)
    return True


def _opens_a_hand(bench: Bench, envelope: Envelope, started: HandStarted) -> bool:
    """A start the referee would take as a new hand (a start of a hand that exists, or one out of step, is the
    referee's to reject as out of sequence, not the competition's)."""
    if envelope.seq != 0:
        return False
    try:
        return bench.hand(hand_stream(envelope, started)) is None
    except MalformedRecord:
        return False
