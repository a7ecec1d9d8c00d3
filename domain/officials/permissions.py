"""The roles table: every act recorded at a competition, who may record it, and the rule that says so.

The table is the federation's (digest §3.5 with the rules it cites): the TDA texts have no roles table of their
own (their tournament director and floor are the Chief Judge and the judges), so a refusal cites the federation
whatever rulebook the game is played under, or the TDA rule the federation follows where it is silent
(``"tda-2022 24"``: the chip race, which bfsp does not describe).

An act is named by the event that records it (``MisdealDeclared``, ``PlayerMoved``) or, where one event carries
several acts of different weight, by the act itself (a warning and a competition disqualification are both a
``PenaltyImposed``; see :class:`Act`).

The importer and the simulator record the game as it was dealt (the dealer's acts and his mechanical
corrections) and nothing else: an official's act needs the official's own role, so an imported history never
imposes a penalty or decides a protest in anybody's name.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum

from domain.errors import NotPermittedError, RuleRef
from domain.roles import Role


class Act(StrEnum):
    # --- the game as dealt (bfsp 2.4.1) ---------------------------------------------------------------------
    HAND_STARTED = "HandStarted"
    FORCED_BET_POSTED = "ForcedBetPosted"
    HOLE_CARDS_DEALT = "HoleCardsDealt"
    CARD_BURNED = "CardBurned"
    BOARD_DEALT = "BoardDealt"
    PLAYER_ACTED = "PlayerActed"
    RAW_ACT_REPORTED = "RawActReported"
    CARDS_DISCARDED = "CardsDiscarded"
    HAND_SHOWN = "HandShown"
    HAND_MUCKED = "HandMucked"
    # --- the dealer's mechanical corrections (bfsp 6.3.7-6.3.9, 6.4-6.6) ------------------------------------
    DEALT_SHORT = "DealtShort"
    MISSING_CARD_DEALT = "MissingCardDealt"
    HAND_KILLED = "HandKilled"
    PENALTY_HAND_KILLED = "PenaltyHandKilled"
    FLOP_DEALT_UNBURNED = "FlopDealtUnburned"
    FLOP_REFORMED = "FlopReformed"
    HAND_MUCKED_BY_MISTAKE = "HandMuckedByMistake"
    FOREIGN_CARD_FOUND = "ForeignCardFound"
    PREMATURE_CARDS_DEALT = "PrematureCardsDealt"
    PREMATURE_CARDS_RETURNED = "PrematureCardsReturned"
    BURNS_SHUFFLED_INTO_STUB = "BurnsShuffledIntoStub"
    COMMUNITY_CARD_DEALT = "CommunityCardDealt"
    HOLE_CARD_EXPOSED = "HoleCardExposed"
    EXPOSED_CARD_REPLACED = "ExposedCardReplaced"
    MUCK_SHUFFLED_INTO_STUB = "MuckShuffledIntoStub"
    INCORRECT_BET_ACCEPTED = "IncorrectBetAccepted"
    INCORRECT_BET_CORRECTED = "IncorrectBetCorrected"
    EXTRA_CARD_DEALT = "ExtraCardDealt"
    BOXED_CARD_FOUND = "BoxedCardFound"
    SHOW_REQUESTED = "ShowRequested"
    # --- officials at the hand ------------------------------------------------------------------------------
    FOUR_CARD_FLOP_DEALT = "FourCardFlopDealt"
    MISDEAL_DECLARED = "MisdealDeclared"
    HAND_VOIDED = "HandVoided"
    CARDS_RESTORED = "CardsRestored"
    MUCKED_CARDS_INSPECTED = "MuckedCardsInspected"
    CLOCK_CALLED = "ClockCalled"
    CLOCK_EXPIRED = "ClockExpired"
    # --- rulings (RulingIssued, by kind) ---------------------------------------------------------------------
    FINDING_OF_FACT = "FindingOfFact"
    CHIEF_JUDGE_DECISION = "ChiefJudgeDecision"
    FAIRNESS_RULING = "FairnessRuling"
    # --- the competition ------------------------------------------------------------------------------------
    REGULATIONS_ADOPTED = "RegulationsAdopted"
    OFFICIAL_APPOINTED = "OfficialAppointed"
    AUTHORITY_DELEGATED = "AuthorityDelegated"
    OFFICIAL_REMOVED = "OfficialRemoved"
    PARTICIPANT_REGISTERED = "ParticipantRegistered"
    SEAT_DRAW_COMMITTED = "SeatDrawCommitted"
    SEAT_DRAW_CONDUCTED = "SeatDrawConducted"
    SEATING_VERIFIED = "SeatingVerified"
    START_TIME_CHANGED = "StartTimeChanged"
    SCHEDULE_CHANGED = "ScheduleChanged"
    LEVEL_STARTED = "LevelStarted"
    BREAK_STARTED = "BreakStarted"
    BREAK_ENDED = "BreakEnded"
    #: the Chief Judge stops the level clock and lets it run again (bfsp 2.1.5: a break he announces)
    LEVEL_CLOCK_PAUSED = "LevelClockPaused"
    LEVEL_CLOCK_RESUMED = "LevelClockResumed"
    PLAYER_MOVED = "PlayerMoved"
    #: table counts two apart at the start of a hand (bfsp 3.1: "by Chief Judge decision")
    BALANCE_TOLERANCE_WIDENED = "BalanceToleranceWidened"
    #: the mover is in the hand: the next player clockwise who is not moves instead (bfsp 3.1)
    MOVER_EXCEPTION_DECIDED = "MoverExceptionDecided"
    TABLE_BROKEN = "TableBroken"
    TABLE_HALTED = "TableHalted"
    HAND_FOR_HAND_STARTED = "HandForHandStarted"
    CHIP_RACE_ORDERED = "ChipRaceOrdered"
    CHIP_RACE_CONDUCTED = "ChipRaceConducted"
    #: each hand of hand-for-hand play, every table together, and the end of it (TDA 2022 RP-8)
    HAND_FOR_HAND_HAND_STARTED = "HandForHandHandStarted"
    HAND_FOR_HAND_ENDED = "HandForHandEnded"
    #: the seed's hash recorded before the final-table draw, as before the opening draw (bfsp 2.3.2, 3.1)
    FINAL_TABLE_DRAW_COMMITTED = "FinalTableDrawCommitted"
    FINAL_TABLE_DRAW_CONDUCTED = "FinalTableDrawConducted"
    #: a hand at one of the competition's tables, as the floor sees it: its button, and that it is over
    TABLE_HAND_STARTED = "TableHandStarted"
    TABLE_HAND_ENDED = "TableHandEnded"
    #: the seed's hash recorded before a table is broken by its two-step draw (TDA 2022 10-B)
    TABLE_BREAK_COMMITTED = "TableBreakCommitted"
    #: the players left share out the prizes still to pay (TDA 2017 Part G), which the Regulations do not cover
    DEAL_AGREED = "DealAgreed"
    PLAYER_ELIMINATED = "PlayerEliminated"
    COMPETITION_WINNER_DECLARED = "CompetitionWinnerDeclared"
    #: the Chief Judge closes the competition once play is over (bfsp 2.1.1, 5.10.1)
    COMPETITION_ENDED = "CompetitionEnded"
    FINAL_PROTOCOL_COMPILED = "FinalProtocolCompiled"
    FINAL_PROTOCOL_SIGNED = "FinalProtocolSigned"
    #: a snapshot of the protocol as it stands, to sign or to forward with a protest (bfsp 2.3.3, 7.3.3)
    PROTOCOL_SNAPSHOT_REQUESTED = "ProtocolSnapshotRequested"
    RESULT_DOCUMENTS_ISSUED = "ResultDocumentsIssued"
    # --- discipline -----------------------------------------------------------------------------------------
    VIOLATION_RECORDED = "ViolationRecorded"
    WARNING_GIVEN = "WarningGiven"
    MISSED_ROUNDS_IMPOSED = "MissedRoundsImposed"
    COMPETITION_DISQUALIFICATION = "CompetitionDisqualification"
    SEASON_DISQUALIFICATION = "SeasonDisqualificationDecided"
    #: the season's rating rules (the rules name the rating, bfsp 2.10, and leave its formula to the federation)
    RATING_RULES_ADOPTED = "RatingRulesAdopted"
    PENALTY_HAND_SERVED = "PenaltyHandServed"
    VIOLATION_ENTERED_IN_PROTOCOL = "ViolationEnteredInProtocol"
    PENALTY_RESCINDED = "PenaltyRescinded"
    # --- challenges and protests ----------------------------------------------------------------------------
    HAND_CHALLENGED = "HandChallenged"
    CHALLENGE_DECIDED = "ChallengeDecided"
    PROTEST_FILED = "ProtestFiled"
    PROTEST_RECEIVED = "ProtestReceived"
    PROTEST_DECIDED_AT_EVENT = "ProtestDecidedAtEvent"
    PROTEST_FORWARDED = "ProtestForwarded"
    PROTEST_DECIDED_BY_FEDERATION = "ProtestDecidedByFederation"
    FILER_NOTIFIED = "FilerNotified"
    # --- integrity cases (domain/integrity/case.py) -----------------------------------------------------------
    INTEGRITY_CASE_OPENED = "IntegrityCaseOpened"
    INTEGRITY_CASE_NOTED = "IntegrityCaseNoted"
    INTEGRITY_CASE_CONCLUDED = "IntegrityCaseConcluded"
    INTEGRITY_CASE_REPORTED = "IntegrityCaseReported"


class Delegation(StrEnum):
    """What the Chief Judge may hand to an authorised person (bfsp 3.1, 5.2, 6.3)."""

    BALANCING = "balancing"
    DRAW = "draw"
    MISDEAL = "misdeal"


@dataclass(frozen=True, slots=True)
class Permission:
    """Who may record ``act``: ``roles``, and an authorised person holding ``delegation``.

    ``doing`` is the act in words after "may not" (``"declare a misdeal"``); ``rule`` the federation's rule,
    or ``"<rulebook> <rule>"`` where the federation is silent and follows another rulebook.
    """

    doing: str
    roles: frozenset[Role]
    rule: str
    delegation: Delegation | None = None

    def cite(self) -> RuleRef:
        book, _, borrowed = self.rule.partition(" ")
        return RuleRef(book, borrowed) if borrowed else RuleRef("bfsp", self.rule)


DEALER, JUDGE, CHIEF_JUDGE = Role.DEALER, Role.JUDGE, Role.CHIEF_JUDGE
SECRETARY, FEDERATION, PARTICIPANT = Role.SECRETARY, Role.FEDERATION, Role.PARTICIPANT

#: the game as dealt: the dealer runs it (2.4.1), the officials above him may enter it for him (2.1.1, 2.2.2),
#: and the importer and the simulator report it as their source dealt it
_AT_THE_TABLE = frozenset({DEALER, JUDGE, CHIEF_JUDGE, Role.IMPORTER, Role.SIMULATOR})
_OFFICIALS = frozenset({JUDGE, CHIEF_JUDGE})
_CHIEF_JUDGE = frozenset({CHIEF_JUDGE})
_INTEGRITY_TEAM = frozenset({Role.INTEGRITY, FEDERATION})


def _dealt(doing: str, rule: str = "2.4.1") -> Permission:
    return Permission(doing, _AT_THE_TABLE, rule)


PERMISSIONS: dict[Act, Permission] = {
    Act.HAND_STARTED: _dealt("start a hand", "5.5.6"),
    Act.FORCED_BET_POSTED: _dealt("post a forced bet", "6.4.4"),
    Act.HOLE_CARDS_DEALT: _dealt("deal hole cards"),
    Act.CARD_BURNED: _dealt("burn a card"),
    Act.BOARD_DEALT: _dealt("deal the board"),
    Act.PLAYER_ACTED: _dealt("enter a player's action"),
    Act.RAW_ACT_REPORTED: _dealt("report what a player said or pushed"),
    Act.CARDS_DISCARDED: _dealt("enter a player's discards"),
    Act.HAND_SHOWN: _dealt("enter a hand shown"),
    Act.HAND_MUCKED: _dealt("enter a hand mucked"),
    Act.DEALT_SHORT: _dealt("report a seat dealt short", "6.3.5"),
    Act.MISSING_CARD_DEALT: _dealt("deal a missing card", "6.3.5"),
    Act.HAND_KILLED: _dealt("kill a hand", "6.3.7"),
    Act.PENALTY_HAND_KILLED: _dealt("kill a penalised player's hand", "6.4.4"),
    Act.FLOP_DEALT_UNBURNED: _dealt("report an unburned flop", "6.6.2"),
    Act.FLOP_REFORMED: _dealt("re-form a flop", "6.6.2"),
    Act.HAND_MUCKED_BY_MISTAKE: _dealt("report a hand mucked by mistake", "6.4.2"),
    Act.FOREIGN_CARD_FOUND: _dealt("report a card from outside the deck", "6.4.5"),
    Act.PREMATURE_CARDS_DEALT: _dealt("report cards dealt early", "6.6.5"),
    Act.PREMATURE_CARDS_RETURNED: _dealt("return cards dealt early", "6.6.6"),
    Act.BURNS_SHUFFLED_INTO_STUB: _dealt("shuffle the burns into the stub", "6.5.3"),
    Act.COMMUNITY_CARD_DEALT: _dealt("deal a community card", "6.5.3"),
    Act.HOLE_CARD_EXPOSED: _dealt("report a hole card exposed", "6.6.1"),
    Act.EXPOSED_CARD_REPLACED: _dealt("replace an exposed card", "6.6.1"),
    Act.MUCK_SHUFFLED_INTO_STUB: _dealt("shuffle the muck into the stub", "6.5.3"),
    Act.INCORRECT_BET_ACCEPTED: _dealt("enter a bet of a size the rules do not allow, as it was accepted", "4.13"),
    Act.INCORRECT_BET_CORRECTED: _dealt("correct an incorrect bet", "4.13"),
    Act.EXTRA_CARD_DEALT: _dealt("report a card dealt too many", "6.3.5"),
    Act.BOXED_CARD_FOUND: _dealt("report a card face up in the deck", "6.4.5"),
    Act.SHOW_REQUESTED: _dealt("enter a request to see a hand", "5.9.2"),
    Act.FOUR_CARD_FLOP_DEALT: Permission("pick the burn from a four-card flop", _OFFICIALS, "6.6.3"),
    Act.MISDEAL_DECLARED: Permission(
        "declare a misdeal", frozenset({DEALER, JUDGE, CHIEF_JUDGE}), "6.3", Delegation.MISDEAL
    ),
    Act.HAND_VOIDED: Permission("void a hand", _OFFICIALS, "6.1.1"),
    Act.CARDS_RESTORED: Permission("restore folded or mucked cards", _CHIEF_JUDGE, "6.6.9"),
    Act.MUCKED_CARDS_INSPECTED: Permission("inspect mucked cards", _CHIEF_JUDGE, "5.9.2"),
    # bfsp 7.1.7's note does not say who calls the clock: the federation follows TDA 2022 29, where the floor
    # starts it (a player may ask for it) and the hand is dead, mucked by the dealer, when it runs out
    Act.CLOCK_CALLED: Permission("call the clock", _OFFICIALS, "tda-2022 29"),
    Act.CLOCK_EXPIRED: Permission(
        "record that the clock ran out", frozenset({DEALER, JUDGE, CHIEF_JUDGE}), "tda-2022 29"
    ),
    Act.FINDING_OF_FACT: Permission("find what took place at the table", _OFFICIALS, "2.2.3"),
    Act.CHIEF_JUDGE_DECISION: Permission("decide as the Chief Judge", _CHIEF_JUDGE, "2.1.6"),
    Act.FAIRNESS_RULING: Permission("depart from the rules for fairness", _CHIEF_JUDGE, "7.4.1"),
    Act.REGULATIONS_ADOPTED: Permission(
        "adopt the competition's Regulations", frozenset({FEDERATION, CHIEF_JUDGE}), "2.1.1"
    ),
    Act.OFFICIAL_APPOINTED: Permission("appoint an official", frozenset({FEDERATION, CHIEF_JUDGE}), "2.1.1"),
    Act.AUTHORITY_DELEGATED: Permission("delegate the Chief Judge's authority", _CHIEF_JUDGE, "3.1"),
    Act.OFFICIAL_REMOVED: Permission("remove an official from duty", _CHIEF_JUDGE, "2.1.5"),
    Act.PARTICIPANT_REGISTERED: Permission(
        "register a participant", frozenset({SECRETARY, CHIEF_JUDGE}), "2.3.1"
    ),
    Act.SEAT_DRAW_COMMITTED: Permission(
        "commit the seat draw", frozenset({SECRETARY, CHIEF_JUDGE}), "2.3.2", Delegation.DRAW
    ),
    Act.SEAT_DRAW_CONDUCTED: Permission(
        "conduct the seat draw", frozenset({SECRETARY, CHIEF_JUDGE}), "2.3.2", Delegation.DRAW
    ),
    Act.SEATING_VERIFIED: Permission(
        "verify the seating", frozenset({JUDGE, CHIEF_JUDGE, SECRETARY}), "5.2"
    ),
    Act.START_TIME_CHANGED: Permission("change the start time", _CHIEF_JUDGE, "2.1.5"),
    Act.SCHEDULE_CHANGED: Permission("change the game schedule", _CHIEF_JUDGE, "2.1.5"),
    Act.LEVEL_STARTED: Permission("start a level", frozenset({JUDGE, CHIEF_JUDGE, SECRETARY}), "3.3"),
    Act.BREAK_STARTED: Permission("announce a break", _CHIEF_JUDGE, "2.1.5"),
    Act.BREAK_ENDED: Permission("end a break", _CHIEF_JUDGE, "2.1.5"),
    Act.LEVEL_CLOCK_PAUSED: Permission("stop the level clock", _CHIEF_JUDGE, "2.1.5"),
    Act.LEVEL_CLOCK_RESUMED: Permission("let the level clock run again", _CHIEF_JUDGE, "2.1.5"),
    Act.PLAYER_MOVED: Permission("move a player", _CHIEF_JUDGE, "3.1", Delegation.BALANCING),
    Act.BALANCE_TOLERANCE_WIDENED: Permission("let tables differ by two players", _CHIEF_JUDGE, "3.1"),
    Act.MOVER_EXCEPTION_DECIDED: Permission("move a player other than the next big blind", _CHIEF_JUDGE, "3.1"),
    Act.TABLE_BREAK_COMMITTED: Permission(
        "commit the draw that breaks a table", _CHIEF_JUDGE, "3.1", Delegation.BALANCING
    ),
    Act.TABLE_BROKEN: Permission("break a table", _CHIEF_JUDGE, "3.1", Delegation.BALANCING),
    Act.TABLE_HALTED: Permission("halt a table", _CHIEF_JUDGE, "tda-2022 11-D", Delegation.BALANCING),
    Act.HAND_FOR_HAND_STARTED: Permission("start hand-for-hand play", _CHIEF_JUDGE, "tda-2022 RP-8"),
    # each hand-for-hand hand charges the level clock a fixed time: the schedule is the Chief Judge's (2.1.5)
    Act.HAND_FOR_HAND_HAND_STARTED: Permission(
        "start a hand of hand-for-hand play", _CHIEF_JUDGE, "tda-2022 RP-8"
    ),
    Act.HAND_FOR_HAND_ENDED: Permission("end hand-for-hand play", _CHIEF_JUDGE, "tda-2022 RP-8"),
    Act.CHIP_RACE_ORDERED: Permission("order a chip race", _CHIEF_JUDGE, "tda-2022 24"),
    Act.CHIP_RACE_CONDUCTED: Permission(
        "conduct a chip race", frozenset({DEALER, JUDGE, CHIEF_JUDGE}), "tda-2022 24"
    ),
    # the commitment is the first step of the draw the Secretary conducts on the Chief Judge's decision
    Act.FINAL_TABLE_DRAW_COMMITTED: Permission(
        "commit the final-table draw", frozenset({SECRETARY, CHIEF_JUDGE}), "2.3.2", Delegation.DRAW
    ),
    Act.FINAL_TABLE_DRAW_CONDUCTED: Permission(
        "conduct the final-table draw", frozenset({SECRETARY, CHIEF_JUDGE}), "3.1", Delegation.DRAW
    ),
    # the game as dealt: the floor's record of a hand starting with the first riffle and ending with the push
    Act.TABLE_HAND_STARTED: _dealt("start a hand at a table", "5.5.6"),
    Act.TABLE_HAND_ENDED: _dealt("end a hand at a table"),
    # a deal departs from the Regulations' prizes, a case the Rules do not cover: the Chief Judge decides it
    Act.DEAL_AGREED: Permission("approve a deal among the players left", _CHIEF_JUDGE, "2.1.6"),
    Act.PLAYER_ELIMINATED: Permission(
        "eliminate a player", frozenset({JUDGE, CHIEF_JUDGE, SECRETARY}), "5.10.2"
    ),
    Act.COMPETITION_WINNER_DECLARED: Permission(
        "declare the winner", frozenset({CHIEF_JUDGE, SECRETARY}), "5.10.1"
    ),
    # the Chief Judge is responsible for refereeing the competition (2.1.1): he says when it is over
    Act.COMPETITION_ENDED: Permission("end the competition", _CHIEF_JUDGE, "2.1.1"),
    Act.FINAL_PROTOCOL_COMPILED: Permission("compile the final protocol", frozenset({SECRETARY}), "2.3.3"),
    Act.FINAL_PROTOCOL_SIGNED: Permission(
        "sign the final protocol", frozenset({SECRETARY, CHIEF_JUDGE}), "2.1.4"
    ),
    Act.PROTOCOL_SNAPSHOT_REQUESTED: Permission(
        "take a snapshot of the protocol", frozenset({SECRETARY, CHIEF_JUDGE}), "2.3.3"
    ),
    Act.RESULT_DOCUMENTS_ISSUED: Permission("issue the result documents", frozenset({SECRETARY}), "2.3.3"),
    Act.VIOLATION_RECORDED: Permission("record a violation", _OFFICIALS, "7.2.1"),
    Act.WARNING_GIVEN: Permission("give a warning", _OFFICIALS, "7.2.1"),
    Act.MISSED_ROUNDS_IMPOSED: Permission("impose missed rounds", _OFFICIALS, "7.2.1"),
    Act.COMPETITION_DISQUALIFICATION: Permission("disqualify from the competition", _CHIEF_JUDGE, "7.2.2"),
    Act.SEASON_DISQUALIFICATION: Permission("disqualify for the season", frozenset({FEDERATION}), "7.2.3"),
    Act.RATING_RULES_ADOPTED: Permission("adopt a season's rating rules", frozenset({FEDERATION}), "2.10"),
    Act.PENALTY_HAND_SERVED: Permission(
        "kill a penalised player's hand", frozenset({DEALER, JUDGE, CHIEF_JUDGE}), "6.4.4"
    ),
    Act.VIOLATION_ENTERED_IN_PROTOCOL: Permission("enter a violation in the protocol", _CHIEF_JUDGE, "7.2.3"),
    Act.PENALTY_RESCINDED: Permission("rescind a penalty", frozenset({CHIEF_JUDGE, FEDERATION}), "7.3.4"),
    Act.HAND_CHALLENGED: Permission("challenge a hand's result", frozenset({PARTICIPANT}), "5.9.1"),
    Act.CHALLENGE_DECIDED: Permission("decide a challenge", _OFFICIALS, "5.9.1"),
    Act.PROTEST_FILED: Permission("file a protest", frozenset({PARTICIPANT}), "7.3.1"),
    # the participant hands it in through the Chief Judge (7.3.1); the Secretary keeps the competition's documents
    # (2.3.1) and may record its receipt for him
    Act.PROTEST_RECEIVED: Permission(
        "record a participant's protest received", frozenset({SECRETARY, CHIEF_JUDGE}), "7.3.1"
    ),
    Act.PROTEST_DECIDED_AT_EVENT: Permission("decide a protest at the event", _CHIEF_JUDGE, "2.1.3"),
    Act.PROTEST_FORWARDED: Permission("forward a protest to the federation", _CHIEF_JUDGE, "7.3.3"),
    Act.PROTEST_DECIDED_BY_FEDERATION: Permission(
        "decide a protest to the federation", frozenset({FEDERATION}), "7.3.4"
    ),
    Act.FILER_NOTIFIED: Permission("notify the filer of a decision", frozenset({CHIEF_JUDGE, FEDERATION}), "7.3.4"),
    # bfsp has no integrity office: the federation's integrity team investigates collusion (7.1.4, 7.1.15) for
    # the federation, and reports what it confirms to the competition's Chief Judge, who penalises (7.2.2)
    Act.INTEGRITY_CASE_OPENED: Permission("open an integrity case", _INTEGRITY_TEAM, "7.1.4"),
    Act.INTEGRITY_CASE_NOTED: Permission("add a note to an integrity case", _INTEGRITY_TEAM, "7.1.4"),
    Act.INTEGRITY_CASE_CONCLUDED: Permission("conclude an integrity case", _INTEGRITY_TEAM, "7.1.4"),
    Act.INTEGRITY_CASE_REPORTED: Permission(
        "report an integrity case to the Chief Judge", _INTEGRITY_TEAM, "7.1.4"
    ),
}

_WHO: dict[Role, tuple[str, str]] = {
    # (one of them, as the subject of "may not"; all of them, in "only ... may")
    CHIEF_JUDGE: ("the Chief Judge", "the Chief Judge"),
    JUDGE: ("a judge", "a judge"),
    SECRETARY: ("the secretary", "the secretary"),
    DEALER: ("a dealer", "the dealer"),
    Role.AUTHORISED: ("a person the Chief Judge authorised", "a person the Chief Judge authorised"),
    FEDERATION: ("the federation", "the federation"),
    PARTICIPANT: ("a participant", "a participant"),
    Role.INTEGRITY: ("an integrity analyst", "an integrity analyst"),
    Role.VIEWER: ("a viewer", "a viewer"),
    Role.IMPORTER: ("an importer", "an importer"),
    Role.SIMULATOR: ("the simulator", "the simulator"),
}

#: the order officials are named in a sentence: the table first, then up the hierarchy
_ORDER = (
    DEALER, JUDGE, CHIEF_JUDGE, SECRETARY, FEDERATION, Role.INTEGRITY, PARTICIPANT, Role.IMPORTER, Role.SIMULATOR
)


class UnknownActError(KeyError):
    """An act the roles table does not have: a programming error, not a refusal."""

    def __str__(self) -> str:
        return str(self.args[0])


def permission(act: str) -> Permission:
    try:
        return PERMISSIONS[Act(act)]
    except ValueError:
        raise UnknownActError(f"the roles table has no act called {act!r}") from None


def is_permitted(act: str, role: Role, *, delegations: Collection[Delegation] = ()) -> bool:
    rule = permission(act)
    if role in rule.roles:
        return True
    return role is Role.AUTHORISED and rule.delegation is not None and rule.delegation in delegations


def verify_permitted(act: str, role: Role, *, delegations: Collection[Delegation] = ()) -> None:
    """Refuse ``act`` recorded by ``role`` (holding ``delegations`` from the Chief Judge) with the rule.

    ``NotPermittedError("a judge may not disqualify from the competition; only the Chief Judge may",
    RuleRef("bfsp", "7.2.2"))``.
    """
    if is_permitted(act, role, delegations=delegations):
        return
    rule = permission(act)
    who = _WHO[role][0]
    if role is Role.AUTHORISED and rule.delegation is not None:
        reason = (
            f"{who} may not {rule.doing} unless the Chief Judge delegated {rule.delegation.value} to him; "
            f"otherwise only {_only(rule)} may"
        )
    else:
        reason = f"{who} may not {rule.doing}; only {_only(rule)} may"
    raise NotPermittedError(reason, rule.cite())


def verify_named_recorder(
    record: str,
    done: str,
    named: Role,
    recorder: Role,
    rule: RuleRef,
    *,
    named_person: str | None = None,
    recorder_person: str | None = None,
    principle: str = "",
) -> None:
    """An act that names the official who did it (a penalty's ``imposed_by``, a ruling's ``official``) is
    recorded by that official: a record naming another is refused with ``rule``, never re-attributed.

    ``NotPermittedError("the penalty says the Chief Judge imposed it, and it was recorded by the judge", ...)``;
    with the persons named too, both must agree. ``principle``, when given, says first what the act requires
    (``"an official signs in his own name"``).
    """
    if named is recorder and (named_person is None or named_person == recorder_person):
        return
    if named_person is None:
        said = f"the {named.value.replace('_', ' ')}"
        by = f"the {recorder.value.replace('_', ' ')}"
    else:
        said = f"{named_person} ({named.value.replace('_', ' ')})"
        by = f"{recorder_person} ({recorder.value.replace('_', ' ')})"
    stated = f"{principle}: " if principle else ""
    raise NotPermittedError(f"{stated}the {record} says {said} {done} it, and it was recorded by {by}", rule)


@dataclass(frozen=True, slots=True)
class NamesItsOfficial:
    """What an act's record says of the official who did it, declared once on the act's event type (its
    ``NAMES_ITS_OFFICIAL``), so the rule a record naming another official breaks is the act's, never the
    handler's choice: the fields naming his office (``role``) and, when the record names him too, his person
    (``person``); how the refusal speaks of the record (``"the penalty"`` … ``"imposed"``); the rule it cites."""

    record: str
    done: str
    role: str
    rule: RuleRef
    person: str = ""
    principle: str = ""


def verify_recorded_by_named(event: object, recorder: Role, recorder_person: str) -> None:
    """``event``, an act whose record names the official who did it, is recorded by that official (and by that
    person, when the record names one): :func:`verify_named_recorder` with what the event's type declares
    (``NAMES_ITS_OFFICIAL``). An event whose type names no official is a wiring fault (TypeError), not a refusal."""
    names: NamesItsOfficial | None = getattr(type(event), "NAMES_ITS_OFFICIAL", None)
    if names is None:
        raise TypeError(f"{type(event).__name__} names no official who did it: it declares no NAMES_ITS_OFFICIAL")
    verify_named_recorder(
        names.record,
        names.done,
        getattr(event, names.role),
        recorder,
        names.rule,
        named_person=getattr(event, names.person) if names.person else None,
        recorder_person=recorder_person if names.person else None,
        principle=names.principle,
    )


def _only(rule: Permission) -> str:
    names = [_WHO[role][1] for role in _ORDER if role in rule.roles]
    if rule.delegation is not None:
        names.append("a person the Chief Judge authorised")
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " or " + names[-1]
