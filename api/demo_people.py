"""The demo's whole competition and who the web app's demo role picker signs in as (api/demo.py loads the
competition; api/web/pages.py mints the tokens): in a module of their own, so the pages need not import the
demo, which imports the app."""

from __future__ import annotations

#: the whole competition the demo adds for the officials' pages: 18 players, two tables, to its winner
WHOLE_SEED, WHOLE_PLAYERS = 11, 18
WHOLE = f"sim-american-{WHOLE_SEED}"
#: who the web app's demo role picker signs in as: the officials the whole competition appointed (permissions
#: come from appointments, so their acts are judged on their merits), a reader of each other role
DEMO_PEOPLE: dict[str, tuple[str, str | None, str | None]] = {
    "chief_judge": (f"{WHOLE}-chief-judge", None, None),
    "secretary": (f"{WHOLE}-secretary", None, None),
    "judge": (f"{WHOLE}-judge-1", None, None),
    "dealer": (f"{WHOLE}-dealer-T1", WHOLE, "T1"),
    "federation": ("bfsp-board", None, None),
    "integrity": ("demo-integrity", None, None),
    "viewer": ("demo-viewer", None, None),
    # a player of the whole competition (P0001, its first entry, as the simulator registers him): his own protests
    "participant": ("Tatsiana Kolas", WHOLE, None),
}
