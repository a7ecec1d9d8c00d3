"""The web app's speed on the demo's data: each page's time, a live update's latency, the replayer's step.

    .venv/bin/python bench/web.py [--requests 40] [--updates 36] [--steps 60] [--no-browser]

Loads the demo's data (``api.demo.load_demo``: 3 simulated tables, the WSOP final table, a whole competition)
into a scratch folder and starts ``pokeraudit serve`` on it (embedded: the referee and the projector run in the
process). Then:

* **pages**: every page, signed in as the Chief Judge (who sees the most), requested ``--requests`` times one
  after the other on loopback; a page's time runs from the request to the last byte of its answer (the pages
  read the API in-process, so this is the server's time plus a loopback round trip). Goal: p95 < 100 ms.
* **the API underneath**: the federation's views the officials' pages read (``/v1/competitions/{c}/protests``,
  ``…/penalties``, ``…/rulings``, ``…/standings``, ``…/protocol``, …), requested the same way: what those pages
  cannot be faster than.
* **live update**: a judge reports a hand record by record (``POST /v1/events``, no wait) while the table's
  event stream (``/web/…/live``) is open, as a live page has it; a record's latency runs from its POST to the
  table's fragment answering with it, fetched when the stream says ``projected`` (what the page's htmx does).
  Goal: < 1 s.
* **replayer step**: in Debian's Chromium (headless), the replayer of the demo's longest hand stepped with the
  right arrow; a step's time is the key's handler and the next frame. Goal: < 50 ms.

The last line printed is one JSON object: name, value (the worst page's p95, ms), unit, anchor (the goal),
ratio (value / anchor), peak memory of the serve process, and the other figures.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "e2e" / "web"))

POKERAUDIT = Path(sys.executable).parent / "pokeraudit"
PAGE_GOAL_MS = 100.0
LIVE_GOAL_MS = 1000.0
STEP_GOAL_MS = 50.0


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def pages(api: httpx.Client) -> dict[str, str]:
    def longest(competition: str, tables: list[str]) -> str:
        best, length = "", -1
        for table in tables:
            for hand in api.get(f"/v1/competitions/{competition}/tables/{table}/hands", params={"limit": 500}).json()[
                "items"
            ]:
                if hand["version"] > length:
                    best, length = hand["hand_id"], hand["version"]
        return best

    hand = longest("sim-7", ["T1", "T2", "T3"])
    return {
        "dashboard": "/web/",
        "overview (3 simulated tables)": "/web/competitions/sim-7",
        "overview (whole competition)": "/web/competitions/sim-american-11",
        "overview (WSOP, 83 tables)": "/web/competitions/wsop-2023-event-43",
        "tables fragment": "/web/competitions/sim-7/fragments/tables",
        "standings fragment": "/web/competitions/sim-american-11/fragments/standings",
        "chip chart data": "/web/competitions/sim-american-11/chips.json",
        "table": "/web/competitions/sim-7/tables/T1",
        "replayer (longest hand)": f"/web/hands/{hand}",
        "rejections": "/web/competitions/sim-7/rejections",
        "protests": "/web/competitions/sim-american-11/protests",
        "protest": "/web/competitions/sim-american-11/protests/protest-2",
        "penalties": "/web/competitions/sim-american-11/penalties",
        "rulings": "/web/competitions/sim-american-11/rulings",
        "protocol": "/web/competitions/sim-american-11/protocol",
        "operations": "/web/operations",
        "rejections CSV": "/web/competitions/sim-7/rejections?format=csv",
    }


def time_pages(web: httpx.Client, paths: dict[str, str], requests: int) -> dict[str, dict[str, float]]:
    out = {}
    for name, path in paths.items():
        answer = web.get(path)
        assert answer.status_code == 200, (name, answer.status_code, answer.text[:300])
        times = []
        for _ in range(requests):
            start = time.perf_counter()
            answer = web.get(path)
            times.append((time.perf_counter() - start) * 1000)
            assert answer.status_code == 200, (name, answer.status_code, answer.text[:300])
        out[name] = {"p50": statistics.median(times), "p95": p95(times), "max": max(times)}
        print(f"  {name:34s} p50 {out[name]['p50']:7.1f} ms   p95 {out[name]['p95']:7.1f} ms   max {out[name]['max']:7.1f} ms")
    return out


def live_updates(base: str, token: str, judge: str, updates: int) -> list[float]:
    """Each record's time from its POST to the table fragment showing it, driven by the page's event stream."""
    import threading

    from web_hands import live_hand

    competition = f"bench-live-{secrets.token_hex(3)}"
    table = "L1"
    cookies = {"pokeraudit_session": token}
    api = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=30)
    web = httpx.Client(base_url=base, cookies=cookies, timeout=30)
    # a hand at a table of its own each time (the test hand is left in play, as a live table has it)
    hands = (updates + 8) // 9 + 1
    records = [r for n in range(1, hands + 1) for r in live_hand(competition, f"{table}-{n}", judge)]
    first = api.post("/v1/events/batch", params={"wait": "true"}, json=records[:1]).json()
    assert first["verdicts"][0]["outcome"] == "accepted", first
    projected = threading.Event()
    ready = threading.Event()
    stop = threading.Event()

    def listen() -> None:
        with httpx.Client(base_url=base, cookies=cookies, timeout=None) as stream_client, stream_client.stream(
            "GET", f"/web/competitions/{competition}/live"
        ) as stream:
            for line in stream.iter_lines():
                if stop.is_set():
                    return
                if line.startswith("event: ready"):
                    ready.set()
                elif line.startswith("event: projected"):
                    projected.set()

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    assert ready.wait(30), "the event stream did not open within 30 s"
    latencies = []
    for record in records[1 : updates + 1]:
        projected.clear()
        fragment = f"/web/competitions/{competition}/hand-of/{record['table_id']}"
        start = time.perf_counter()
        answer = api.post("/v1/events", json=record)
        assert answer.status_code == 202, answer.text
        while True:
            assert projected.wait(10), "no projected event within 10 s"
            projected.clear()
            body = web.get(fragment).text
            if f'data-version="{record["seq"] + 1}"' in body:
                break
        latencies.append((time.perf_counter() - start) * 1000)
    stop.set()
    return latencies


def replayer_steps(base: str, token: str, path: str, steps: int) -> list[tuple[float, float]]:
    """Each step's time to draw (the key's handler) and to the next frame painted, in ms."""
    from web_browser import chromium_paths, new_browser

    driver = new_browser(chromium_paths())
    try:
        driver.get(f"{base}/web/sign-in")
        driver.add_cookie({"name": "pokeraudit_session", "value": token, "path": "/"})
        driver.get(f"{base}{path}?step=1")
        times = driver.execute_async_script(
            """
            const [steps, done] = arguments;
            const out = [];
            const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
            (async () => {
              await frame();
              for (let i = 0; i < steps; i++) {
                const start = performance.now();
                document.dispatchEvent(new KeyboardEvent("keydown", {key: i % 4 < 2 ? "ArrowRight" : "ArrowLeft", bubbles: true}));
                const drawn = performance.now();
                await frame();
                out.push([drawn - start, performance.now() - start]);
              }
              done(out);
            })();
            """,
            steps,
        )
        return [(float(a), float(b)) for a, b in times]
    finally:
        driver.quit()


def peak_memory_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=40, help="requests per page")
    parser.add_argument("--updates", type=int, default=36, help="records reported while the live page listens")
    parser.add_argument("--steps", type=int, default=60, help="replayer steps in the browser")
    parser.add_argument("--no-browser", action="store_true", help="skip the replayer's step in Chromium")
    args = parser.parse_args()

    from api.auth import issue_token
    from api.demo import load_demo
    from api.demo_people import DEMO_PEOPLE
    from api.settings import Settings

    scratch = Path(tempfile.mkdtemp(prefix="pokeraudit-bench-web-"))
    data_dir = scratch / "demo"
    secret = secrets.token_urlsafe(32)
    print(f"loading the demo's data into {data_dir}")
    load_demo(Settings(POKERAUDIT_DATA_DIR=data_dir), out=lambda line: None)  # type: ignore[call-arg]
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("KAFKA_BOOTSTRAP_SERVERS", "DATABASE_URL")}
    # the per-token limits off: one token asks each page 40 times in a row, far past a person's minute of heavy
    # reads (60), and what is timed is the page, not the limit's 429
    env.update(POKERAUDIT_DATA_DIR=str(data_dir), POKERAUDIT_JWT_SECRET=secret,
               POKERAUDIT_RATE_HEAVY_READS_PER_MINUTE="0", POKERAUDIT_RATE_SUBMITS_PER_MINUTE="0")
    server = subprocess.Popen([str(POKERAUDIT), "serve", "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/ready", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline and server.poll() is None, "the server did not start"
            time.sleep(0.2)
        # the whole competition's appointed officials (permissions and sealed reads follow appointments)
        chief = issue_token(secret, DEMO_PEOPLE["chief_judge"][0], "chief_judge")
        judge_person = DEMO_PEOPLE["judge"][0]
        judge = issue_token(secret, judge_person, "judge")
        api = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {chief}"}, timeout=30)
        web = httpx.Client(base_url=base, cookies={"pokeraudit_session": chief}, timeout=30)
        paths = pages(api)
        print(f"pages, {args.requests} sequential requests each (Chief Judge):")
        timed = time_pages(web, paths, args.requests)
        # the integrity team's pages (issues 14, 15), as the demo's analyst reads them: the pair read is the
        # competition's first pair by score, whatever its score
        analyst = issue_token(secret, DEMO_PEOPLE["integrity"][0], "integrity")
        analyst_api = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {analyst}"}, timeout=30)
        whole = "sim-american-11"
        pairs = analyst_api.get(f"/v1/integrity/competitions/{whole}/pairs", params={"min_hands": 1}).json()
        integrity_paths = {
            "integrity alerts": f"/web/competitions/{whole}/integrity",
            "integrity players": f"/web/competitions/{whole}/integrity/players",
            "integrity chip flow": f"/web/competitions/{whole}/integrity/chip-flow",
            "integrity cases": f"/web/competitions/{whole}/integrity/cases",
        }
        if pairs:
            first = pairs[0]
            integrity_paths["integrity pair"] = (
                f"/web/competitions/{whole}/integrity/pair?a={first['player_a']}&b={first['player_b']}&min_hands=1"
            )
        print(f"integrity pages, {args.requests} sequential requests each (integrity analyst):")
        analyst_web = httpx.Client(base_url=base, cookies={"pokeraudit_session": analyst}, timeout=30)
        timed.update(time_pages(analyst_web, integrity_paths, args.requests))
        worst = max(timed, key=lambda n: timed[n]["p95"])
        print(f"the API's own reads under the officials' pages, {args.requests} sequential requests each:")
        underneath = time_pages(api, {
            f"GET /v1/competitions/sim-american-11/{view}": f"/v1/competitions/sim-american-11/{view}"
            for view in ("protests", "protests/protest-2", "penalties", "rulings", "standings", "clock", "balance",
                         "protocol")
        }, args.requests)
        print(f"live updates, {args.updates} records reported while the table's stream is open:")
        live = live_updates(base, judge, judge_person, args.updates)
        print(f"  p50 {statistics.median(live):.0f} ms   p95 {p95(live):.0f} ms   max {max(live):.0f} ms")
        steps: list[float] = []
        drawn: list[float] = []
        if not args.no_browser:
            print(f"replayer, {args.steps} steps in Chromium (headless):")
            timed_steps = replayer_steps(base, chief, paths["replayer (longest hand)"], args.steps)
            drawn, steps = [a for a, _ in timed_steps], [b for _, b in timed_steps]
            print(f"  drawn:         p50 {statistics.median(drawn):.1f} ms   p95 {p95(drawn):.1f} ms   max {max(drawn):.1f} ms")
            print(f"  next frame:    p50 {statistics.median(steps):.1f} ms   p95 {p95(steps):.1f} ms   max {max(steps):.1f} ms")
        memory = peak_memory_kib(server.pid)
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    value = timed[worst]["p95"]
    print(json.dumps({
        "name": "web page time p95 (worst page)", "value": round(value, 1), "unit": "ms", "anchor": PAGE_GOAL_MS,
        "ratio": round(value / PAGE_GOAL_MS, 3), "peak_memory_kib": memory, "worst_page": worst,
        "live_update_p95_ms": round(p95(live), 1), "live_goal_ms": LIVE_GOAL_MS,
        "replayer_step_p95_ms": round(p95(steps), 1) if steps else None,
        "replayer_draw_p95_ms": round(p95(drawn), 1) if drawn else None, "step_goal_ms": STEP_GOAL_MS,
        "pages_p95_ms": {n: round(t["p95"], 1) for n, t in timed.items()},
        "api_underneath_p95_ms": {n.rpartition("/")[2]: round(t["p95"], 1) for n, t in underneath.items()},
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
