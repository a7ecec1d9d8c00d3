"""Eliminations and finishing places (bfsp 5.10), shared places at the hand-for-hand bubble (TDA 2022 RP-8-a),
competition disqualification (bfsp 7.2.2), the winner (bfsp 5.10.1) and the prizes."""

from __future__ import annotations

import pytest

from competition.a_competition import CHIEF, JUDGE, SECRETARY, at, drawn, registered, regulations
from domain.competition.aggregate import Competition, recorded_event
from domain.competition.events import CompetitionWinnerDeclared, EliminationReason
from domain.competition.placings import Bust, placings
from domain.competition.prizes import DealShare, Standing, payouts
from domain.competition.regulations import Prize
from domain.errors import CompetitionError, NotPermittedError, RuleRef

pytestmark = pytest.mark.unit


def _table(competition: Competition, table: int) -> list[str]:
    return sorted(
        (p for p in competition.remaining if competition.seats[p][0] == table), key=competition.seats.get
    )


def test_players_busted_in_one_hand_place_by_the_chips_they_started_it_with() -> None:
    competition = drawn(12)
    a, b, c = _table(competition, 1)[:3]
    out = competition.eliminate("h-17", [Bust(a, 1, 900), Bust(b, 1, 4_000), Bust(c, 1, 2_500)], at(5), JUDGE)
    assert {e.participant: e.place for e in out} == {b: 10, c: 11, a: 12}
    assert all(e.shared_with == () and e.hand == "h-17" for e in out)
    assert competition.players_left == 9


def test_equal_starting_stacks_share_the_place() -> None:
    competition = drawn(12)
    a, b = _table(competition, 1)[:2]
    out = competition.eliminate("h-3", [Bust(a, 1, 1_000), Bust(b, 1, 1_000)], at(5), JUDGE)
    assert {(e.participant, e.place, e.shared_with) for e in out} == {(a, 11, (b,)), (b, 11, (a,))}


def _bubble(players: int, paid: int) -> Competition:
    prizes = tuple(Prize(place, 100 * (paid + 10 - place)) for place in range(1, paid + 1))
    return drawn(players, regulations(prizes=prizes, rulebook="tda-2022"))


@pytest.mark.parametrize("tv", ["TV-112", "2017/TV-49"])
def test_players_busted_on_the_hand_at_the_hand_for_hand_announcement_share_the_last_prize(tv: str) -> None:
    competition = _bubble(52, 50)
    competition.start_hand_for_hand(20 * 60, at(10), CHIEF)  # level 1 has 20 of its 30 minutes left
    table = competition.seats[competition.remaining[0]][0]
    a, b, c = _table(competition, table)[:3]
    out = competition.eliminate(
        "h-88", [Bust(a, table, 500), Bust(b, table, 3_000), Bust(c, table, 1_200)], at(11), JUDGE
    )
    assert {e.place for e in out} == {50}
    shares = {p.participant: p.gross for p in competition.payouts()}
    fiftieth = competition.regulations.prize(50)
    assert sorted(shares.values()) == [fiftieth // 3, fiftieth // 3, fiftieth - 2 * (fiftieth // 3)]


def test_in_a_hand_for_hand_hand_busts_at_different_tables_share_and_at_one_table_are_ranked() -> None:
    competition = _bubble(30, 20)
    competition.start_hand_for_hand(20 * 60, at(10), CHIEF)  # level 1 has 20 of its 30 minutes left
    competition.start_hand_for_hand_hand(at(11), CHIEF)
    one, two = _table(competition, 1), _table(competition, 2)
    out = competition.eliminate("round-1", [Bust(one[0], 1, 800), Bust(two[0], 2, 3_000)], at(12), JUDGE)
    assert {e.place for e in out} == {29}
    out = competition.eliminate("t1-round-2", [Bust(one[1], 1, 800), Bust(one[2], 1, 3_000)], at(13), JUDGE)
    assert {e.participant: e.place for e in out} == {one[2]: 27, one[1]: 28}


def test_the_federation_ranks_bubble_busts_by_stack_when_its_rulebook_says_they_do_not_share() -> None:
    busts = [Bust("a", 1, 500), Bust("b", 1, 3_000), Bust("c", 2, 1_200)]
    assert [(p.participant, p.place, p.places) for p in placings(52, busts, share_all=False)] == [
        ("b", 50, 1),
        ("c", 51, 1),
        ("a", 52, 1),
    ]
    assert {(p.place, p.places) for p in placings(52, busts, share_all=True)} == {(50, 3)}


def test_busts_at_two_tables_are_one_hand_each_outside_hand_for_hand() -> None:
    competition = drawn(12)
    one, two = _table(competition, 1), _table(competition, 2)
    with pytest.raises(CompetitionError, match="one hand at a time, except hand-for-hand") as refused:
        competition.eliminate("h", [Bust(one[0], 1, 100), Bust(two[0], 2, 100)], at(5), JUDGE)
    assert refused.value.rule == RuleRef("bfsp", "5.10.2")
    with pytest.raises(CompetitionError, match=f"{one[0]} sits at table 1, not table 2"):
        competition.eliminate("h", [Bust(one[0], 2, 100)], at(5), JUDGE)


def test_a_player_is_eliminated_once_and_somebody_always_keeps_the_chips() -> None:
    competition = drawn(2, regulations(prizes=(Prize(1, 100),)))
    a, b = competition.remaining
    with pytest.raises(CompetitionError, match="2 players cannot all bust when 2 are left"):
        competition.eliminate("h", [Bust(a, 1, 1), Bust(b, 1, 1)], at(5), JUDGE)
    competition.eliminate("h", [Bust(a, 1, 1)], at(5), JUDGE)
    assert competition.winner == b
    with pytest.raises(CompetitionError, match=f"the competition is over: {b} won it") as refused:
        competition.eliminate("h2", [Bust(b, 1, 1)], at(6), JUDGE)
    assert refused.value.rule == RuleRef("bfsp", "5.10.1")


def test_the_last_player_with_chips_wins_and_the_places_pay_as_the_regulations_say() -> None:
    competition = drawn(4, regulations(prizes=(Prize(1, 5_000), Prize(2, 3_000), Prize(3, 2_000))))
    order = list(competition.remaining)
    for n, player in enumerate(order[:3]):
        competition.eliminate(f"h{n}", [Bust(player, 1, 100)], at(5 + n), JUDGE)
    assert competition.winner == order[3]
    paid = {p.participant: (p.place, p.gross, p.withheld, p.net) for p in competition.payouts()}
    assert paid == {
        order[3]: (1, 5_000, 650, 4_350),
        order[2]: (2, 3_000, 390, 2_610),
        order[1]: (3, 2_000, 260, 1_740),
        order[0]: (4, 0, 0, 0),
    }
    assert recorded_event(competition.collect_events()[-1]) == CompetitionWinnerDeclared(order[3])


def test_a_disqualified_player_is_eliminated_with_no_prize() -> None:
    competition = drawn(
        4, regulations(prizes=(Prize(1, 5_000), Prize(2, 3_000), Prize(3, 2_000), Prize(4, 1_000)))
    )
    cheat = competition.remaining[0]
    with pytest.raises(NotPermittedError, match="a judge may not disqualify from the competition") as refused:
        competition.disqualify(cheat, "chip dumping (7.1.14)", at(5), JUDGE)
    assert refused.value.rule == RuleRef("bfsp", "7.2.2")
    competition.disqualify(cheat, "chip dumping (7.1.14)", at(5), CHIEF)
    gone = competition.eliminated[cheat]
    assert (gone.reason, gone.place, gone.ruling) == (
        EliminationReason.DISQUALIFIED,
        4,
        "chip dumping (7.1.14)",
    )
    assert next(p for p in competition.payouts() if p.participant == cheat).gross == 0
    with pytest.raises(NotPermittedError, match="the secretary may not disqualify"):
        competition.disqualify(competition.remaining[0], "x", at(6), SECRETARY)


def test_shared_prizes_always_add_up_to_the_places_prizes() -> None:
    regs = regulations(prizes=(Prize(1, 1_000), Prize(2, 500), Prize(3, 101)), withholding_percent=0)
    standings = [Standing("x", 2, 2, ("y",)), Standing("y", 2, 2, ("x",)), Standing("w", 1)]
    paid = {p.participant: p.gross for p in payouts(standings, regs)}
    assert paid == {"w": 1_000, "x": 301, "y": 300}


def _deal_table(prizes: tuple[int, ...]) -> Competition:
    regs = regulations(
        prizes=tuple(Prize(n, amount) for n, amount in enumerate(prizes, start=1)), rulebook="tda-2017"
    )
    return drawn(len(prizes), regs)


def test_2017_tv_58_a_deal_that_shares_out_the_whole_pool_ends_the_competition() -> None:
    competition = _deal_table((11_765, 6_666, 5_503, 3_493))
    block, salhab, urbanski, gjerlinger = competition.remaining
    deal = [
        DealShare(block, 9_127),
        DealShare(salhab, 7_500),
        DealShare(urbanski, 5_400),
        DealShare(gjerlinger, 5_400),
    ]
    with pytest.raises(NotPermittedError, match="a judge may not approve a deal among the players left"):
        competition.agree_deal(deal, 0, at(300), JUDGE)
    competition.agree_deal(deal, 0, at(300), CHIEF)
    assert competition.is_over
    assert {p.participant: p.gross for p in competition.payouts()} == {s.participant: s.amount for s in deal}
    with pytest.raises(CompetitionError, match="shared out the prizes in a deal"):
        competition.eliminate("h", [Bust(block, 1, 10)], at(301), JUDGE)


def test_2017_tv_58_a_deal_leaving_some_to_play_for_pays_it_to_the_winner() -> None:
    competition = _deal_table((262_392, 180_000, 140_000, 110_000, 90_996, 46_612))
    guarantees = dict(
        zip(competition.remaining, (172_000, 150_000, 140_000, 123_000, 112_500, 112_500), strict=True)
    )
    competition.agree_deal([DealShare(p, a) for p, a in guarantees.items()], 20_000, at(300), CHIEF)
    order = list(competition.remaining)
    for n, player in enumerate(order[1:]):
        competition.eliminate(f"h{n}", [Bust(player, 1, 10)], at(301 + n), JUDGE)
    paid = {p.participant: p.gross for p in competition.payouts()}
    assert paid == {p: a + (20_000 if p == order[0] else 0) for p, a in guarantees.items()}
    assert sum(paid.values()) == 830_000


def test_2017_tv_58_a_deal_that_does_not_add_up_is_refused() -> None:
    competition = _deal_table((11_765, 6_666, 5_503, 3_493))
    players = competition.remaining
    short = [DealShare(p, a) for p, a in zip(players, (9_127, 7_500, 5_400, 5_399), strict=True)]
    with pytest.raises(
        CompetitionError, match="shares out 27,426 and leaves 0 to play for: 27,426, not the 27,427"
    ):
        competition.agree_deal(short, 0, at(300), CHIEF)
    with pytest.raises(CompetitionError, match="gives every player left one amount"):
        competition.agree_deal([DealShare(players[0], 27_427)], 0, at(300), CHIEF)


def test_a_participant_may_be_disqualified_before_the_draw_seats_him() -> None:
    competition = registered(5)
    competition.disqualify("p03", "unsportsmanlike behaviour (7.1.16)", at(-100), CHIEF)
    assert competition.eliminated["p03"].place == 5
    assert competition.players_left == 4
