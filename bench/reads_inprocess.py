"""CPU a read costs the API app itself, in process: the ASGI app called directly (no uvicorn, no sockets), a judge's
reads as `bench/api.py --mixed` sends them, on an embedded store (issue 17's A/B of the read path).

    POKERAUDIT_DATA_DIR=/tmp/x .venv/bin/python bench/reads_inprocess.py --fill      # once: simulate, judge, project
    POKERAUDIT_DATA_DIR=/tmp/x .venv/bin/python bench/reads_inprocess.py [hand|stacks|standings|mix] [N]

The store: one simulated American competition (`pokeraudit simulate --seed 17 --competition-format american
--players 18`), judged and projected. Per read kind (or the mix: per hand a hand read and its final stacks, the
standings after every fourth hand), N reads (default 1,500) after 50 to warm up; prints the process's CPU time
(user + system, worker threads included) per read, and as its last line one JSON object. Run it from two
worktrees alternating (the store may be shared: it only reads) to compare code.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SECRET = "bench-secret-of-at-least-thirty-two-bytes"
COMPETITION = "sim-american-17"
POKERAUDIT = Path(sys.executable).parent / "pokeraudit"


def fill() -> None:
    for command in (["simulate", "--seed", "17", "--competition-format", "american", "--players", "18", "--quiet"],
                    ["referee"], ["projections", "run"]):
        subprocess.run([str(POKERAUDIT), *command], check=True, stdout=subprocess.DEVNULL)


def paths(models: object, kind: str) -> list[str]:
    hands = [row[0] for row in models.database.query("SELECT hand_id FROM rm_hands ORDER BY hand_id")]  # type: ignore[attr-defined]
    reads = {"hand": [f"/v1/hands/{h}" for h in hands], "stacks": [f"/v1/hands/{h}/stacks/final" for h in hands],
             "standings": [f"/v1/competitions/{COMPETITION}/standings"]}
    if kind != "mix":
        return reads[kind]
    mixed = []
    for n, h in enumerate(hands):
        mixed += [f"/v1/hands/{h}", f"/v1/hands/{h}/stacks/final"]
        if n % 4 == 3:
            mixed.append(f"/v1/competitions/{COMPETITION}/standings")
    return mixed


def main() -> None:
    if "--fill" in sys.argv:
        fill()
        return
    from api.app import create_app
    from api.auth import issue_token
    from api.settings import Settings

    kind = sys.argv[1] if len(sys.argv) > 1 else "mix"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1500
    app = create_app(Settings(POKERAUDIT_JWT_SECRET=SECRET, POKERAUDIT_RATE_HEAVY_READS_PER_MINUTE=0))  # type: ignore[call-arg]
    auth = f"Bearer {issue_token(SECRET, 'bench', 'judge')}".encode()
    targets = paths(app.state.read_models, kind)

    async def read(path: str) -> None:
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
                 "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
                 "headers": [(b"host", b"bench"), (b"authorization", auth)], "client": ("127.0.0.1", 1),
                 "server": ("bench", 80)}
        sent: list[dict[str, object]] = []

        async def receive() -> dict[str, object]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict[str, object]) -> None:
            sent.append(message)

        await app(scope, receive, send)
        if sent[0]["status"] != 200:
            raise RuntimeError(f"{path}: {sent}")

    async def run() -> float:
        async with app.router.lifespan_context(app):
            for path in targets[:50]:
                await read(path)
            start = time.process_time()
            for i in range(count):
                await read(targets[i % len(targets)])
            return (time.process_time() - start) / count * 1000

    per_read = asyncio.run(run())
    print(f"{kind}: {per_read:.3f} ms CPU per read ({count:,} reads, load average {os.getloadavg()[0]:.2f})")
    print(json.dumps({"name": f"api_inprocess_{kind}_cpu", "value": round(per_read, 3), "unit": "ms/read",
                      "reads": count, "load_average": round(os.getloadavg()[0], 2)}))


if __name__ == "__main__":
    main()
