"""Breaking a table by the two-step random draw, and the final table's seating.

**The break draw** (TDA 2022 10-B and its illustration, TDA 2017 D-09, TV-52), commit then reveal as the seat
draw (:mod:`domain.competition.draw`): the seed's SHA-256 is recorded first (:class:`TableBreakCommitted`),
then the seed with the draw (:class:`TableBroken`), and :func:`break_draw` recomputes the draw from the seed
and the floor, so anyone can audit it:

1. **The seat cards.** The broken table's players are spread over the other tables one at a time: to the
   table with the fewest players (lowest number first) among those with a seat where he is dealt in at once;
   at each table the seats are taken worst position first (the big blind or nearest it), never one that would
   make a player big blind twice in a row (when the last open seats would, the table breaks after the next
   hands: :func:`verify_break` refuses it until then); a seat between the button and the small blind only when no table
   has another (a player there waits for the button to pass, TDA 2022 10-A). The cards are listed by table,
   then in that order, and shuffled (step 3) into a pile.
2. **The cards dealt face up.** A standard deck, shuffled from the same seed, is dealt one card to each player
   of the broken table from seat 1 on; the pile is handed out in order from the player with the highest card
   by rank, then suit (♠ ♥ ♦ ♣, bfsp 4.5.1).
3. **The shuffle** is the seat draw's (:func:`domain.competition.draw.shuffled`) with a label: Fisher–Yates,
   for ``i`` from the last index down to 1, swap item ``i`` with item ``j``, ``j`` read from
   ``SHA-256(seed ":" label ":" counter)`` (``label`` is ``seat-cards`` or ``deck``, the counter counting 0, 1, …
   per label): its first 8 bytes as a big-endian number, rejected and redrawn when at or above the largest
   multiple of ``i + 1`` under 2**64, else taken modulo ``i + 1``.

**The final table** (bfsp 3.1): when the players left fit the final table, every table breaks after its hand
and a new draw seats them all; :func:`verify_final_seating` refuses a seating that leaves anyone out, seats
someone twice, uses a seat the final table does not have, or comes too early.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.cards import SUIT_SENIORITY, Card, standard_deck
from domain.competition.draw import commitment, shuffled
from domain.competition.floor_events import (
    DrawCard,
    MoveReason,
    MoveRule,
    PlayerMoved,
    TableBreakCommitted,
    TableBroken,
)
from domain.competition.seating import SeatOutlook, Table, free_seats, outlook
from domain.errors import CompetitionError
from domain.rulebooks import Rulebook


def verify_break(tables: Sequence[Table], number: int, rulebook: Rulebook, seat_limit: int) -> Table:
    """A table may break between hands, when its players fit in the open seats of the others."""
    rule = rulebook.cite("table_break")
    broken = next((t for t in tables if t.number == number), None)
    if broken is None:
        raise CompetitionError(f"there is no table {number} in play", rule)
    if len(tables) < 2:
        raise CompetitionError(f"table {number} is the last table in play: it cannot break", rule)
    if broken.hand_running:
        raise CompetitionError(f"table {number} is playing a hand: it breaks when the hand ends", rule)
    # a player still on a closed seat (seat 10 of a pre-final table) needs one of the open seats too
    room = sum(max(0, min(seat_limit, t.max_seats) - len(t.seats)) for t in tables if t is not broken)
    if room < len(broken.seats):
        raise CompetitionError(
            f"table {number} cannot break: its {len(broken.seats)} players need {len(broken.seats)} seats and the "
            f"other tables have {room} open",
            rule,
        )
    # every player needs a seat he may take: a count of open seats is not enough when one of them would make
    # someone big blind twice in a row (seat_cards refuses then; the table breaks after the next hands)
    seat_cards(tables, broken, rulebook, seat_limit)
    if broken.last_hand is None:
        # its players sit where the draw put them and have not played there: a break would draw them again
        raise CompetitionError(
            f"table {number} has played no hand since its players were seated there: they play where the draw "
            "seated them, and it breaks after its first hand",
            rulebook.cite("table_break"),
        )
    return broken


def seat_cards(
    tables: Sequence[Table], broken: Table, rulebook: Rulebook, seat_limit: int
) -> list[tuple[int, int]]:
    """Step 1 before the shuffle: the (table, seat) cards the broken table's players draw for."""
    others = {t.number: t for t in tables if t is not broken}
    cards: dict[int, list[int]] = {number: [] for number in others}
    # a table's seats change only when it takes a card: each is looked at once, then again after each card
    views_at = {number: _open_seats(t, "#0", rulebook, seat_limit) for number, t in others.items()}
    for index in range(len(broken.seats)):
        placeholder = f"#{index}"
        best: dict[int, SeatOutlook] = {}
        barred: list[tuple[int, SeatOutlook]] = []
        for number, views in views_at.items():
            legal = [v for v in views if not v.big_blind_twice]
            if legal:
                best[number] = min(legal, key=lambda v: (v.waits, v.hands_to_big_blind, v.distance))
            barred += [(number, v) for v in views if v.big_blind_twice]
        if not best:
            raise CompetitionError(
                f"table {broken.number} cannot break yet: its players need {len(broken.seats)} seats and the "
                "last open ones would make a player big blind twice in a row ("
                + "; ".join(f"table {number} seat {v.seat}: {v.big_blind_twice}" for number, v in barred)
                + "); it breaks once the button has moved on",
                rulebook.cite("table_break"),
            )
        # a seat where the player is dealt in at once comes before balance: the floor's balancing moves even
        # the counts out later, but a player drawn behind the button would sit out hands (TV-52)
        number = min(best, key=lambda n: (best[n].waits, len(others[n].seats), n))
        cards[number].append(best[number].seat)
        others[number] = others[number].seated(placeholder, best[number].seat)
        views_at[number] = _open_seats(others[number], f"#{index + 1}", rulebook, seat_limit)
    return [(number, seat) for number in sorted(cards) for seat in cards[number]]


def _open_seats(table: Table, placeholder: str, rulebook: Rulebook, seat_limit: int) -> list[SeatOutlook]:
    return [outlook(table, seat, placeholder, rulebook) for seat in free_seats(table, seat_limit)]


def _card_order(card: Card) -> tuple[int, int]:
    return card.rank, SUIT_SENIORITY[card.suit]


def break_draw(
    tables: Sequence[Table], number: int, seed: str, rulebook: Rulebook, seat_limit: int, authorised_by: str
) -> TableBroken:
    """The two-step random draw of table ``number`` from ``seed`` (the module's description)."""
    broken = verify_break(tables, number, rulebook, seat_limit)
    pile = shuffled(seed, seat_cards(tables, broken, rulebook, seat_limit), "seat-cards")
    deck = shuffled(seed, standard_deck(), "deck")
    dealt = tuple(
        DrawCard(participant=player, seat=seat, card=deck[i]) for i, (seat, player) in enumerate(broken.seats)
    )
    ranked = sorted(dealt, key=lambda drawn: _card_order(drawn.card), reverse=True)
    moves = tuple(
        PlayerMoved(
            participant=drawn.participant,
            from_table=number,
            from_seat=drawn.seat,
            to_table=table,
            to_seat=seat,
            reason=MoveReason.TABLE_BROKEN,
            rule_applied=MoveRule.BREAK_DRAW,
            authorised_by=authorised_by,
        )
        for drawn, (table, seat) in zip(ranked, pile, strict=True)
    )
    return TableBroken(table=number, seed=seed, cards=dealt, moves=moves, authorised_by=authorised_by)


def verify_table_broken(
    tables: Sequence[Table],
    event: TableBroken,
    rulebook: Rulebook,
    seat_limit: int,
    committed: TableBreakCommitted | None,
) -> None:
    """Recompute the draw from the revealed seed; refuse a seed nobody committed to, or any other seating."""
    rule = rulebook.cite("table_break")
    if committed is None:
        raise CompetitionError(
            f"table {event.table}'s break draw has no commitment: the seed's SHA-256 is recorded before the draw",
            rule,
        )
    if commitment(event.seed) != committed.seed_sha256:
        raise CompetitionError(
            f"the seed revealed for table {event.table}'s break draw is not the one committed to before it",
            rule,
        )
    expected = break_draw(tables, event.table, event.seed, rulebook, seat_limit, event.authorised_by)
    if event.cards != expected.cards:
        raise CompetitionError(
            f"the cards dealt for table {event.table}'s break draw are not the ones its seed deals: "
            + ", ".join(f"{c.participant} {c.card}" for c in expected.cards),
            rule,
        )
    if event.moves != expected.moves:
        raise CompetitionError(
            f"the seed of table {event.table}'s break draw seats "
            + ", ".join(f"{m.participant} at table {m.to_table} seat {m.to_seat}" for m in expected.moves),
            rule,
        )


def final_table_due(tables: Sequence[Table], rulebook: Rulebook, seats_per_table: int) -> bool:
    """The players left fit the final table and are still at more than one table (bfsp 3.1)."""
    left = sum(len(t.seats) for t in tables)
    return len(tables) > 1 and left <= rulebook.final_table_size(seats_per_table)


def verify_final_seating(
    tables: Sequence[Table], rulebook: Rulebook, seats_per_table: int, seating: Mapping[str, tuple[int, int]]
) -> None:
    """``seating`` (participant → (table, seat)) is a legal final table: everyone left, once, one table, seats
    1 … final size, drawn once the players left fit it and every hand has ended (bfsp 3.1)."""
    rule = rulebook.cite("final_table")
    size = rulebook.final_table_size(seats_per_table)
    left = {player for t in tables for player in t.players}
    if len(tables) < 2:
        raise CompetitionError("the players left already sit at one table", rule)
    if len(left) > size:
        raise CompetitionError(f"{len(left)} players remain; the final table forms when {size} remain", rule)
    running = [t.number for t in tables if t.hand_running]
    if running:
        raise CompetitionError(
            "play stops after the current hand: the final table is drawn when the hands at table "
            + ", ".join(str(n) for n in running)
            + " have ended",
            rule,
        )
    missing = sorted(left - set(seating))
    if missing:
        raise CompetitionError(f"the final table leaves out {', '.join(missing)}", rule)
    strangers = sorted(set(seating) - left)
    if strangers:
        raise CompetitionError(f"{', '.join(strangers)} is not among the players left", rule)
    numbers = {table for table, _ in seating.values()}
    if len(numbers) != 1:
        raise CompetitionError(
            f"the final table is one table; the seating uses tables {', '.join(map(str, sorted(numbers)))}",
            rule,
        )
    seats = sorted(seat for _, seat in seating.values())
    doubled = sorted({seat for seat in seats if seats.count(seat) > 1})
    if doubled:
        raise CompetitionError(f"seat {doubled[0]} of the final table is given twice", rule)
    outside = [seat for seat in seats if not 1 <= seat <= size]
    if outside:
        raise CompetitionError(f"the final table has seats 1 to {size}; there is no seat {outside[0]}", rule)


def final_table_moves(
    tables: Sequence[Table], seating: Mapping[str, tuple[int, int]], authorised_by: str
) -> tuple[PlayerMoved, ...]:
    """Everyone's move to the final table, by his old table and seat."""
    return tuple(
        PlayerMoved(
            participant=player,
            from_table=t.number,
            from_seat=seat,
            to_table=seating[player][0],
            to_seat=seating[player][1],
            reason=MoveReason.FINAL_TABLE,
            rule_applied=MoveRule.FINAL_TABLE_DRAW,
            authorised_by=authorised_by,
        )
        for t in tables
        for seat, player in t.seats
    )
