"""The queries of the read side: rows of :mod:`projections.schema` to :mod:`projections.views` models.

Cards come back as recorded; sealing them for the caller is the API's business (api/sealing.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from domain.hand.pots import pot_name
from projections import schema, views
from projections.database import ReadDatabase, Reader, Row, Snapshot
from projections.integrity.cases import IntegrityCaseView, case_of_row
from projections.integrity.counters import Counters
from projections.integrity.live import read_counters
from projections.ofc import (
    OfcEvent,
    OfcRoundView,
    OfcStanding,
    OfcTableSeat,
    OfcTableState,
    PointsRow,
    round_of_row,
    standings,
)
from projections.rating import RatingList, season_rating
from projections.verdicts import StoredVerdict
from projections.verdicts import of_history as verdicts_of_history
from projections.verdicts import of_rows as verdicts_of_rows

#: record ids asked for in one query (a batch is up to 1,000; SQLite's default limit of parameters is 999, and
#: a hand's answers take as many again for their hands)
VERDICTS_A_QUERY = 400

OFFICIAL_ROLES = frozenset({"judge", "chief_judge"})

#: a hand's row and the stacks the latest chip-moving ruling on it left, in one statement (RULED_STACKS_OF's rows
#: joined to HAND's: the hand's columns on every row, and one row with NULLs where no ruling moved its chips)
_HAND_AND_RULED_STACKS = (
    f"SELECT {', '.join(f'hand.{c}' for c in schema.HAND_COLUMNS)}, ruled.number, ruled.ruling, ruled.kind,"
    f" ruled.seat, ruled.stack, ruled.engine_stack FROM {schema.HANDS} AS hand LEFT JOIN {schema.RULED_STACKS}"
    f" AS ruled ON ruled.hand_id = hand.hand_id AND ruled.number = (SELECT MAX(number) FROM {schema.RULED_STACKS}"
    " AS latest WHERE latest.hand_id = hand.hand_id) WHERE hand.hand_id = ? ORDER BY ruled.seat"
)
_HAND_WIDTH = len(schema.HAND_COLUMNS)
#: most hands :meth:`ReadModels.hands_and_ruled_stacks` reads in one statement (one placeholder each)
MOST_HANDS_A_STATEMENT = 128


def _hands_and_ruled_stacks(hands: int) -> str:
    """:data:`_HAND_AND_RULED_STACKS` for ``hands`` hands at once, each hand's rows together in seat order."""
    one = _HAND_AND_RULED_STACKS.removesuffix(" WHERE hand.hand_id = ? ORDER BY ruled.seat")
    return f"{one} WHERE hand.hand_id IN ({', '.join('?' * hands)}) ORDER BY hand.hand_id, ruled.seat"


class ReadModels:
    def __init__(self, database: ReadDatabase, reader: Reader | None = None) -> None:
        self.database = database
        self._reader: Reader = database if reader is None else reader

    def close(self) -> None:
        self.database.close()

    @contextmanager
    def snapshot(self) -> Iterator[ReadModels]:
        """Every read of these read models by the current thread in the block sees them in one state, the
        one of its first read, even if a rebuild swaps new ones in meanwhile."""
        with self.database.snapshot():
            yield self

    @contextmanager
    def pinned(self) -> Iterator[ReadModels]:
        """Read models, for the block, whose every read sees one state, from whichever thread it is made
        (one API request's reads, which FastAPI may run on more than one worker thread)."""
        with self.database.reader() as reader:
            yield ReadModels(self.database, reader)

    def integrity_counters(self, competition: str) -> Counters | None:
        """The competition's integrity counters as the projector keeps them (None: no hold'em hand of it)."""
        return read_counters(self._reader.query, competition)

    def verdicts(self, answered: Mapping[str, str]) -> dict[str, dict[str, StoredVerdict]]:
        """The stored answers to record ids (id → the stream the store answered it in) as far as the projector
        has projected them, by id, then by stream (projections/verdicts.py): from the verdicts' read model, and
        for an answer in a hand's stream from the hand's history."""
        wanted = sorted(answered)
        found: dict[str, dict[str, StoredVerdict]] = {}
        for start in range(0, len(wanted), VERDICTS_A_QUERY):
            chunk = wanted[start : start + VERDICTS_A_QUERY]
            found.update(verdicts_of_rows(self._reader.query(schema.verdicts_of(len(chunk)), tuple(chunk))))
        in_hands = [i for i in wanted if answered[i] not in found.get(i, {})]
        for start in range(0, len(in_hands), VERDICTS_A_QUERY):
            ids = in_hands[start : start + VERDICTS_A_QUERY]
            hands = sorted({answered[i] for i in ids})
            rows = self._reader.query(schema.history_answers(len(hands), len(ids)), (*hands, *ids))
            for event_id, streams in verdicts_of_history(rows).items():
                found.setdefault(event_id, {}).update(streams)
        return found

    def integrity_cases(self, competition: str, reported_only: bool = False) -> list[IntegrityCaseView]:
        """The competition's integrity cases by name (``reported_only``: those reported to its Chief Judge)."""
        sql = schema.INTEGRITY_CASES_REPORTED if reported_only else schema.INTEGRITY_CASES_OF
        return [case_of_row(str(r[0])) for r in self._reader.query(sql, (competition,))]

    def integrity_case(self, competition: str, case: str) -> IntegrityCaseView | None:
        row = self._reader.one(schema.INTEGRITY_CASE, (competition, case))
        return None if row is None else case_of_row(str(row[0]))

    def season_rating(self, season: str) -> RatingList | None:
        """The season's rating list by the federation's rules in force (None: it adopted none for the season)."""
        return season_rating(self._reader.query, schema, season)

    def end_reads(self) -> None:
        """End the transaction of these pinned read models now (:meth:`pinned`), from the thread that made their
        reads: an API request then ends it in the same hop to a worker thread as its reads, not in one more. A
        read after it begins another, ended with the block. Nothing to end on read models not pinned."""
        if isinstance(self._reader, Snapshot):
            self._reader.close()

    @property
    def reads_held(self) -> bool:
        """Whether these pinned read models hold a transaction a read began (see :meth:`end_reads`)."""
        return isinstance(self._reader, Snapshot) and self._reader.holding

    def position(self) -> int:
        row = self._reader.one(schema.POSITION_OF, (schema.POSITION_NAME,))
        return 0 if row is None else int(row[0])

    def position_alone(self) -> int:
        """:meth:`position` read in one statement of its own (:meth:`ReadDatabase.read_alone`): every projected
        change moves it, so an answer made from the read models at a position holds while it has not moved."""
        rows = self.database.read_alone(schema.POSITION_OF, (schema.POSITION_NAME,))
        return int(rows[0][0]) if rows else 0

    # --- competitions and tables ---------------------------------------------------------------------------

    def competitions(self) -> list[views.Competition]:
        rejected = {str(c): int(n) for c, n in self._reader.query(schema.REJECTION_COUNTS)}
        found = {
            str(c): views.Competition(
                competition_id=str(c), tables=int(t), hands=int(h), hands_in_progress=int(p or 0),
                rejections=rejected.get(str(c), 0),
            )
            for c, t, h, p in self._reader.query(schema.COMPETITIONS)
        }
        for competition, n in rejected.items():
            found.setdefault(
                competition,
                views.Competition(competition_id=competition, tables=0, hands=0, hands_in_progress=0, rejections=n),
            )
        for c, rounds, playing, tables in self._reader.query(schema.OFC_COMPETITIONS):
            known = found.get(str(c))
            if known is not None and known.tables:  # hands too: a table may have played both
                total = self._reader.one(schema.TABLE_COUNT, (str(c), str(c)))
                tables = int(total[0]) if total else tables
            found[str(c)] = (
                known or views.Competition(competition_id=str(c), tables=0, hands=0, hands_in_progress=0, rejections=0)
            ).model_copy(update={"tables": int(tables), "ofc_rounds": int(rounds), "ofc_rounds_in_progress": int(playing or 0)})
        return [found[c] for c in sorted(found)]

    def competition_known(self, competition: str) -> bool:
        return self._reader.one(schema.COMPETITION_KNOWN, (competition, competition, competition)) is not None

    def tables(self, competition: str, offset: int, limit: int) -> tuple[list[views.TableSummary], int]:
        rows = self._reader.query(schema.TABLES_OF, (competition, competition, limit, offset))
        total = self._reader.one(schema.TABLE_COUNT, (competition, competition))
        items = [
            views.TableSummary(
                table_id=t, hands=int(n), last_hand_number=None if last is None else int(last), ofc_rounds=int(r),
                last_ofc_round=None if last_round is None else int(last_round),
            )
            for t, n, last, r, last_round in rows
        ]
        return items, int(total[0]) if total else 0

    # --- OFC rounds (bfsp 8: projections/ofc.py) -----------------------------------------------------------------

    def ofc_event(self, competition: str) -> OfcEvent | None:
        """The competition's OFC rounds by table and number, and its standings by points; None without a round."""
        rounds = [round_of_row(r) for r in self._reader.query(schema.OFC_ROUNDS_OF, (competition,))]
        if not rounds:
            return None
        return OfcEvent(competition_id=competition, rounds=rounds, standings=self.ofc_standings(competition))

    def ofc_known(self, competition: str) -> bool:
        """The competition has an OFC round."""
        return self._reader.one(schema.OFC_KNOWN, (competition,)) is not None

    def ofc_standings(self, competition: str) -> list[OfcStanding]:
        """Points per player over the competition's scored rounds, most first."""
        return standings(_points(self._reader.query(schema.OFC_POINTS_OF, (competition,))))

    def ofc_rounds(self, competition: str, table_id: str, offset: int, limit: int) -> tuple[list[OfcRoundView], int]:
        rows = self._reader.query(schema.OFC_ROUNDS_AT, (competition, table_id, limit, offset))
        total = self._reader.one(schema.OFC_ROUND_COUNT_AT, (competition, table_id))
        return [round_of_row(r) for r in rows], int(total[0]) if total else 0

    def ofc_round(self, competition: str, table_id: str, number: int) -> OfcRoundView | None:
        row = self._reader.one(schema.OFC_ROUND, (competition, table_id, number))
        return None if row is None else round_of_row(row)

    def ofc_table(self, competition: str, table_id: str) -> OfcTableState | None:
        """An OFC table as its last round leaves it, each player with his points over the table's scored rounds."""
        row = self._reader.one(schema.LAST_OFC_ROUND_AT, (competition, table_id))
        if row is None:
            return None
        last = round_of_row(row)
        count = self._reader.one(schema.OFC_ROUND_COUNT_AT, (competition, table_id))
        points: dict[str, int] = {}
        for player, _table, _number, gained, *_ in _points(
            self._reader.query(schema.OFC_POINTS_AT, (competition, table_id))
        ):
            points[player] = points.get(player, 0) + gained
        return OfcTableState(
            competition_id=competition, table_id=table_id, rounds=int(count[0]) if count else 0,
            last_round_number=last.round_number, last_round_status=last.status, button=last.button,
            seats=[
                OfcTableSeat(seat=s.seat, player=s.player, points=points.get(s.player, 0))
                for s in sorted(last.seats, key=lambda s: s.seat)
            ],
        )

    def table(self, competition: str, table_id: str) -> views.TableState | None:
        row = self._reader.one(schema.LAST_HAND_AT, (competition, table_id))
        if row is None:
            return None
        hand = _hand(row)
        count = self._reader.one(schema.HAND_COUNT_AT, (competition, table_id))
        over = hand.status != "in_progress"
        return views.TableState(
            competition_id=competition,
            table_id=table_id,
            hands=int(count[0]) if count else 0,
            last_hand_id=hand.hand_id,
            last_hand_number=hand.number,
            last_hand_status=hand.status,
            button=hand.button,
            level=hand.level,
            seats=(
                self.final_stacks(hand) if over
                else [views.TableSeat(seat=s.seat, player=s.player, stack=s.starting_stack) for s in hand.seats]
            ),
        )

    # --- hands ---------------------------------------------------------------------------------------------

    def hands(self, competition: str, table_id: str, offset: int, limit: int) -> tuple[list[views.Hand], int]:
        rows = self._reader.query(schema.HANDS_AT, (competition, table_id, limit, offset))
        total = self._reader.one(schema.HAND_COUNT_AT, (competition, table_id))
        return [_hand(r) for r in rows], int(total[0]) if total else 0

    def hand(self, hand_id: str) -> views.Hand | None:
        row = self._reader.one(schema.HAND, (hand_id,))
        return None if row is None else _hand(row)

    def hand_row(self, hand_id: str) -> Row | None:
        """The hand's row as stored (``schema.HAND_COLUMNS``; :meth:`hand_of_row` makes it the hand), read in one
        statement of its own (:meth:`ReadDatabase.read_alone`: one round trip, no snapshot): what the API's hand
        read answers from and keeps its finished answer by (api/fast_reads.py)."""
        rows = self.database.read_alone(schema.HAND, (hand_id,))
        return rows[0] if rows else None

    @staticmethod
    def hand_of_row(row: Row) -> views.Hand:
        return _hand(row)

    def final_stacks_rows(self, hand_id: str) -> tuple[Row, ...]:
        """The hand's row with the stacks the latest ruling that moved its chips left, one row a ruled seat (one
        row, the ruling's columns None, where none did; none for an unknown hand), read in one statement of its
        own as :meth:`hand_row`; :meth:`final_stacks_of_rows` makes them the hand and its final stacks."""
        return tuple(self.database.read_alone(_HAND_AND_RULED_STACKS, (hand_id,)))

    def hands_and_ruled_stacks(self, hand_ids: Sequence[str]) -> dict[str, tuple[Row, ...]]:
        """:meth:`final_stacks_rows` of each of ``hand_ids`` (at most :data:`MOST_HANDS_A_STATEMENT`), all read in
        one statement of their own (one state for them all); an unknown hand is not in the answer. A hand's row
        is the first :data:`schema.HAND_COLUMNS` of any of its rows (what :meth:`hand_row` reads): the API's hand
        and final-stack reads asked together are answered from one statement (api/fast_reads.py)."""
        wanted = list(dict.fromkeys(hand_ids))
        if len(wanted) > MOST_HANDS_A_STATEMENT:
            raise ValueError(f"{len(wanted)} hands asked in one statement, at most {MOST_HANDS_A_STATEMENT}")
        found: dict[str, list[Row]] = {}
        if wanted:
            for row in self.database.read_alone(_hands_and_ruled_stacks(len(wanted)), wanted):
                found.setdefault(row[0], []).append(row)
        return {hand: tuple(rows) for hand, rows in found.items()}

    @staticmethod
    def hand_of_rows(rows: tuple[Row, ...]) -> Row:
        """The hand's row (:meth:`hand_row`'s) in :meth:`final_stacks_rows` (at least one row)."""
        return tuple(rows[0][:_HAND_WIDTH])

    @classmethod
    def final_stacks_of_rows(cls, rows: tuple[Row, ...]) -> tuple[views.Hand, list[views.TableSeat]]:
        """The hand and :meth:`final_stacks` of it, from :meth:`final_stacks_rows` (at least one row)."""
        hand = _hand(rows[0][:_HAND_WIDTH])
        ruled = [row[_HAND_WIDTH:] for row in rows if row[_HAND_WIDTH] is not None]
        return hand, cls._seats_after(hand, ruled)

    def history(self, hand_id: str, offset: int, limit: int) -> list[views.HistoryEntry]:
        return [
            views.HistoryEntry(
                version=int(version), type=kind, payload=json.loads(payload), recorded_by=person, role=role,
                event_id=event_id, seq=seq, follows=follows, interprets=interprets, rule=rule, reading=reading,
                ruling=role in OFFICIAL_ROLES, at=at, link=link,
            )
            for (version, kind, payload, person, role, event_id, seq, follows, interprets, rule, reading, at, link)
            in self._reader.query(schema.HISTORY_OF, (hand_id, limit, offset))
        ]

    def stacks(self, hand_id: str) -> list[views.StacksAfter]:
        """The stacks of every seat after every event (the stored changes carried forward)."""
        changes: dict[int, list[Row]] = {}
        for version, seat, stack, committed in self._reader.query(schema.STACKS_OF, (hand_id,)):
            changes.setdefault(int(version), []).append((int(seat), int(stack), int(committed)))
        now: dict[int, tuple[int, int]] = {}
        out = []
        for version, kind in self._reader.query(schema.HISTORY_TYPES, (hand_id,)):
            for seat, stack, committed in changes.get(int(version), []):
                now[seat] = (stack, committed)
            seats = [views.SeatStack(seat=s, stack=now[s][0], committed=now[s][1]) for s in sorted(now)]
            out.append(views.StacksAfter(version=int(version), type=kind, seats=seats))
        return out

    def last_hands(self, competition: str) -> list[tuple[views.Hand, list[views.TableSeat]]]:
        """Each table's last hand (by table) with the seats as the table's state gives them (:meth:`table`): the
        final stacks once it is over, the starting stacks while it is played. Two queries for every table, where
        :meth:`tables` and :meth:`table` take two and three a table (the standings read this on every request)."""
        hands = [_hand(row) for row in self._reader.query(schema.LAST_HANDS_OF, (competition,))]
        ruled: dict[str, list[Row]] = {}
        for hand_id, *row in self._reader.query(schema.LAST_HANDS_RULED_STACKS, (competition,)):
            ruled.setdefault(str(hand_id), []).append(tuple(row))
        return [
            (hand, self._seats_after(hand, ruled.get(hand.hand_id, [])) if hand.status != "in_progress"
             else [views.TableSeat(seat=s.seat, player=s.player, stack=s.starting_stack) for s in hand.seats])
            for hand in hands
        ]

    def final_stacks(self, hand: views.Hand) -> list[views.TableSeat]:
        """Each seat's stack after the hand's last event; where a ruling on the hand moved chips, as the
        latest such ruling left them, beside the engine's and with the ruling."""
        return self._seats_after(hand, self._reader.query(schema.RULED_STACKS_OF, (hand.hand_id, hand.hand_id)))

    @staticmethod
    def _seats_after(hand: views.Hand, ruled_rows: Iterable[Row]) -> list[views.TableSeat]:
        ruled = {
            int(seat): (stack, engine, views.RulingRef(number=int(number), ruling=ruling, kind=kind))
            for number, ruling, kind, seat, stack, engine in ruled_rows
        }
        out = []
        for s in hand.seats:
            if s.seat not in ruled:
                out.append(views.TableSeat(seat=s.seat, player=s.player, stack=s.stack))
                continue
            stack, engine, ruling = ruled[s.seat]
            out.append(
                views.TableSeat(
                    seat=s.seat, player=s.player, stack=int(stack), engine_stack=int(engine), ruled_by=ruling
                )
            )
        return out

    def pots(self, hand_id: str) -> list[views.Pot]:
        out = []
        rows = self._reader.query(schema.POTS_OF, (hand_id,))
        for index, half, amount, eligible, contributors, awarded, shares, winning, odd in rows:
            seats, paid = json.loads(eligible), json.loads(contributors)
            out.append(
                views.Pot(
                    name=pot_name(int(index)), pot_index=int(index), half=half, amount=int(amount), eligible=seats,
                    contributors=paid, awarded=bool(awarded),
                    uncalled=not awarded and len(paid) == 1 and paid == seats,
                    shares=[views.Share(**s) for s in json.loads(shares)], winning_hand=winning, odd_chip=odd,
                )
            )
        return out

    def showdown(self, hand: views.Hand) -> views.Showdown:
        """The showdown record; empty lists for a hand that has not reached one."""
        row = self._reader.one(schema.SHOWDOWN_OF, (hand.hand_id,))
        if row is None:
            return views.Showdown(hand_id=hand.hand_id, order=[], shown=[], mucked_unshown=[], odd_chips=[])
        order, shown, mucked, odd = (json.loads(v) for v in row)
        holes = {s.seat: s.hole_cards for s in hand.seats}
        return views.Showdown(
            hand_id=hand.hand_id,
            order=order,
            shown=[views.ShownHand(**s) for s in shown],
            mucked_unshown=[views.MuckedHand(seat=s, cards=holes.get(s)) for s in mucked],
            odd_chips=odd,
        )

    def rulings(self, hand_id: str) -> list[views.Ruling]:
        return [
            views.Ruling(
                number=int(n), type=kind, payload=json.loads(payload), recorded_by=person, role=role,
                event_id=event_id, at=at, link=link,
            )
            for n, kind, payload, person, role, event_id, at, link in self._reader.query(
                schema.RULINGS_OF, (hand_id,)
            )
        ]

    # --- rejections ----------------------------------------------------------------------------------------

    def rejections(
        self, competition: str, kind: str | None, offset: int, limit: int
    ) -> tuple[list[views.Rejection], int]:
        if kind is None:
            rows = self._reader.query(schema.REJECTIONS_OF, (competition, limit, offset))
            total = self._reader.one(schema.REJECTION_COUNT, (competition,))
        else:
            rows = self._reader.query(schema.REJECTIONS_OF_KIND, (competition, kind, limit, offset))
            total = self._reader.one(schema.REJECTION_COUNT_OF_KIND, (competition, kind))
        items = [
            views.Rejection(
                number=int(n), kind=k, rule=rule, reason=reason, field=f, event_id=eid, event_type=etype,
                table_id=table, hand=hand, seq=seq, at=at,
            )
            for n, k, rule, reason, f, eid, etype, table, hand, seq, at in rows
        ]
        return items, int(total[0]) if total else 0


def _hand(row: Row) -> views.Hand:
    r: dict[str, Any] = dict(zip(schema.HAND_COLUMNS, row, strict=True))
    return views.Hand(
        hand_id=r["hand_id"], competition_id=r["competition"], table_id=r["table_id"], number=int(r["number"]),
        variant=r["variant"], rulebook=r["rulebook"], button=r["button"], level=r["level"],
        stakes=views.Stakes(**json.loads(r["stakes"])), seats=[views.Seat(**s) for s in json.loads(r["seats"])],
        board=json.loads(r["board"]), status=r["status"], undetermined=bool(r["undetermined"]),
        started_at=r["started_at"], ended_at=r["ended_at"], version=int(r["version"]), chain_head=r["chain_head"],
        imported=bool(r["imported"]),
    )


def _points(rows: list[Row]) -> list[PointsRow]:
    return [
        (str(p), str(t), int(n), int(points), bool(fouled), int(royalties), bool(fantasy))
        for p, t, n, points, fouled, royalties, fantasy in rows
    ]
