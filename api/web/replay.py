"""The hand replayer's steps, built from what the API answered for one hand (already sealed for the reader).

A step is the table after one stored event of the hand: each seat's stack and chips in the pot (the API's
``/stacks``), the cards the history shows that seat (hole cards as the API's sealing left them, a hand shown
at the showdown), the board so far, who folded, showed or mucked, and the pots. While the hand is played the
pots are the ones the rules build from what each seat put in (:func:`domain.hand.pots.build_pots`: live and
side pots with the seats eligible for each); once they are awarded, the API's ``/pots`` with their shares.
Each step also says what the event was: who recorded it, the engine's reading of a raw act with its rule, and
whether it was an official's ruling.
"""

from __future__ import annotations

from typing import Any

from domain.hand.pots import build_pots, pot_name

SEALED = "??"
#: events whose payload names the seat that acts, by the words the replayer says it in
_SAYS = {
    "HandStarted": "the hand starts",
    "ForcedBetPosted": "posts",
    "HoleCardsDealt": "is dealt",
    "CardBurned": "a card is burned",
    "BoardDealt": "the board:",
    "PlayerActed": "",
    "RawActReported": "reported:",
    "UncalledBetReturned": "gets back an uncalled bet of",
    "PotAwarded": "",
    "HandShown": "shows",
    "HandMucked": "mucks",
    "HandEnded": "the hand ends",
    "RulingIssued": "ruling:",
}


def steps(
    hand: dict[str, Any],
    history: list[dict[str, Any]],
    stacks: list[dict[str, Any]],
    pots: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    players = {s["seat"]: s["player"] for s in hand["seats"]}
    starting = {s["seat"]: s["starting_stack"] for s in hand["seats"]}
    stacks_at = {entry["version"]: {s["seat"]: s for s in entry["seats"]} for entry in stacks}
    cards: dict[int, list[str]] = {seat: [] for seat in players}
    folded: set[int] = set()
    shown: set[int] = set()
    mucked: set[int] = set()
    board: list[str] = []
    awarded = False
    last_seats: dict[int, dict[str, Any]] = {
        seat: {"seat": seat, "stack": starting[seat], "committed": 0} for seat in players
    }
    out: list[dict[str, Any]] = []
    for entry in history:
        payload = entry["payload"]
        kind = entry["type"]
        seat = payload.get("seat")
        if kind in ("HoleCardsDealt", "MissingCardDealt") and seat in cards:
            cards[seat] = cards[seat] + list(payload.get("cards", []))
        elif kind == "BoardDealt":
            board = board + list(payload.get("cards", []))
        elif kind == "PlayerActed" and payload.get("action") == "fold":
            folded.add(seat)
        elif kind == "HandShown" and seat in cards:
            shown.add(seat)
            if payload.get("cards"):
                cards[seat] = list(payload["cards"])
        elif kind == "HandMucked":
            mucked.add(seat)
        elif kind == "PotAwarded":
            awarded = True
        seats_now = stacks_at.get(entry["version"], last_seats)
        last_seats = seats_now
        committed = {s: seats_now[s]["committed"] for s in seats_now}
        out.append(
            {
                "version": entry["version"],
                "type": kind,
                "says": say(entry, players),
                "recorded_by": entry.get("recorded_by", ""),
                "role": entry.get("role", ""),
                "rule": entry.get("rule", ""),
                "reading": entry.get("reading", ""),
                "ruling": bool(entry.get("ruling")),
                "at": entry.get("at", ""),
                "acting": seat if isinstance(seat, int) else None,
                "board": list(board),
                "seats": [
                    {
                        "seat": s,
                        "player": players[s],
                        "stack": seats_now[s]["stack"] if s in seats_now else starting[s],
                        "committed": committed.get(s, 0),
                        "cards": list(cards[s]),
                        "folded": s in folded,
                        "shown": s in shown,
                        "mucked": s in mucked,
                    }
                    for s in sorted(players)
                ],
                "pots": _awarded(pots) if awarded else live_pots(committed, folded),
            }
        )
    return out


def live_pots(committed: dict[int, int], folded: set[int]) -> list[dict[str, Any]]:
    """The main and side pots the rules build from what each seat has put in, with who may win each."""
    return [
        {
            "name": "uncalled bet" if pot.is_uncalled_excess else pot_name(index),
            "amount": pot.amount,
            "eligible": list(pot.eligible),
            "shares": [],
        }
        for index, pot in enumerate(build_pots(committed, folded))
    ]


def _awarded(pots: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "name": pot["name"] + (f" ({pot['half']})" if pot.get("half") else ""),
            "amount": pot["amount"],
            "eligible": pot["eligible"],
            "shares": pot["shares"],
            "winning_hand": pot.get("winning_hand", ""),
        }
        for pot in pots
        if not pot.get("uncalled")
    ]


def say(entry: dict[str, Any], players: dict[int, str]) -> str:
    """The event in a line: who did what."""
    payload = entry["payload"]
    kind = entry["type"]
    seat = payload.get("seat")
    who = f"seat {seat} ({players.get(seat, '?')})" if isinstance(seat, int) else ""
    if kind == "PlayerActed":
        amount = payload.get("amount")
        return f"{who} {payload.get('action', '')}" + (f" {amount:,}" if isinstance(amount, int) else "")
    if kind == "ForcedBetPosted":
        return f"{who} posts the {str(payload.get('kind', '')).replace('_', ' ')} of {payload.get('amount', 0):,}"
    if kind in ("HoleCardsDealt", "MissingCardDealt"):
        return f"{who} is dealt {' '.join(payload.get('cards', []))}"
    if kind == "BoardDealt":
        return f"the board: {' '.join(payload.get('cards', []))}"
    if kind == "CardBurned":
        return "a card is burned"
    if kind == "PotAwarded":
        shares = ", ".join(f"seat {s['seat']} {s['amount']:,}" for s in payload.get("shares", []))
        hand = f" with {payload['winning_hand']}" if payload.get("winning_hand") else ""
        return f"{pot_name(int(payload.get('pot_index', 0)))} of {payload.get('amount', 0):,} to {shares}{hand}"
    if kind == "HandShown":
        return f"{who} shows {' '.join(payload.get('cards', []) or [])}".rstrip()
    if kind == "RulingIssued":
        return f"ruling {payload.get('ruling', '')} ({payload.get('rule', '')}): {payload.get('finding', '')}"
    words = _SAYS.get(kind)
    if words is None:
        return f"{kind} {who}".strip()
    if kind == "UncalledBetReturned":
        return f"{who} {words} {payload.get('amount', 0):,}"
    return f"{who} {words}".strip()


def sealed_cards(steps_: list[dict[str, Any]]) -> int:
    """How many cards the replayer shows as sealed (for the page's note on what the reader may not see)."""
    return sum(card == SEALED for step in steps_[-1:] for seat in step["seats"] for card in seat["cards"])
