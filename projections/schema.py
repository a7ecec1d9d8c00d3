"""Every SQL statement of the read models, in one place: one schema, two dialects.

The statements are written once with ``?`` placeholders and types both SQLite and PostgreSQL accept
(TEXT, BIGINT, INTEGER); :mod:`projections.database` adapts the placeholders to psycopg. JSON values are
stored as TEXT: the read side never queries inside them, it hands them to the API.

A table's stacks are kept as changes (a row per seat whose stack or chips in the pot moved at an event);
the stacks after any event are the latest change of each seat at or before it. Every event moves one or
two seats at most, so this is a ninth of a row per seat per event, which the rebuild's speed needs.
"""

from __future__ import annotations

from typing import NamedTuple

HANDS = "rm_hands"
STACKS = "rm_stack_changes"
POTS = "rm_pots"
SHOWDOWNS = "rm_showdowns"
HISTORY = "rm_history"
REJECTIONS = "rm_rejections"
REJECTION_LOGS = "rm_rejection_logs"
RULINGS = "rm_rulings"
REVIEWS = "rm_reviews"
RULED_STACKS = "rm_ruled_stacks"
#: OFC rounds (bfsp 8) as they stand, and each player's points in each scored round (projections/ofc.py)
OFC_ROUNDS = "rm_ofc_rounds"
OFC_POINTS = "rm_ofc_points"
#: integrity's counters (projections/integrity/live.py): per competition, player and pair, as JSON, one set
#: per ``part`` (0 for the projector following the store; a rebuild's process k writes part k; a read adds
#: the parts up)
INTEGRITY_COMPETITIONS = "rm_integrity_competitions"
INTEGRITY_PLAYERS = "rm_integrity_players"
INTEGRITY_PAIRS = "rm_integrity_pairs"
#: the referee's answer to each reported record's id, per stream it appears in (projections/verdicts.py)
VERDICTS = "rm_verdicts"
#: integrity cases as they stand (projections/integrity/cases.py): one row a case, its view whole as JSON
INTEGRITY_CASES = "rm_integrity_cases"
#: the season's rating list (projections/rating.py): each competition's places, the competitions and their season,
#: the federation's rating rules of each season, its season disqualifications
RATING_PLACES = "rm_rating_places"
RATING_COMPETITIONS = "rm_rating_competitions"
RATING_RULES = "rm_rating_rules"
SEASON_DISQUALIFICATIONS = "rm_season_disqualifications"
POSITION = "rm_position"
#: events the projector could not project, for operators (not a read model: a rebuild keeps it, and adds to it)
POISON = "rm_poison_events"
#: the projector's row in the position table
POSITION_NAME = "read-models"

#: the read models a rebuild makes afresh (the position table stays: the swap moves the position in it)
MODELS = (
    HANDS, STACKS, POTS, SHOWDOWNS, HISTORY, REJECTIONS, REJECTION_LOGS, RULINGS, REVIEWS, RULED_STACKS, OFC_ROUNDS,
    OFC_POINTS, INTEGRITY_COMPETITIONS, INTEGRITY_PLAYERS, INTEGRITY_PAIRS, VERDICTS, INTEGRITY_CASES,
    RATING_PLACES, RATING_COMPETITIONS, RATING_RULES, SEASON_DISQUALIFICATIONS,
)
#: the read models' tables
TABLES = (*MODELS, POSITION)
#: what a rebuild's fresh tables are called until they are swapped in
REBUILT = "__rebuilt"

_COLUMNS = {
    HANDS: """hand_id TEXT PRIMARY KEY, competition TEXT NOT NULL, table_id TEXT NOT NULL, number BIGINT NOT NULL,
        variant TEXT NOT NULL, rulebook TEXT NOT NULL, button INTEGER, level INTEGER, stakes TEXT NOT NULL,
        seats TEXT NOT NULL, board TEXT NOT NULL, status TEXT NOT NULL, undetermined INTEGER NOT NULL,
        started_at TEXT NOT NULL, ended_at TEXT, version BIGINT NOT NULL, chain_head TEXT NOT NULL,
        imported INTEGER NOT NULL DEFAULT 0""",
    STACKS: """hand_id TEXT NOT NULL, version BIGINT NOT NULL, seat INTEGER NOT NULL, stack BIGINT NOT NULL,
        committed BIGINT NOT NULL""",
    POTS: """hand_id TEXT NOT NULL, position INTEGER NOT NULL, pot_index INTEGER NOT NULL, half TEXT NOT NULL,
        amount BIGINT NOT NULL, eligible TEXT NOT NULL, contributors TEXT NOT NULL, awarded INTEGER NOT NULL,
        shares TEXT NOT NULL, winning_hand TEXT NOT NULL, odd_chip TEXT NOT NULL,
        PRIMARY KEY (hand_id, position)""",
    SHOWDOWNS: """hand_id TEXT PRIMARY KEY, showdown_order TEXT NOT NULL, shown TEXT NOT NULL,
        mucked_unshown TEXT NOT NULL, odd_chips TEXT NOT NULL""",
    HISTORY: """hand_id TEXT NOT NULL, version BIGINT NOT NULL, event_type TEXT NOT NULL, payload TEXT NOT NULL,
        recorded_by TEXT NOT NULL, role TEXT NOT NULL, event_id TEXT NOT NULL, seq INTEGER,
        follows TEXT NOT NULL, interprets TEXT NOT NULL, rule TEXT NOT NULL, reading TEXT NOT NULL,
        at TEXT NOT NULL, link TEXT NOT NULL""",
    REJECTIONS: """competition TEXT NOT NULL, number BIGINT NOT NULL, kind TEXT NOT NULL, rule TEXT NOT NULL,
        reason TEXT NOT NULL, field TEXT NOT NULL, event_id TEXT NOT NULL, event_type TEXT NOT NULL,
        table_id TEXT NOT NULL, hand TEXT NOT NULL, seq INTEGER, at TEXT NOT NULL,
        PRIMARY KEY (competition, number)""",
    REJECTION_LOGS: "stream TEXT PRIMARY KEY, competition TEXT NOT NULL",
    RULINGS: """hand_id TEXT NOT NULL, number BIGINT NOT NULL, event_type TEXT NOT NULL, payload TEXT NOT NULL,
        recorded_by TEXT NOT NULL, role TEXT NOT NULL, event_id TEXT NOT NULL, at TEXT NOT NULL, link TEXT NOT NULL,
        PRIMARY KEY (hand_id, number)""",
    REVIEWS: "stream TEXT PRIMARY KEY, hand_id TEXT NOT NULL",
    # a hand's final stacks as each ruling that moved chips left them (``number`` is the ruling's in the hand's
    # review, as in RULINGS), beside the engine's: the latest is the one in force
    RULED_STACKS: """hand_id TEXT NOT NULL, number BIGINT NOT NULL, ruling TEXT NOT NULL, kind TEXT NOT NULL,
        seat INTEGER NOT NULL, stack BIGINT NOT NULL, engine_stack BIGINT NOT NULL,
        PRIMARY KEY (hand_id, number, seat)""",
    # seats and pairs as projections.ofc's OfcSeatView and OfcPairView, cards as recorded (sealed by the API)
    OFC_ROUNDS: """round_id TEXT PRIMARY KEY, competition TEXT NOT NULL, table_id TEXT NOT NULL, number BIGINT NOT NULL,
        variant TEXT NOT NULL, rulebook TEXT NOT NULL, button INTEGER NOT NULL, status TEXT NOT NULL,
        redeals INTEGER NOT NULL, seats TEXT NOT NULL, pairs TEXT NOT NULL, started_at TEXT NOT NULL, scored_at TEXT,
        version BIGINT NOT NULL, chain_head TEXT NOT NULL""",
    OFC_POINTS: """round_id TEXT NOT NULL, seat INTEGER NOT NULL, competition TEXT NOT NULL, table_id TEXT NOT NULL,
        number BIGINT NOT NULL, player TEXT NOT NULL, points BIGINT NOT NULL, fouled INTEGER NOT NULL,
        royalties INTEGER NOT NULL, fantasy INTEGER NOT NULL, earns_fantasy INTEGER NOT NULL,
        PRIMARY KEY (round_id, seat)""",
    INTEGRITY_COMPETITIONS: """competition TEXT NOT NULL, part INTEGER NOT NULL, hands BIGINT NOT NULL,
        seating TEXT NOT NULL, PRIMARY KEY (competition, part)""",
    INTEGRITY_PLAYERS: """competition TEXT NOT NULL, part INTEGER NOT NULL, player TEXT NOT NULL, state TEXT NOT NULL,
        PRIMARY KEY (competition, part, player)""",
    INTEGRITY_PAIRS: """competition TEXT NOT NULL, part INTEGER NOT NULL, player_a TEXT NOT NULL,
        player_b TEXT NOT NULL, state TEXT NOT NULL, PRIMARY KEY (competition, part, player_a, player_b)""",
    # keyed by record id first: the API asks for the ids it submitted. ``rejected`` is 0 or 1; the columns after
    # ``seq`` are a rejection's (blank for an acceptance)
    VERDICTS: """event_id TEXT NOT NULL, stream TEXT NOT NULL, competition TEXT NOT NULL, rejected INTEGER NOT NULL,
        recorded_by TEXT NOT NULL, role TEXT NOT NULL, seq BIGINT, event_type TEXT NOT NULL, table_id TEXT NOT NULL,
        hand TEXT NOT NULL, kind TEXT NOT NULL, rule TEXT NOT NULL, reason TEXT NOT NULL, field TEXT NOT NULL,
        PRIMARY KEY (event_id, stream)""",
    INTEGRITY_CASES: """stream TEXT PRIMARY KEY, competition TEXT NOT NULL, name TEXT NOT NULL, state TEXT NOT NULL,
        reported INTEGER NOT NULL, players TEXT NOT NULL, updated_at TEXT NOT NULL, version BIGINT NOT NULL,
        view TEXT NOT NULL""",
    RATING_PLACES: """competition TEXT NOT NULL, participant TEXT NOT NULL, person TEXT NOT NULL, place INTEGER NOT NULL,
        shared INTEGER NOT NULL, disqualified INTEGER NOT NULL, PRIMARY KEY (competition, participant)""",
    RATING_COMPETITIONS: """competition TEXT PRIMARY KEY, season TEXT NOT NULL, title TEXT NOT NULL,
        ended INTEGER NOT NULL""",
    RATING_RULES: """season TEXT PRIMARY KEY, rules TEXT NOT NULL, adopted_at TEXT NOT NULL, adopted_by TEXT NOT NULL,
        version BIGINT NOT NULL""",
    SEASON_DISQUALIFICATIONS: """athlete TEXT NOT NULL, season TEXT NOT NULL, competition TEXT NOT NULL,
        violation INTEGER NOT NULL, code TEXT NOT NULL, decided_at TEXT NOT NULL,
        PRIMARY KEY (athlete, season, competition, violation)""",
}
#: the keys of the append-only tables a rebuild fills most: their fresh tables are made without one and get it
#: at the swap, an index made once by sorting being cheaper than one kept row by row (half their inserts' time)
KEYED_AT_SWAP = {STACKS: "hand_id, version, seat", HISTORY: "hand_id, version"}
#: the secondary indexes: (table, the index's name after the table's, its columns)
SECONDARY = (
    (HANDS, "by_table", "competition, table_id, number"),
    (REJECTIONS, "by_kind", "competition, kind, number"),
    (OFC_ROUNDS, "by_table", "competition, table_id, number"),
    (OFC_POINTS, "by_competition", "competition, table_id, number"),
    (INTEGRITY_CASES, "by_competition", "competition, name"),
    (RATING_COMPETITIONS, "by_season", "season, competition"),
)
#: the secondary indexes, made on the tables in use (after a swap, on the tables swapped in)
INDEXES = tuple(
    f"CREATE INDEX IF NOT EXISTS {table}_{name} ON {table} ({columns})" for table, name, columns in SECONDARY
)
#: columns the read models gained after stores were made with them: (table, column, its type and the value the
#: rows already there take), added when missing (a rebuild makes its fresh tables with them)
ADDED_COLUMNS = (
    # a hand history of a past event, recorded by the importer (HandStarted's meta says ``imported``): its own
    # times stand and no live deadline judged it; a hand projected before the column existed was taken as live
    (HANDS, "imported", "INTEGER NOT NULL DEFAULT 0"),
)
#: whether a table in use has a column (asked before adding one: an ALTER would lock the table out of readers)
COLUMN_PRESENT = {
    "sqlite": "SELECT COUNT(*) FROM pragma_table_info(?) WHERE name = ?",
    "postgresql": (
        "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = current_schema()"
        " AND table_name = ? AND column_name = ?"
    ),
}
_POSITION_TABLE = f"CREATE TABLE IF NOT EXISTS {POSITION} (name TEXT PRIMARY KEY, notification_id BIGINT NOT NULL)"


def create_models(suffix: str = "", keyed: bool = True) -> tuple[str, ...]:
    """The read models' tables; with ``keyed`` False, those of :data:`KEYED_AT_SWAP` without their key."""
    return tuple(
        f"CREATE TABLE IF NOT EXISTS {table}{suffix} ({_COLUMNS[table]}"
        f"{f', PRIMARY KEY ({KEYED_AT_SWAP[table]})' if keyed and table in KEYED_AT_SWAP else ''})"
        for table in MODELS
    )


_POISON_TABLE = (
    f"CREATE TABLE IF NOT EXISTS {POISON} (notification_id BIGINT PRIMARY KEY, stream TEXT NOT NULL,"
    " version BIGINT NOT NULL, topic TEXT NOT NULL, error TEXT NOT NULL)"
)

CREATE = (*create_models(), *INDEXES, _POSITION_TABLE, _POISON_TABLE)
#: a rebuild's fresh tables, made empty (what an interrupted rebuild left of them dropped first)
REBUILD = (*(f"DROP TABLE IF EXISTS {table}{REBUILT}" for table in MODELS), *create_models(REBUILT, keyed=False))


#: the keys of :data:`KEYED_AT_SWAP` made on the fresh tables before the swap (PostgreSQL), in the groups of
#: :data:`AHEAD`, made at once, each on a connection of its own: each key sorts its table in one server process, and
#: made inside the swap's transaction they were made one after the other, the readers of the tables in use
#: waiting for them behind the swap's locks. The swap then renames them, as the other tables' keys
_KEY_AHEAD = {
    table: f"ALTER TABLE {table}{REBUILT} ADD CONSTRAINT {table}{REBUILT}_pkey PRIMARY KEY ({key})"
    for table, key in KEYED_AT_SWAP.items()
}
KEYS_AHEAD = tuple(_KEY_AHEAD.values())
#: the secondary indexes made on the fresh tables before the swap too (renamed in it): the swap's transaction, which
#: readers of the tables in use wait behind, then only drops and renames
INDEXES_AHEAD = tuple(
    f"CREATE INDEX {table}{REBUILT}_{name} ON {table}{REBUILT} ({columns})" for table, name, columns in SECONDARY
)
#: what is made before the swap, in groups made at once (each group on a connection of its own, in order): the
#: history's key, the longest, alone; the stack changes' key and then the secondary indexes
AHEAD = ((_KEY_AHEAD[HISTORY],), (_KEY_AHEAD[STACKS], *INDEXES_AHEAD))


def swap(dialect: str, keyed: bool = False) -> tuple[str, ...]:
    """The rebuilt tables in place of the ones in use, in one transaction (with the position moved in it):
    a reader sees the old read models or the new ones, never a mix nor a half-built one. ``keyed``: the fresh
    tables have their keys and secondary indexes already (:data:`AHEAD`, PostgreSQL), which are renamed."""
    out: list[str] = []
    for table in MODELS:
        out.append(f"DROP TABLE IF EXISTS {table}")
        out.append(f"ALTER TABLE {table}{REBUILT} RENAME TO {table}")
        key = None if keyed else KEYED_AT_SWAP.get(table)
        if key is None and dialect == "postgresql":
            # the primary key's index keeps its name through the rename: the next rebuild wants it back
            out.append(f"ALTER TABLE {table} RENAME CONSTRAINT {table}{REBUILT}_pkey TO {table}_pkey")
        elif key is not None and dialect == "postgresql":
            out.append(f"ALTER TABLE {table} ADD CONSTRAINT {table}_pkey PRIMARY KEY ({key})")
        elif key is not None:
            # SQLite adds no primary key to a table: a unique index on the same columns keeps the same rows
            out.append(f"CREATE UNIQUE INDEX {table}_key ON {table} ({key})")
        if keyed:
            # made ahead under the fresh table's name (:data:`INDEXES_AHEAD`); the table in use's went with it
            out.extend(
                f"ALTER INDEX {table}{REBUILT}_{name} RENAME TO {table}_{name}"
                for indexed, name, _ in SECONDARY if indexed == table
            )
    return tuple(out) if keyed else (*out, *INDEXES)


# --- writes (the projector) -------------------------------------------------------------------------------


class Insert(NamedTuple):
    """Rows appended to a table: INSERT in SQLite, COPY in PostgreSQL (several times faster for a page)."""

    table: str
    columns: tuple[str, ...]

    @property
    def sql(self) -> str:
        return f"INSERT INTO {self.table} ({', '.join(self.columns)}) VALUES ({', '.join('?' * len(self.columns))})"

    @property
    def copy(self) -> str:
        return f"COPY {self.table} ({', '.join(self.columns)}) FROM STDIN"


HAND_COLUMNS = (
    "hand_id", "competition", "table_id", "number", "variant", "rulebook", "button", "level", "stakes",
    "seats", "board", "status", "undetermined", "started_at", "ended_at", "version", "chain_head", "imported",
)
_MUTABLE = ("seats", "board", "status", "undetermined", "ended_at", "version", "chain_head")
OFC_ROUND_COLUMNS = (
    "round_id", "competition", "table_id", "number", "variant", "rulebook", "button", "status", "redeals", "seats",
    "pairs", "started_at", "scored_at", "version", "chain_head",
)
VERDICT_COLUMNS = (
    "event_id", "stream", "competition", "rejected", "recorded_by", "role", "seq", "event_type", "table_id", "hand",
    "kind", "rule", "reason", "field",
)
_OFC_MUTABLE = ("status", "redeals", "seats", "pairs", "scored_at", "version", "chain_head")


class Writes(NamedTuple):
    """The projector's statements, on the tables in use or on a rebuild's fresh ones."""

    upsert_hand: str
    #: a hand's row, and its showdown's, written the first time (a rebuild's fresh tables: no row to replace yet)
    hands: Insert
    showdowns: Insert
    history: Insert
    stacks: Insert
    delete_pots: str
    pots: Insert
    upsert_showdown: str
    rejection_logs: Insert
    rejections: Insert
    reviews: Insert
    rulings: Insert
    ruled_stacks: Insert
    upsert_ofc_round: str
    ofc_points: Insert
    #: integrity's counters: (competition, part, …, state) rows replaced whole
    integrity_competition: str
    integrity_player: str
    integrity_pair: str
    #: a competition's counters of one part, read back (the projector's cache of them was dropped)
    integrity_competition_of: str
    integrity_players_of: str
    integrity_pairs_of: str
    #: a record's answer in a stream, the first event of the stream that carries its id kept (a record may make
    #: several events of one stream, and a conflicting duplicate's rejection follows the first answer)
    verdict: str
    #: an integrity case's row, replaced whole at each of its events
    upsert_integrity_case: str
    #: the season's rating list: a competition's places and its row, a season's rules in force, a season
    #: disqualification
    upsert_rating_place: str
    upsert_rating_competition: str
    upsert_rating_rules: str
    season_disqualification: str


def _upsert(table: str, key: tuple[str, ...], values: tuple[str, ...]) -> str:
    columns = (*key, *values)
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        f" ON CONFLICT ({', '.join(key)}) DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in values)}"
    )


def writes(suffix: str = "") -> Writes:
    hands, showdowns = f"{HANDS}{suffix}", f"{SHOWDOWNS}{suffix}"
    return Writes(
        upsert_hand=(
            f"INSERT INTO {hands} ({', '.join(HAND_COLUMNS)}) VALUES ({', '.join('?' * len(HAND_COLUMNS))})"
            f" ON CONFLICT (hand_id) DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in _MUTABLE)}"
        ),
        hands=Insert(hands, HAND_COLUMNS),
        showdowns=Insert(showdowns, ("hand_id", "showdown_order", "shown", "mucked_unshown", "odd_chips")),
        history=Insert(
            f"{HISTORY}{suffix}",
            ("hand_id", "version", "event_type", "payload", "recorded_by", "role", "event_id", "seq", "follows",
             "interprets", "rule", "reading", "at", "link"),
        ),
        stacks=Insert(f"{STACKS}{suffix}", ("hand_id", "version", "seat", "stack", "committed")),
        delete_pots=f"DELETE FROM {POTS}{suffix} WHERE hand_id = ?",
        pots=Insert(
            f"{POTS}{suffix}",
            ("hand_id", "position", "pot_index", "half", "amount", "eligible", "contributors", "awarded", "shares",
             "winning_hand", "odd_chip"),
        ),
        upsert_showdown=(
            f"INSERT INTO {showdowns} (hand_id, showdown_order, shown, mucked_unshown, odd_chips)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (hand_id) DO UPDATE SET showdown_order = excluded.showdown_order,"
            " shown = excluded.shown, mucked_unshown = excluded.mucked_unshown, odd_chips = excluded.odd_chips"
        ),
        rejection_logs=Insert(f"{REJECTION_LOGS}{suffix}", ("stream", "competition")),
        rejections=Insert(
            f"{REJECTIONS}{suffix}",
            ("competition", "number", "kind", "rule", "reason", "field", "event_id", "event_type", "table_id",
             "hand", "seq", "at"),
        ),
        reviews=Insert(f"{REVIEWS}{suffix}", ("stream", "hand_id")),
        rulings=Insert(
            f"{RULINGS}{suffix}",
            ("hand_id", "number", "event_type", "payload", "recorded_by", "role", "event_id", "at", "link"),
        ),
        ruled_stacks=Insert(
            f"{RULED_STACKS}{suffix}", ("hand_id", "number", "ruling", "kind", "seat", "stack", "engine_stack")
        ),
        upsert_ofc_round=(
            f"INSERT INTO {OFC_ROUNDS}{suffix} ({', '.join(OFC_ROUND_COLUMNS)})"
            f" VALUES ({', '.join('?' * len(OFC_ROUND_COLUMNS))})"
            f" ON CONFLICT (round_id) DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in _OFC_MUTABLE)}"
        ),
        ofc_points=Insert(
            f"{OFC_POINTS}{suffix}",
            ("round_id", "seat", "competition", "table_id", "number", "player", "points", "fouled", "royalties",
             "fantasy", "earns_fantasy"),
        ),
        integrity_competition=_upsert(f"{INTEGRITY_COMPETITIONS}{suffix}", ("competition", "part"),
                                      ("hands", "seating")),
        integrity_player=_upsert(f"{INTEGRITY_PLAYERS}{suffix}", ("competition", "part", "player"), ("state",)),
        integrity_pair=_upsert(f"{INTEGRITY_PAIRS}{suffix}", ("competition", "part", "player_a", "player_b"),
                               ("state",)),
        integrity_competition_of=(
            f"SELECT hands, seating FROM {INTEGRITY_COMPETITIONS}{suffix} WHERE competition = ? AND part = ?"
        ),
        integrity_players_of=f"SELECT player, state FROM {INTEGRITY_PLAYERS}{suffix} WHERE competition = ? AND part = ?",
        integrity_pairs_of=(
            f"SELECT player_a, player_b, state FROM {INTEGRITY_PAIRS}{suffix} WHERE competition = ? AND part = ?"
        ),
        verdict=(
            f"INSERT INTO {VERDICTS}{suffix} ({', '.join(VERDICT_COLUMNS)})"
            f" VALUES ({', '.join('?' * len(VERDICT_COLUMNS))}) ON CONFLICT (event_id, stream) DO NOTHING"
        ),
        upsert_integrity_case=_upsert(
            f"{INTEGRITY_CASES}{suffix}", ("stream",),
            ("competition", "name", "state", "reported", "players", "updated_at", "version", "view"),
        ),
        upsert_rating_place=_upsert(
            f"{RATING_PLACES}{suffix}", ("competition", "participant"), ("person", "place", "shared", "disqualified")
        ),
        upsert_rating_competition=_upsert(
            f"{RATING_COMPETITIONS}{suffix}", ("competition",), ("season", "title", "ended")
        ),
        upsert_rating_rules=_upsert(
            f"{RATING_RULES}{suffix}", ("season",), ("rules", "adopted_at", "adopted_by", "version")
        ),
        season_disqualification=(
            f"INSERT INTO {SEASON_DISQUALIFICATIONS}{suffix} (athlete, season, competition, violation, code, decided_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (athlete, season, competition, violation) DO NOTHING"
        ),
    )


#: on the tables in use (catching up), and on a rebuild's fresh tables
IN_USE = writes()
FRESH = writes(REBUILT)
SAVE_POSITION = (
    f"INSERT INTO {POSITION} (name, notification_id) VALUES (?, ?)"
    " ON CONFLICT (name) DO UPDATE SET notification_id = excluded.notification_id"
)

# --- reads (the projector's own, and the API's) ------------------------------------------------------------

POSITION_OF = f"SELECT notification_id FROM {POSITION} WHERE name = ?"
#: an event the projector passed over because projecting it failed (found again by a rebuild: kept once)
SAVE_POISON = (
    f"INSERT INTO {POISON} (notification_id, stream, version, topic, error) VALUES (?, ?, ?, ?, ?)"
    " ON CONFLICT (notification_id) DO NOTHING"
)
POISON_COUNT = f"SELECT COUNT(*) FROM {POISON}"
POISON_EVENTS = f"SELECT notification_id, stream, version, topic, error FROM {POISON} ORDER BY notification_id LIMIT ?"
#: the position read at the start of a page's transaction, held until it commits: a second projector on the
#: same read models waits for it there, then finds the page done (SQLite's BEGIN IMMEDIATE already holds it)
LOCK_POSITION = {"sqlite": POSITION_OF, "postgresql": f"{POSITION_OF} FOR UPDATE"}
SEED_POSITION = f"INSERT INTO {POSITION} (name, notification_id) VALUES (?, 0) ON CONFLICT (name) DO NOTHING"
REJECTION_LOG_COMPETITION = f"SELECT competition FROM {REJECTION_LOGS} WHERE stream = ?"
REVIEW_HAND = f"SELECT hand_id FROM {REVIEWS} WHERE stream = ?"
RULINGS_OF = (
    f"SELECT number, event_type, payload, recorded_by, role, event_id, at, link FROM {RULINGS}"
    " WHERE hand_id = ? ORDER BY number"
)
#: the final stacks of a hand as the latest ruling that moved chips left them (none: no ruling did)
RULED_STACKS_OF = (
    f"SELECT number, ruling, kind, seat, stack, engine_stack FROM {RULED_STACKS} WHERE hand_id = ?"
    f" AND number = (SELECT MAX(number) FROM {RULED_STACKS} WHERE hand_id = ?) ORDER BY seat"
)

COMPETITIONS = (
    f"SELECT competition, COUNT(DISTINCT table_id), COUNT(*), SUM(CASE WHEN status = 'in_progress' THEN 1"
    f" ELSE 0 END) FROM {HANDS} GROUP BY competition"
)
REJECTION_COUNTS = f"SELECT competition, COUNT(*) FROM {REJECTIONS} GROUP BY competition"
COMPETITION_KNOWN = (
    f"SELECT 1 FROM {HANDS} WHERE competition = ? UNION SELECT 1 FROM {REJECTION_LOGS} WHERE competition = ?"
    f" UNION SELECT 1 FROM {OFC_ROUNDS} WHERE competition = ?"
)
#: each table's hands and OFC rounds: (table, hands, last hand number, rounds, last round number)
TABLES_OF = (
    "SELECT table_id, SUM(hands), MAX(last_hand), SUM(rounds), MAX(last_round) FROM ("
    f"SELECT table_id, COUNT(*) AS hands, MAX(number) AS last_hand, 0 AS rounds, NULL AS last_round FROM {HANDS}"
    " WHERE competition = ? GROUP BY table_id UNION ALL"
    f" SELECT table_id, 0, NULL, COUNT(*), MAX(number) FROM {OFC_ROUNDS} WHERE competition = ? GROUP BY table_id"
    ") AS played GROUP BY table_id ORDER BY table_id LIMIT ? OFFSET ?"
)
TABLE_COUNT = (
    f"SELECT COUNT(*) FROM (SELECT table_id FROM {HANDS} WHERE competition = ?"
    f" UNION SELECT table_id FROM {OFC_ROUNDS} WHERE competition = ?) AS played"
)
#: per competition: OFC rounds, rounds in progress, and the tables that played them
OFC_COMPETITIONS = (
    f"SELECT competition, COUNT(*), SUM(CASE WHEN status = 'in_progress' THEN 1 ELSE 0 END),"
    f" COUNT(DISTINCT table_id) FROM {OFC_ROUNDS} GROUP BY competition"
)
_OFC_ROUND_SELECT = f"SELECT {', '.join(OFC_ROUND_COLUMNS)} FROM {OFC_ROUNDS}"
OFC_ROUNDS_OF = f"{_OFC_ROUND_SELECT} WHERE competition = ? ORDER BY table_id, number"
OFC_ROUNDS_AT = f"{_OFC_ROUND_SELECT} WHERE competition = ? AND table_id = ? ORDER BY number LIMIT ? OFFSET ?"
OFC_KNOWN = f"SELECT 1 FROM {OFC_ROUNDS} WHERE competition = ? LIMIT 1"
OFC_ROUND_COUNT_AT = f"SELECT COUNT(*) FROM {OFC_ROUNDS} WHERE competition = ? AND table_id = ?"
OFC_ROUND = f"{_OFC_ROUND_SELECT} WHERE competition = ? AND table_id = ? AND number = ?"
LAST_OFC_ROUND_AT = f"{_OFC_ROUND_SELECT} WHERE competition = ? AND table_id = ? ORDER BY number DESC LIMIT 1"
#: each player's result in each scored round, by table and round (the standings are summed from them)
OFC_POINTS_OF = (
    f"SELECT player, table_id, number, points, fouled, royalties, fantasy FROM {OFC_POINTS} WHERE competition = ?"
    " ORDER BY table_id, number, seat"
)
OFC_POINTS_AT = (
    f"SELECT player, table_id, number, points, fouled, royalties, fantasy FROM {OFC_POINTS}"
    " WHERE competition = ? AND table_id = ? ORDER BY number, seat"
)
_HAND_SELECT = f"SELECT {', '.join(HAND_COLUMNS)} FROM {HANDS}"
LAST_HAND_AT = f"{_HAND_SELECT} WHERE competition = ? AND table_id = ? ORDER BY number DESC LIMIT 1"
HANDS_AT = f"{_HAND_SELECT} WHERE competition = ? AND table_id = ? ORDER BY number LIMIT ? OFFSET ?"
HAND_COUNT_AT = f"SELECT COUNT(*) FROM {HANDS} WHERE competition = ? AND table_id = ?"
#: the last hand at each table of a competition (the standings' one query for what the tables hold now)
_LAST_AT_EACH_TABLE = (
    f"number = (SELECT MAX(number) FROM {HANDS} AS later WHERE later.competition = {HANDS}.competition"
    f" AND later.table_id = {HANDS}.table_id)"
)
LAST_HANDS_OF = f"{_HAND_SELECT} WHERE competition = ? AND {_LAST_AT_EACH_TABLE} ORDER BY table_id"
#: the stacks the latest chip-moving ruling on each of those hands left (as RULED_STACKS_OF, for them all at once)
LAST_HANDS_RULED_STACKS = (
    f"SELECT ruled.hand_id, number, ruling, kind, seat, stack, engine_stack FROM {RULED_STACKS} AS ruled"
    f" WHERE ruled.hand_id IN (SELECT hand_id FROM {HANDS} WHERE competition = ? AND {_LAST_AT_EACH_TABLE})"
    f" AND number = (SELECT MAX(number) FROM {RULED_STACKS} AS latest WHERE latest.hand_id = ruled.hand_id)"
    " ORDER BY ruled.hand_id, seat"
)
HAND = f"{_HAND_SELECT} WHERE hand_id = ?"
HISTORY_OF = (
    f"SELECT version, event_type, payload, recorded_by, role, event_id, seq, follows, interprets, rule, reading,"
    f" at, link FROM {HISTORY} WHERE hand_id = ? ORDER BY version LIMIT ? OFFSET ?"
)
HISTORY_TYPES = f"SELECT version, event_type FROM {HISTORY} WHERE hand_id = ? ORDER BY version"
STACKS_OF = f"SELECT version, seat, stack, committed FROM {STACKS} WHERE hand_id = ? ORDER BY version, seat"
POTS_OF = (
    f"SELECT pot_index, half, amount, eligible, contributors, awarded, shares, winning_hand, odd_chip"
    f" FROM {POTS} WHERE hand_id = ? ORDER BY position"
)
SHOWDOWN_OF = f"SELECT showdown_order, shown, mucked_unshown, odd_chips FROM {SHOWDOWNS} WHERE hand_id = ?"
_REJECTION_SELECT = (
    f"SELECT number, kind, rule, reason, field, event_id, event_type, table_id, hand, seq, at FROM {REJECTIONS}"
)
REJECTIONS_OF = f"{_REJECTION_SELECT} WHERE competition = ? ORDER BY number LIMIT ? OFFSET ?"
REJECTIONS_OF_KIND = f"{_REJECTION_SELECT} WHERE competition = ? AND kind = ? ORDER BY number LIMIT ? OFFSET ?"
REJECTION_COUNT = f"SELECT COUNT(*) FROM {REJECTIONS} WHERE competition = ?"
#: a competition's integrity counters, every part (a read adds them up)
INTEGRITY_COMPETITION_PARTS = f"SELECT part, hands, seating FROM {INTEGRITY_COMPETITIONS} WHERE competition = ?"
INTEGRITY_PLAYER_PARTS = f"SELECT part, player, state FROM {INTEGRITY_PLAYERS} WHERE competition = ? ORDER BY part"
INTEGRITY_PAIR_PARTS = (
    f"SELECT part, player_a, player_b, state FROM {INTEGRITY_PAIRS} WHERE competition = ? ORDER BY part"
)
#: a competition's integrity cases, by name; the reported ones (what its Chief Judge reads); one case
INTEGRITY_CASES_OF = f"SELECT view FROM {INTEGRITY_CASES} WHERE competition = ? ORDER BY name"
INTEGRITY_CASES_REPORTED = f"SELECT view FROM {INTEGRITY_CASES} WHERE competition = ? AND reported = 1 ORDER BY name"
INTEGRITY_CASE = f"SELECT view FROM {INTEGRITY_CASES} WHERE competition = ? AND name = ?"
#: a season's rating rules in force; its competitions (title, over); their places; its season disqualifications
RATING_RULES_OF = f"SELECT rules, adopted_at, adopted_by FROM {RATING_RULES} WHERE season = ?"
RATING_COMPETITIONS_OF = f"SELECT competition, title, ended FROM {RATING_COMPETITIONS} WHERE season = ? ORDER BY competition"
RATING_PLACES_OF = (
    f"SELECT p.competition, p.participant, p.person, p.place, p.shared, p.disqualified FROM {RATING_PLACES} p"
    f" JOIN {RATING_COMPETITIONS} c ON c.competition = p.competition WHERE c.season = ?"
    " ORDER BY p.competition, p.place, p.participant"
)
SEASON_DISQUALIFIED_OF = (
    f"SELECT athlete, competition, decided_at, code FROM {SEASON_DISQUALIFICATIONS} WHERE season = ?"
    " ORDER BY athlete, decided_at"
)
REJECTION_COUNT_OF_KIND = f"SELECT COUNT(*) FROM {REJECTIONS} WHERE competition = ? AND kind = ?"


def verdicts_of(ids: int) -> str:
    """The stored answers to ``ids`` record ids (as many ``?``)."""
    return f"SELECT {', '.join(VERDICT_COLUMNS)} FROM {VERDICTS} WHERE event_id IN ({', '.join('?' * ids)})"


def history_answers(hands: int, ids: int) -> str:
    """A hand's answers to record ids: the events of ``hands`` hands (keyed by hand first) carrying one of ``ids``
    ids, in version order, with the hand's competition."""
    return (
        f"SELECT h.event_id, h.hand_id, x.competition, h.recorded_by, h.role, h.seq FROM {HISTORY} h"
        f" JOIN {HANDS} x ON x.hand_id = h.hand_id WHERE h.hand_id IN ({', '.join('?' * hands)})"
        f" AND h.event_id IN ({', '.join('?' * ids)}) ORDER BY h.hand_id, h.version"
    )


def dump_all() -> tuple[tuple[str, str], ...]:
    """(table, a query of all its rows in a stable order): what a rebuild must reproduce exactly."""
    keys = {
        HANDS: "hand_id", STACKS: "hand_id, version, seat", POTS: "hand_id, position", SHOWDOWNS: "hand_id",
        HISTORY: "hand_id, version", REJECTIONS: "competition, number", REJECTION_LOGS: "stream",
        RULINGS: "hand_id, number", REVIEWS: "stream", RULED_STACKS: "hand_id, number, seat",
        OFC_ROUNDS: "round_id", OFC_POINTS: "round_id, seat", VERDICTS: "event_id, stream", INTEGRITY_CASES: "stream",
        RATING_PLACES: "competition, participant", RATING_COMPETITIONS: "competition", RATING_RULES: "season",
        SEASON_DISQUALIFICATIONS: "athlete, season, competition, violation",
        POSITION: "name",
    }
    return tuple((table, f"SELECT * FROM {table} ORDER BY {order}") for table, order in keys.items())
