"""The reporting schema: SQL views in PostgreSQL for a federation's own BI tools (Metabase, Grafana, …).

``reporting.*`` views read the read models (``rm_*``) and the event store (``pokeraudit_events``) in the same
database; docs/REPORTING.md describes each column. They show what a viewer may read through the API
(api/sealing.py, api/routes/federation.py): no hole card, no rejection's reason (it can name hole cards), no
violation's grounds or hand, no open protest's grounds. A BI tool given a database role that may read only
the ``reporting`` schema therefore reads nothing the sealing policy keeps from viewers.

The views are made by :func:`install` (``pokeraudit reporting``) once the read models exist, and are always as
current as the tables under them. A rebuild swaps fresh read-model tables in by dropping the old ones, which
PostgreSQL refuses while a view depends on them; so each view over a read model reads it through a SQL function
(``reporting.<view>_rows()``), whose body PostgreSQL resolves when it runs, not when it is made: the swap drops
and renames freely, and the next read finds the new table. Views over the event store (never swapped) and over
other views are plain views.
"""

from __future__ import annotations

from projections import schema

SCHEMA = "reporting"
#: the event store's table (eventsourcing's ``<application>_events``: the Store application is "pokeraudit")
EVENTS = "pokeraudit_events"

#: a stored event's JSON (its state is UTF-8 JSON: payload, meta with the competition, timestamp)
_STATE = "convert_from(e.state, 'UTF8')::jsonb"
_AT = f"(({_STATE})->'timestamp'->>'_data_')::timestamptz"


def _events_of(topic: str) -> str:
    """The stored events of one type (their topic is ``module:Aggregate.Event``)."""
    return f"{EVENTS} e WHERE e.topic LIKE '%{topic}'"


#: the columns of the views over the read models, with their types (their functions return exactly these)
COLUMNS: dict[str, str] = {
    "hands": "hand_id text, competition text, table_id text, number bigint, variant text, rulebook text, button int, "
    "level int, status text, undetermined boolean, started_at timestamptz, ended_at timestamptz, board jsonb, "
    "events bigint",
    "stacks": "hand_id text, competition text, table_id text, number bigint, seat int, player text, "
    "starting_stack bigint, stack bigint, engine_stack bigint, committed bigint, folded boolean, shown boolean, "
    "status text, started_at timestamptz, ended_at timestamptz",
    "stack_changes": "hand_id text, competition text, table_id text, number bigint, event bigint, seat int, "
    "stack bigint, committed bigint",
    "pots": "hand_id text, competition text, table_id text, number bigint, pot_index int, half text, amount bigint, "
    "eligible jsonb, contributors jsonb, awarded boolean, shares jsonb, winning_hand text, odd_chip text",
    "rejections": "competition text, number bigint, kind text, rule text, field text, event_type text, "
    "table_id text, hand text, seq int, at timestamptz",
}

VIEWS: dict[str, str] = {
    "hands": f"""
        SELECT h.hand_id, h.competition, h.table_id, h.number, h.variant, h.rulebook, h.button, h.level,
               h.status, h.undetermined <> 0 AS undetermined, h.started_at::timestamptz AS started_at,
               h.ended_at::timestamptz AS ended_at, h.board::jsonb AS board, h.version AS events
          FROM {schema.HANDS} h""",
    "stacks": f"""
        SELECT h.hand_id, h.competition, h.table_id, h.number, (s->>'seat')::int AS seat, s->>'player' AS player,
               (s->>'starting_stack')::bigint AS starting_stack,
               COALESCE(r.stack, (s->>'stack')::bigint) AS stack, (s->>'stack')::bigint AS engine_stack,
               (s->>'committed')::bigint AS committed, (s->>'folded')::boolean AS folded,
               (s->>'shown')::boolean AS shown, h.status, h.started_at::timestamptz AS started_at,
               h.ended_at::timestamptz AS ended_at
          FROM {schema.HANDS} h
         CROSS JOIN LATERAL jsonb_array_elements(h.seats::jsonb) s
          LEFT JOIN LATERAL (
                SELECT rs.stack FROM {schema.RULED_STACKS} rs
                 WHERE rs.hand_id = h.hand_id AND rs.seat = (s->>'seat')::int
                 ORDER BY rs.number DESC LIMIT 1) r ON true""",
    "stack_changes": f"""
        SELECT c.hand_id, h.competition, h.table_id, h.number, c.version AS event, c.seat, c.stack, c.committed
          FROM {schema.STACKS} c JOIN {schema.HANDS} h ON h.hand_id = c.hand_id""",
    "pots": f"""
        SELECT p.hand_id, h.competition, h.table_id, h.number, p.pot_index, p.half, p.amount,
               p.eligible::jsonb AS eligible, p.contributors::jsonb AS contributors, p.awarded <> 0 AS awarded,
               p.shares::jsonb AS shares, p.winning_hand, p.odd_chip
          FROM {schema.POTS} p JOIN {schema.HANDS} h ON h.hand_id = p.hand_id""",
    "rejections": f"""
        SELECT r.competition, r.number, r.kind, r.rule, r.field, r.event_type, r.table_id, r.hand, r.seq,
               r.at::timestamptz AS at
          FROM {schema.REJECTIONS} r""",
    "eliminations": f"""
        SELECT ({_STATE})->'meta'->>'competition_id' AS competition,
               ({_STATE})->'payload'->>'participant' AS participant,
               (({_STATE})->'payload'->>'place')::int AS place,
               ({_STATE})->'payload'->'shared_with' AS shared_with,
               ({_STATE})->'payload'->>'reason' AS reason, ({_STATE})->'payload'->>'hand' AS hand,
               {_AT} AS at
          FROM {_events_of(':Competition.PlayerEliminated')}""",
    "penalties": f"""
        SELECT ({_STATE})->'meta'->>'competition_id' AS competition,
               ({_STATE})->'payload'->>'participant' AS participant,
               (({_STATE})->'payload'->>'violation')::int AS violation,
               ({_STATE})->'payload'->>'kind' AS kind, ({_STATE})->'payload'->>'imposed_by' AS imposed_by,
               (({_STATE})->'payload'->>'rounds')::int AS rounds,
               (({_STATE})->'payload'->>'hands_to_miss')::int AS hands_to_miss, {_AT} AS at
          FROM {_events_of(':DisciplinaryCase.PenaltyImposed')}""",
    "protests": f"""
        SELECT ({_STATE})->'meta'->>'competition_id' AS competition,
               ({_STATE})->'payload'->>'protest' AS protest, ({_STATE})->'payload'->>'tier' AS tier,
               ({_STATE})->'payload'->>'filer' AS filer,
               ({_STATE})->'payload'->'contested'->>'reference' AS against,
               (({_STATE})->'payload'->>'written')::boolean AS written, {_AT} AS filed_at,
               f.forwarded_at, f.deadline, d.decision, d.decided_by, d.decided_at, d.overdue
          FROM {EVENTS} e
          LEFT JOIN LATERAL (
                SELECT {_AT.replace('e.state', 'x.state')} AS forwarded_at,
                       ((convert_from(x.state, 'UTF8')::jsonb)->'payload'->>'deadline')::timestamptz AS deadline
                  FROM {EVENTS} x
                 WHERE x.originator_id = e.originator_id AND x.topic LIKE '%:Protest.ProtestForwarded'
                 LIMIT 1) f ON true
          LEFT JOIN LATERAL (
                SELECT p->>'decision' AS decision, p->>'decided_by' AS decided_by,
                       (p->>'decided_at')::timestamptz AS decided_at, (p->>'overdue')::boolean AS overdue
                  FROM {EVENTS} x, LATERAL (SELECT (convert_from(x.state, 'UTF8')::jsonb)->'payload' AS p) q
                 WHERE x.originator_id = e.originator_id AND x.topic LIKE '%:Protest.ProtestDecided'
                 ORDER BY x.originator_version DESC LIMIT 1) d ON true
         WHERE e.topic LIKE '%:Protest.ProtestFiled'""",
    "standings": f"""
        WITH last_hand AS (
            SELECT DISTINCT ON (s.competition, s.player) s.competition, s.player, s.stack, s.table_id, s.seat,
                   s.ended_at
              FROM {SCHEMA}.stacks s
             WHERE s.status = 'ended'
             ORDER BY s.competition, s.player, s.ended_at DESC, s.number DESC)
        SELECT l.competition, l.player AS participant,
               CASE WHEN el.place IS NULL THEN l.stack ELSE 0 END AS chips, el.place AS eliminated_place,
               l.table_id AS last_table, l.seat AS last_seat, l.ended_at AS last_hand_ended_at
          FROM last_hand l
          LEFT JOIN {SCHEMA}.eliminations el ON el.competition = l.competition AND el.participant = l.player""",
}


def _view(name: str, sql: str, tables_schema: str) -> tuple[str, ...]:
    if name not in COLUMNS:
        return (f"CREATE OR REPLACE VIEW {SCHEMA}.{name} AS {sql.strip()}",)
    columns = [c.strip().split(" ", 1) for c in COLUMNS[name].split(",")]
    typed = ", ".join(f"q.{column}::{kind}" for column, kind in columns)
    body = f"SELECT {typed} FROM ({sql.strip()}) q"
    # SECURITY DEFINER: the function reads the read models as its owner, as a view reads its tables, so a BI
    # role granted the reporting schema alone reads these columns and never the tables (and their hole cards)
    return (
        f"CREATE OR REPLACE FUNCTION {SCHEMA}.{name}_rows() RETURNS TABLE ({COLUMNS[name]}) "
        f"LANGUAGE sql STABLE SECURITY DEFINER SET search_path = {tables_schema}, pg_temp "
        f"AS $reporting${body}$reporting$",
        f"REVOKE ALL ON FUNCTION {SCHEMA}.{name}_rows() FROM PUBLIC",
        f"CREATE OR REPLACE VIEW {SCHEMA}.{name} AS SELECT * FROM {SCHEMA}.{name}_rows()",
    )


def statements(tables_schema: str = "public") -> tuple[str, ...]:
    """The schema, then every view (and the function under it), in the order they depend on each other;
    ``tables_schema`` is where the read models' tables are."""
    if not tables_schema.replace("_", "").isalnum():
        raise ValueError(f"tables_schema: {tables_schema!r} is not a plain schema name")
    return (
        f"CREATE SCHEMA IF NOT EXISTS {SCHEMA}",
        *(s for name, sql in VIEWS.items() for s in _view(name, sql, tables_schema)),
    )


def install(database_url: str) -> list[str]:
    """Make (or make again) the reporting views in the database at ``database_url``; their names."""
    import psycopg

    with psycopg.connect(database_url) as connection:
        row = connection.execute("SELECT current_schema()").fetchone()
        for statement in statements(str(row[0]) if row and row[0] else "public"):
            connection.execute(statement.encode())  # our own constant SQL, no parameter
    return [f"{SCHEMA}.{name}" for name in VIEWS]
