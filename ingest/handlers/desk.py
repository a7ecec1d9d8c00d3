"""The desk: what the federation's handlers are given — each aggregate loaded by its natural key, the checks
every record passes, and what a competition follows of its hands.

The acts themselves (a competition's Regulations, its officials, registrations, draws, levels, the floor's
moves and eliminations; violations and penalties; challenges, protests and their decisions; rulings on a hand;
the signatures on the protocol) are judged by one handler each in this package's family modules. For each
record the handler finds, through the desk, the aggregate the act belongs to (ids from natural keys, like a
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

The desk checks the recorder's role against the roles table (:func:`domain.officials.verify_permitted`, with the
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

from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.clock import time_of_stored_act
from domain.competition.aggregate import Competition, Recorder, competition_stream_id, recorded_event
from domain.competition.events import (
    ParticipantRegistered,
    PlayerEliminated,
    RegulationsAdopted,
    TableHandEnded,
)
from domain.competition.hand_checks import ChipCount, hand_name, table_number, verify_hand_start
from domain.discipline import DisciplinaryCase, case_id, season_record_id
from domain.discipline.case import verify_entrant
from domain.discipline.penalties import acting_while_serving
from domain.errors import (
    DisciplineError,
    NotPermittedError,
    RuleError,
)
from domain.hand.aggregate import Hand, hand_id
from domain.hand.events import (
    HandShown,
    HandStarted,
    PenaltyHandKilled,
    PlayerActed,
    RawActReported,
)
from domain.officials import Delegation, verify_permitted
from domain.officials.acts import act_of
from domain.officials.appointments import NOT_APPOINTED, refusal_where_nobody_was_appointed, verify_appointed
from domain.officials.permissions import PERMISSIONS, is_permitted
from domain.protests import ChallengeWindow, Protest, protest_id
from domain.protocol import (
    CompiledProtocol,
    ProtocolArchive,
    archive_id,
)
from domain.roles import Role
from domain.rulebooks import Rulebook, get_rulebook
from domain.rulings import HandReview, hand_review_id
from domain.rulings.amend import chips_moved
from domain.rulings.outcome import stored_outcome
from ingest.envelope import Envelope, MalformedRecord
from ingest.judgement import Batch
from ingest.store import Store

JSON = dict[str, Any]
_ACTS = frozenset(a.value for a in PERMISSIONS)
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
        """When the act is recorded and judged: by the service's clock (DESIGN decision 9)."""
        return time_of_stored_act(self.envelope.occurred_at, self.meta)

    @property
    def recorded_at(self) -> datetime:
        """When the act says it happened (``occurred_at``), which the referee accepts only within the skew it allows
        off the service's clock (DESIGN decision 9). The level clock runs on it — its start, its pauses, the
        breaks, hand-for-hand — as each hand is judged at its recorded start: one time base for the clock and the
        hands, even for a simulation's records appended to Kafka at the broker's time."""
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


#: a federation act's handler: judge the act, loading its aggregates through the desk; the aggregate it changed
Handler = Callable[["Desk", Reported], Aggregate]
#: reads a competition's protocol from the store as it stands, with the heads it covers and what its
#: verification found: projections/protocol.py's ``compile_snapshot``, which the composition root hands the
#: referee (ingest/ does not import the read side)
ProtocolCompiler = Callable[[Store, str], CompiledProtocol]


class ProtocolsNotWired(RuntimeError):
    """The referee was started without a :data:`ProtocolCompiler`: it cannot judge a snapshot. Not the record's
    fault, so never a verdict (the same log must give the same verdicts on every referee): the referee stops."""


class Desk:
    """The federation's acts at the referee: each aggregate loaded by its natural key (hot, else from the store),
    the checks every record passes (the roles table, the appointments) and what the competition follows of its
    hands. The acts themselves are judged by ``handlers`` (ingest/handlers/, assembled in ingest/desk.py)."""

    def __init__(
        self,
        store: Store,
        hot: MutableMapping[UUID, Any],
        handlers: Mapping[str, Handler],
        protocols: ProtocolCompiler | None = None,
    ) -> None:
        self.store = store
        self.hot = hot
        self.handlers = handlers
        self._protocols = protocols
        #: (hand event type, role) → allowed without a delegation: asked for every hand event, so remembered
        self._permitted: dict[tuple[str, Role], bool] = {}
        #: competitions known to have no Competition aggregate (imports, plain simulations): asked at every hand
        #: start and end, so remembered until one is adopted
        self._no_competition: set[str] = set()
        #: streams known to hold no disciplinary case, until the desk opens one
        self._no_case: set[UUID] = set()
        #: hands known to have no review (no ruling on them), until the desk opens one: asked at every bust
        self._no_review: set[UUID] = set()
        #: (competition, table, hand) → seat → (participant, penalty): players serving missed rounds whose hand
        #: has not been killed yet
        self._to_kill: dict[tuple[str, str, str], dict[int, tuple[str, int]]] = {}
        #: hands whose players serving missed rounds have been noted (at their start, or recalled after a restart)
        self._noted: set[tuple[str, str, str]] = set()
        #: a competition's hand being played → who started it, in whose name the floor records its end (the
        #: hand may end on an official's act, a misdeal or a void, that is no act of the table's)
        self._dealers: dict[UUID, Recorder] = {}
        #: streams the store did not hold when the current batch began (:meth:`will_look_up`, asked once for the
        #: whole batch): one not hot now was neither stored since nor made by an act this batch accepted
        self._not_stored: set[UUID] = set()
        #: the season of each competition whose Regulations the batch being read adopts
        self._seasons_ahead: dict[str, str] = {}

    # --- the entry points ---------------------------------------------------------------------------------

    def judge(self, envelope: Envelope, event: Any, meta: JSON) -> Aggregate:
        """Judge one federation record; the aggregate it changed (its new events pending)."""
        act = Reported(envelope, event, meta)
        self.verify_role(act)
        refusal = self.refusal_of_office(envelope, event)
        if refusal is not None:
            raise refusal
        touched = self.handlers[envelope.type](self, act)
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
            return refusal_where_nobody_was_appointed(envelope.type, envelope.competition_id, role)
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

    def refusal_of_hand_start(self, envelope: Envelope, started: HandStarted, at: datetime) -> RuleError | None:
        # the level clock judges the hand at its recorded start (envelope.occurred_at), which the referee accepts
        # only within the skew it allows off the service's clock (DESIGN decision 9)
        """The competition's refusal of a hand's start at ``at`` (the service's time of it), or None (also for a
        competition with no aggregate)."""
        competition = self.competition_of(envelope.competition_id)
        if competition is None:
            return None
        count = self.chip_count(competition)
        if started.button is None:
            self._carry_stacks_off_the_floor(competition, started, count)
        try:
            verify_hand_start(
                competition, started, at, count,
                envelope.recorded_by.person, envelope.recorded_by.role, started_at=envelope.occurred_at,
            )  # fmt: skip
        except RuleError as refusal:
            return refusal
        return None

    def refusal_while_serving(self, envelope: Envelope, event: Any) -> DisciplineError | None:
        """A player serving missed rounds acting before his hand is killed is refused: he is dealt in, posts his
        forced bets, and his hand is killed (the federation digest §3.7, bfsp 6.4.4)."""
        if not isinstance(event, _PLAYERS_ACTS) or envelope.competition_id in self._no_competition:
            return None  # (only a competition's cases make players serve missed rounds)
        key = (envelope.competition_id, envelope.table_id or "", envelope.hand_id or "")
        if key not in self._noted:
            self._recall_serving(key)
        waiting = self._to_kill.get(key)
        if not waiting or event.seat not in waiting:
            return None
        participant, penalty = waiting[event.seat]
        return acting_while_serving(participant, penalty)

    def follow_hand(self, batch: Batch, envelope: Envelope, event: Any, hand: Hand, meta: JSON) -> None:
        """After a hand event was accepted: the floor records the table's hand when a competition's hand starts
        and ends (so the table's hands are reported once, as hands), and the kills owed are struck off."""
        if envelope.competition_id in self._no_competition and not self._noted:
            # a hand of no Competition (an import, a plain simulation): no floor to follow it, no kills owed (only
            # a competition's cases note them), nothing noted to forget; asked at every hand event
            return
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
                    number, event.button, time_of_stored_act(envelope.occurred_at, meta), _recorder(envelope), after_misdeal, meta
                )
                self._dealers[hand.id] = _recorder(envelope)
        if hand.is_over:
            dealer = self._dealers.pop(hand.id, None)
            players = {entry.seat: entry.player for entry in started.seats}
            stacks = {players[seat]: chips for seat, chips in sorted(hand.engine.stacks.items())}
            misdealt = any(type(e).__name__ in _VOIDS for e in hand.pending_events)
            if competition.floor is not None and competition.floor.table(number).hand_running:
                meta.update(stacks=stacks, misdealt=misdealt)
                competition.end_table_hand(number, time_of_stored_act(envelope.occurred_at, meta), dealer or self._dealer_of(hand), meta)
            elif started.button is None:
                # A stud hand has no button for the floor to record: the chips it leaves are followed here alone,
                # and found again in the hands themselves after a restart (:meth:`_carry_stacks_off_the_floor`).
                self.chip_count(competition).hand_ended(
                    meta["hand"], number, stacks, misdealt, time_of_stored_act(envelope.occurred_at, meta)
                )
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
        typed = recorded_event(recorded)
        count.follow(recorded.originator_version, typed, recorded.meta, recorded.timestamp)
        named = recorded.meta.get("hand") if rulings and isinstance(typed, TableHandEnded) else None
        if named:
            for at, ruling, moved in self._rulings_moving_chips(competition.competition_id, str(named)):
                count.due(str(named), ruling, moved, at)

    def _rulings_moving_chips(self, competition_id: str, named: str) -> list[tuple[datetime, str, dict[str, int]]]:
        """Each ruling on hand ``named`` that moved chips: when it was issued, its name, player → chips moved."""
        review = self.review(competition_id, named)
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
            moved = by_player(hand, chips_moved(outcome, rulings[:n], ruling))
            if moved:
                found.append((at, ruling.ruling, moved))
        return found

    # --- the aggregates -----------------------------------------------------------------------------------

    def will_look_up(self, envelope: Envelope, event: Any) -> UUID | None:
        """The stream a federation record's handler will look for that is seldom there — a registering athlete's
        season record, the review of a busted player's hand: asked of the store for a whole batch at once
        (:meth:`not_stored`), not one round trip per record."""
        if isinstance(event, RegulationsAdopted):
            # the registrations that follow it in the batch count in its season (if it is accepted: a guess
            # only decides what is asked of the store, never what is found)
            self._seasons_ahead[envelope.competition_id] = str(event.regulations.starts_on.year)
        elif isinstance(event, ParticipantRegistered):
            competition = self.hot.get(competition_stream_id(envelope.competition_id))
            season = (
                season_of(competition) if isinstance(competition, Competition)
                else self._seasons_ahead.get(envelope.competition_id)
            )
            if season is not None:
                return season_record_id(event.person, season)
        elif isinstance(event, PlayerEliminated) and "/" in event.hand:
            return hand_review_id(envelope.competition_id, event.hand)
        return None

    def not_stored(self, streams: set[UUID]) -> None:
        """The streams of the batch beginning that the store does not hold (replacing the last batch's)."""
        self._not_stored = streams
        self._seasons_ahead.clear()

    def find(self, stream: UUID) -> Any | None:
        found = self.hot.get(stream)
        if found is not None:
            return found
        if stream in self._not_stored:
            return None
        try:
            loaded: Aggregate = self.store.repository.get(stream)
        except AggregateNotFoundError:
            return None
        self.hot[stream] = loaded
        return loaded

    def review(self, competition_id: str, named: str) -> HandReview | None:
        """The review of hand ``named`` (the rulings on it), or None. Only the rulings' handler opens one, here
        (:meth:`opened_review`), so a hand found without one is remembered: each bust asks of its hand."""
        stream = hand_review_id(competition_id, named)
        if stream in self._no_review:
            return None
        found = self.find(stream)
        if not isinstance(found, HandReview):
            self._no_review.add(stream)
            return None
        return found

    def opened_review(self, review: HandReview) -> None:
        self._no_review.discard(review.id)

    def registered(self, competition_id: str, participant: str) -> None:
        """``participant`` has just entered ``competition_id``: no case can be open for him yet (only an entrant
        has one, :meth:`case`), so the floor need not ask the store at his first hand."""
        self._no_case.add(case_id(competition_id, participant))

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
        verify_entrant(competition.competition_id, participant, competition.entries)
        self._no_case.discard(case_id(competition.competition_id, participant))
        return DisciplinaryCase.open(competition.competition_id, participant, act.at, act.meta)

    def protest(self, competition_id: str, protest: str) -> Protest:
        found = self.find(protest_id(competition_id, protest))
        if found is None:
            raise NotYet(f"no protest {protest} has been filed at {competition_id}", "payload.protest")
        assert isinstance(found, Protest)
        return found

    def archive(self, competition_id: str) -> ProtocolArchive | None:
        found = self.find(archive_id(competition_id))
        assert found is None or isinstance(found, ProtocolArchive)
        return found

    def compiled_protocol(self, competition_id: str) -> CompiledProtocol:
        """The competition's protocol as the store holds it now. The referee commits what it judged before a
        snapshot's record first (:meth:`ingest.referee.Referee.judge`), so the store holds the log up to it."""
        if self._protocols is None:
            raise ProtocolsNotWired(
                "this referee was started without the protocol compiler (api/bootstrap.py wires it): it cannot "
                "judge a snapshot of the protocol"
            )
        return self._protocols(self.store, competition_id)

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

    def verify_role(self, act: Reported) -> None:
        name = act_of(act.event)
        if name is None:
            return
        verify_permitted(name, act.role, delegations=self._delegations(act.competition_id, act.by.person, act.role))

    def adopted(self, competition_id: str) -> None:
        """A competition has adopted its Regulations: its hands are judged against it from now on."""
        self._no_competition.discard(competition_id)


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
    return _chip_count_stream(competition.id)


@lru_cache(maxsize=4096)
def _chip_count_stream(competition: UUID) -> UUID:
    # asked at every act of a competition and every start and end of its hands
    return uuid5(competition, "chip-count")


def by_player(hand: Hand, moved: dict[int, int]) -> dict[str, int]:
    players = {entry.seat: entry.player for entry in hand.engine.started.seats}
    return {players[seat]: chips for seat, chips in moved.items()}


def _recorder(envelope: Envelope) -> Recorder:
    return Recorder(envelope.recorded_by.person, envelope.recorded_by.role)


def rulebook_of(desk: Desk, act: Reported) -> Rulebook:
    """The competition's rulebook, else the one the record names (a competition with no Regulations)."""
    competition = desk.find(competition_stream_id(act.competition_id))
    return competition.rulebook if isinstance(competition, Competition) else get_rulebook(act.envelope.rulebook)


def challenge_window(desk: Desk, act: Reported, hand: Hand) -> ChallengeWindow | None:
    """How long the result of the envelope's ``hand`` stays open to challenge: until the next hand at the table
    starts, or a while after the award when it ended at a break; None while the hand has not ended."""
    assert act.envelope.table_id is not None and act.envelope.hand_id is not None
    ended = [s.timestamp for s in desk.hand_events(hand) if type(s).__name__ == "HandEnded"]
    if not ended:
        return None
    following = desk.find(hand_id(act.envelope.table_id, int(act.envelope.hand_id) + 1, act.competition_id))
    next_started = desk.hand_events(following)[0].timestamp if isinstance(following, Hand) else None
    competition = desk.find(competition_stream_id(act.competition_id))
    if not isinstance(competition, Competition):
        return ChallengeWindow(ended[-1], False, next_started)
    at_break = next_started is None and _on_a_break(competition, act.recorded_at)
    return ChallengeWindow(ended[-1], at_break, next_started, competition_ended_at=competition.ended_at)


def _on_a_break(competition: Competition, at: datetime) -> bool:
    """Whether play is on a break at ``at``: the schedule's, by the level clock, or one the Chief Judge announced
    by stopping the clock (bfsp 2.1.5, 5.9.1)."""
    phase = competition.phase_at(at)
    return phase is not None and (phase.on_break is not None or phase.paused)
