"""Properties of the simulator over seeds and shapes of competition: every hand legal under its rulebook,
chips conserved, the same seed the same records, and every mistake refused for the rule it meant to break."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import HandError
from domain.hand.replay import Replayer, replay
from domain.rulebooks import RULEBOOKS, get_rulebook
from ingest.simulator import simulate

pytestmark = pytest.mark.unit

competitions = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**32),
        "tables": st.integers(1, 2),
        "seats": st.integers(2, 10),
        "hands_per_table": st.integers(1, 8),
        "variant": st.sampled_from(["NT", "PO", "PT", "FT", "NO"]),
        "rulebook": st.sampled_from(sorted(RULEBOOKS)),
        "mistakes": st.sampled_from([0.0, 0.1, 0.3]),
        "starting_stack": st.integers(300, 5000),
    }
)


@settings(max_examples=30, deadline=None)
@given(competitions)
def test_every_hand_of_any_seed_replays_legal_and_no_chip_is_made_or_lost(
    shape: dict[str, int | str | float],
) -> None:
    sim = simulate(**shape)  # type: ignore[arg-type]
    chips = {p.name: sim.starting_stack for p in sim.players}
    for hand in sim.hands:
        result = replay(hand.events, get_rulebook(sim.rulebook))
        assert result.ok and result.is_over, result.rejection
        names = {e.seat: e.player for e in hand.started.seats}
        assert all(chips[e.player] == e.stack > 0 for e in hand.started.seats)
        chips.update({names[seat]: stack for seat, stack in result.stacks})
        assert min(chips.values()) >= 0
        assert sum(chips.values()) == sim.starting_stack * len(sim.players)


@settings(max_examples=30, deadline=None)
@given(competitions)
def test_every_mistake_is_refused_at_its_place_for_the_rule_it_meant_to_break(
    shape: dict[str, int | str | float],
) -> None:
    sim = simulate(**{**shape, "mistakes": 0.3})  # type: ignore[arg-type]
    for hand in sim.hands:
        replayer = Replayer(get_rulebook(sim.rulebook))
        mistakes = {m.seq: m for m in hand.mistakes}
        for seq, event in enumerate(hand.events):
            mistake = mistakes.get(seq)
            if mistake is not None:
                with pytest.raises(HandError) as refused:
                    replayer.apply(mistake.act)
                assert refused.value.rule == mistake.rule and refused.value.reason == mistake.reason
            replayer.apply(event)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 3), st.floats(0.0, 0.2))
def test_the_same_seed_gives_the_same_records_byte_for_byte(seed: int, tables: int, mistakes: float) -> None:
    first = list(simulate(seed, tables=tables, hands_per_table=3, mistakes=mistakes).records())
    again = list(simulate(seed, tables=tables, hands_per_table=3, mistakes=mistakes).records())
    assert first == again and len(first) > 0
