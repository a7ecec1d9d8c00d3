"""The simulator: a seeded 3 × 9 competition whose every hand is legal, whose chips are conserved from hand
to hand, which plays the variety a demo and the integrity tests need, and whose mistakes the referee refuses
with the rule each one meant to break."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from domain.hand.events import (
    ActionKind,
    BoardDealt,
    CardBurned,
    HandMucked,
    HandShown,
    HandStarted,
    PlayerActed,
    ReportedEvent,
)
from domain.hand.replay import Replayer, replay
from domain.rejections import rejection_log_id
from domain.rulebooks import get_rulebook
from ingest.envelope import Envelope
from ingest.log import EmbeddedLog
from ingest.referee import Referee
from ingest.runners import drain_embedded
from ingest.simulator import SimulatedHand, Simulation, simulate
from ingest.simulator.clock import simulation_clock
from ingest.store import Store, store_env

pytestmark = pytest.mark.unit

SEED = 20261129
STACK = 5000


@pytest.fixture(scope="module")
def competition() -> Simulation:
    return simulate(SEED, tables=3, seats=9, hands_per_table=20, starting_stack=STACK)


def starts(competition: Simulation, table_id: str) -> list[HandStarted]:
    return [h.started for h in competition.hands if h.table_id == table_id]


def test_every_simulated_hand_replays_legal_to_its_end_with_what_the_simulator_derived(
    competition: Simulation,
) -> None:
    assert len(competition.hands) >= 55
    for hand in competition.hands:
        result = replay(hand.events, get_rulebook(hand.started.rulebook))
        assert result.ok, (hand.table_id, hand.hand_number, result.rejection)
        assert result.is_over and result.derived == hand.derived
        assert dict(result.stacks) == dict(hand.played.final_stacks)


def test_chips_carry_from_hand_to_hand_and_the_total_never_changes(competition: Simulation) -> None:
    total = STACK * len(competition.players)
    chips = {p.name: STACK for p in competition.players}
    for hand in competition.hands:
        seated = {e.player: e.stack for e in hand.started.seats}
        assert all(chips[name] == stack for name, stack in seated.items()), (hand.table_id, hand.hand_number)
        names = {e.seat: e.player for e in hand.started.seats}
        for seat, stack in hand.played.final_stacks.items():
            assert stack >= 0
            chips[names[seat]] = stack
        assert sum(chips.values()) == total
    left = {name: n for name, n in chips.items() if n}
    by_person = {p.person_id: p.name for p in competition.players}
    assert {by_person[person]: n for person, n in competition.chip_counts.items()} == left


def test_the_busted_leave_their_seat_and_are_recorded_once_in_the_result(competition: Simulation) -> None:
    out = competition.eliminated
    assert out and len({e.player for e in out}) == len(out)
    assert len(out) + len(competition.chip_counts) == len(competition.players)
    for gone in out:
        later = [
            h for h in competition.hands if h.table_id == gone.table_id and h.hand_number > gone.hand_number
        ]
        assert all(gone.player.name not in {e.player for e in h.started.seats} for h in later)
        busting = next(
            h for h in competition.hands if (h.table_id, h.hand_number) == (gone.table_id, gone.hand_number)
        )
        assert busting.played.final_stacks[gone.seat] == 0
        assert gone.stack_at_start == next(e.stack for e in busting.started.seats if e.seat == gone.seat)


def test_the_draw_seats_everyone_once_over_balanced_tables_and_another_seed_draws_differently(
    competition: Simulation,
) -> None:
    draw = competition.draw
    assert len({d.player for d in draw}) == len(draw) == len(competition.players) == 27
    assert len({p.person_id for p in competition.players}) == len({p.name for p in competition.players}) == 27
    for table in ("T1", "T2", "T3"):
        here = [d for d in draw if d.table_id == table]
        assert len(here) == 9 and sorted(d.seat for d in here) == list(range(1, 10))
    other = simulate(SEED + 1, hands_per_table=0)
    assert [(d.player.name, d.table_id, d.seat) for d in other.draw] != [
        (d.player.name, d.table_id, d.seat) for d in draw
    ]


def test_the_button_starts_at_the_highest_seat_and_moves_one_occupied_seat_a_hand(
    competition: Simulation,
) -> None:
    for table in ("T1", "T2", "T3"):
        hands = starts(competition, table)
        assert hands[0].button == max(e.seat for e in hands[0].seats)
        for before, now in zip(hands, hands[1:], strict=False):
            seats = sorted(e.seat for e in now.seats)
            assert before.button is not None
            assert now.button == next((s for s in seats if s > before.button), seats[0])


def test_the_blinds_follow_the_button_and_heads_up_the_button_posts_the_small_blind(
    competition: Simulation,
) -> None:
    for hand in competition.hands:
        start = hand.started
        seats = sorted(e.seat for e in start.seats)
        assert start.button is not None
        after = seats[seats.index(start.button) + 1 :] + seats[: seats.index(start.button) + 1]
        (small, _), (big, _) = start.stakes.blinds
        if len(seats) == 2:
            assert (small, big) == (start.button, after[0])
        else:
            assert (small, big) == (after[0], after[1])


def test_the_levels_rise_every_six_rounds_and_antes_join_at_level_four(competition: Simulation) -> None:
    for hand in competition.hands:
        start = hand.started
        assert start.level == (hand.round - 1) // 6 + 1
        assert start.stakes.min_bet == start.stakes.blinds[1][1]
        assert bool(start.stakes.antes) == (start.level is not None and start.level >= 4)
    big = {h.started.level: h.started.stakes.blinds[1][1] for h in competition.hands}
    assert [big[n] for n in sorted(big)] == sorted(big.values()) and len(big) == 4


def test_a_card_is_burned_before_every_street_after_the_first(competition: Simulation) -> None:
    for hand in competition.hands:
        events = hand.events
        assert hand.started.burns_recorded
        for i, e in enumerate(events):
            if isinstance(e, BoardDealt):
                before = [x for x in events[:i] if not isinstance(x, HandShown)]
                assert isinstance(before[-1], CardBurned), (hand.table_id, hand.hand_number)


def all_in_acts(hand: SimulatedHand) -> Iterator[int]:
    """Seats whose act put their last chip in, as the engine keeps the stacks."""
    replayer = Replayer(get_rulebook(hand.started.rulebook))
    for event in hand.events:
        replayer.apply(event)
        state = replayer.state
        if isinstance(event, PlayerActed) and state is not None and state.stacks[event.seat] == 0:
            yield event.seat


def folds_to_a_raise(events: tuple[ReportedEvent, ...]) -> int:
    count, raised = 0, False
    for e in events:
        if isinstance(e, BoardDealt):
            raised = False
        elif isinstance(e, PlayerActed):
            count += raised and e.action is ActionKind.FOLD
            raised = raised or e.action is ActionKind.RAISE
    return count


def test_sixty_hands_show_all_ins_side_pots_split_pots_folds_to_raises_and_mucks(
    competition: Simulation,
) -> None:
    hands = competition.hands
    assert sum(any(True for _ in all_in_acts(h)) for h in hands) >= 5
    assert any(len({p.pot_index for p in h.pots}) >= 2 for h in hands), "a side pot"
    assert any(len(p.shares) >= 2 for h in hands for p in h.pots), "a split pot"
    assert sum(folds_to_a_raise(h.events) for h in hands) >= 5
    showdowns_with_a_muck = [
        h
        for h in hands
        if any(isinstance(e, HandMucked) for e in h.events)
        and any(isinstance(e, HandShown) for e in h.events)
    ]
    assert showdowns_with_a_muck
    acts = {e.action for h in hands for e in h.events if isinstance(e, PlayerActed)}
    assert {ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET, ActionKind.RAISE} <= acts
    reraised = [
        h
        for h in hands
        if any(
            sum(1 for e in h.events[i:j] if isinstance(e, PlayerActed) and e.action is ActionKind.RAISE) >= 2
            for i, j in _streets(h.events)
        )
    ]
    assert reraised, "a re-raise"


def _streets(events: tuple[ReportedEvent, ...]) -> list[tuple[int, int]]:
    cuts = [0, *(i for i, e in enumerate(events) if isinstance(e, BoardDealt)), len(events)]
    return list(zip(cuts, cuts[1:], strict=False))


def test_the_same_seed_gives_byte_identical_records_and_another_seed_does_not() -> None:
    first = list(simulate(5, hands_per_table=8, mistakes=0.05).records())
    assert first == list(simulate(5, hands_per_table=8, mistakes=0.05).records())
    assert first != list(simulate(6, hands_per_table=8, mistakes=0.05).records())


def test_pot_limit_omaha_and_fixed_limit_play_legal_hands_under_other_rulebooks() -> None:
    for variant, rulebook in (("PO", "tda-2022"), ("FT", "tda-club")):
        sim = simulate(11, tables=2, seats=6, hands_per_table=10, variant=variant, rulebook=rulebook)
        assert sim.variant == variant and {h.started.rulebook for h in sim.hands} == {rulebook}
        for hand in sim.hands:
            assert all(
                len(e.cards) == (4 if variant == "PO" else 2) for e in hand.events if isinstance(e, HandShown)
            )
            assert replay(hand.events, get_rulebook(rulebook)).ok


def test_games_the_simulator_cannot_deal_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="flop games"):
        simulate(1, variant="F7S")
    with pytest.raises(ValueError, match="no game is called"):
        simulate(1, variant="XX")


def judge(records: list[tuple[bytes, bytes]], tmp_path: Path) -> tuple[Referee, Store, list[str]]:
    log = EmbeddedLog(tmp_path / "log.sqlite", "events", partitions=2, clock=simulation_clock)
    store = Store(env=store_env(None, str(tmp_path / "store.sqlite")))
    referee = Referee(store, "events")
    log.append(records)
    return referee, store, [v.outcome for v in drain_embedded(log, referee)]


def test_mistakes_are_refused_by_the_referee_for_the_rule_each_meant_to_break_and_play_goes_on(
    tmp_path: Path,
) -> None:
    sim = simulate(SEED, tables=2, seats=6, hands_per_table=6, mistakes=0.15)
    meant = {(h.table_id, str(h.hand_number), m.seq, str(m.rule)) for h in sim.hands for m in h.mistakes}
    assert len({rule for *_, rule in meant}) >= 3, "several kinds of mistake"
    records = list(sim.records())
    _, store, outcomes = judge(records, tmp_path)
    assert outcomes.count("rejected") == len(meant)
    assert outcomes.count("accepted") == sum(len(h.events) for h in sim.hands)
    refused = [
        e.payload
        for e in store.events.get(rejection_log_id(sim.competition_id))
        if "kind" in getattr(e, "payload", {})
    ]
    assert {(p["table_id"], p["hand_id"], p["seq"], p["rule"]) for p in refused} == meant
    assert {p["kind"] for p in refused} == {"illegal"}


def test_a_simulated_competition_flows_through_the_embedded_referee_with_every_event_accepted(
    tmp_path: Path,
) -> None:
    sim = simulate(3, tables=3, seats=9, hands_per_table=4)
    _, store, outcomes = judge(list(sim.records()), tmp_path)
    assert outcomes == ["accepted"] * sum(len(h.events) for h in sim.hands)
    assert store.outcome_counts() == {"accepted": len(outcomes)}


def test_three_tables_of_nine_play_thirty_hands_each_in_a_few_seconds() -> None:
    began = time.perf_counter()
    sim = simulate(SEED, tables=3, seats=9, hands_per_table=30)
    records = sum(1 for _ in sim.records())
    assert records > 1000
    assert time.perf_counter() - began < 10.0


def test_records_are_signed_by_the_simulator_or_by_each_tables_dealer() -> None:
    def recorders(sim: Simulation) -> set[tuple[str, str, str]]:
        out = set()
        for _, value in sim.records():
            envelope = Envelope.model_validate_json(value)
            out.add((str(envelope.table_id), envelope.recorded_by.person, envelope.recorded_by.role.value))
        return out

    assert recorders(simulate(2, tables=2, seats=4, hands_per_table=2)) == {
        ("T1", "simulator", "simulator"), ("T2", "simulator", "simulator")
    }  # fmt: skip
    assert recorders(simulate(2, tables=2, seats=4, hands_per_table=2, dealers=True)) == {
        ("T1", "dealer-sim-2-T1", "dealer"), ("T2", "dealer-sim-2-T2", "dealer")
    }  # fmt: skip
