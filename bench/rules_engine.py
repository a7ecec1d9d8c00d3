"""Hands replayed per second, our rules engine against PokerKit 0.7.7, on the shared PHH hands.

    .venv/bin/python bench/rules_engine.py [PATH ...] [--repeats R]

Both sides replay the same hands, already read from disk: ours the hand's events (built once from the PHH
record by ingest.phh_events, then replayed by a fresh HandState each pass: validation, pots, showdown and
awards included); PokerKit each HandHistory (``list(hand_history)`` builds the state and applies every
action). The median of R passes is reported for each, and the ratio. A second line times ours end to end
(PHH record to events to replay), the work ``pokeraudit validate`` does per hand.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pokerkit as pk  # noqa: E402

from domain.hand.events import HandStarted, ReportedEvent  # noqa: E402
from domain.hand.replay import Replayer  # noqa: E402
from domain.hand.state import HandState  # noqa: E402
from domain.rulebooks import Rulebook, get_rulebook  # noqa: E402
from ingest.phh import PhhHand, load_hands  # noqa: E402
from ingest.phh_events import PhhEvents  # noqa: E402

DEFAULT_PATH = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "phh"


def our_events(hands: list[PhhHand], rulebook: Rulebook) -> list[list[ReportedEvent]]:
    """Each hand's events, up to the first one the engine refuses (as validate replays it)."""
    out = []
    for hand in hands:
        replayer = Replayer(rulebook)
        events: list[ReportedEvent] = []
        for event in PhhEvents(hand, lambda r=replayer: r.state):  # type: ignore[misc]
            try:
                replayer.apply(event)
            except Exception:
                break
            events.append(event)
        out.append(events)
    return out


def replay_ours(all_events: list[list[ReportedEvent]], rulebook: Rulebook) -> None:
    for events in all_events:
        start = events[0]
        assert isinstance(start, HandStarted)
        state = HandState.start(start, rulebook)
        apply = state.apply
        for event in events[1:]:
            apply(event)


def end_to_end_ours(hands: list[PhhHand], rulebook: Rulebook) -> None:
    for hand in hands:
        replayer = Replayer(rulebook)
        replayer.run(PhhEvents(hand, lambda r=replayer: r.state))  # type: ignore[misc]


def pokerkit_histories(paths: list[Path]) -> list[pk.HandHistory]:
    out = []
    for path in paths:
        files = (
            [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.suffix in (".phh", ".phhs"))
        )
        for file in files:
            with file.open("rb") as fp:
                if file.suffix == ".phhs":
                    out.extend(pk.HandHistory.load_all(fp))
                else:
                    out.append(pk.HandHistory.load(fp))
    return out


def replay_pokerkit(histories: list[pk.HandHistory]) -> int:
    failed = 0
    for history in histories:
        try:
            for _ in history:
                pass
        except Exception:
            failed += 1
    return failed


def timed(fn: Callable[[], object], repeats: int) -> float:
    """Median wall time; the cyclic garbage collector is off while timing, as timeit does, so that neither
    side pays for scanning the other's objects."""
    times = []
    for _ in range(repeats):
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        finally:
            gc.enable()
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[DEFAULT_PATH])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rulebook", default="bfsp")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    rulebook = get_rulebook(args.rulebook)
    hands = list(load_hands(args.paths))
    events = our_events(hands, rulebook)
    histories = pokerkit_histories(args.paths)
    n_events = sum(len(e) for e in events)
    failed = replay_pokerkit(histories)
    # the loaded records are long-lived: keep the collector from rescanning them on every pass (both sides)
    gc.collect()
    gc.freeze()
    # interleaved passes, so that a busy machine slows both sides alike; medians of each
    ours, e2e, theirs = [], [], []
    for _ in range(args.repeats):
        ours.append(timed(lambda: replay_ours(events, rulebook), 1))
        theirs.append(timed(lambda: replay_pokerkit(histories), 1))
        e2e.append(timed(lambda: end_to_end_ours(hands, rulebook), 1))
    o, t, e = statistics.median(ours), statistics.median(theirs), statistics.median(e2e)
    ratios = sorted(t / len(histories) / (x / len(hands)) for x, t in zip(ours, theirs, strict=True))
    print(f"hands: ours {len(hands)} ({n_events} events), PokerKit {len(histories)} ({failed} raised)")
    print(f"ours     replay      {len(hands) / o:10.0f} hands/s  ({o * 1e6 / len(hands):7.1f} us/hand)")
    print(f"ours     end to end  {len(hands) / e:10.0f} hands/s  ({e * 1e6 / len(hands):7.1f} us/hand)")
    print(
        f"PokerKit replay      {len(histories) / t:10.0f} hands/s  ({t * 1e6 / len(histories):7.1f} us/hand)"
    )
    print(
        f"ratio replay: {len(hands) / o / (len(histories) / t):.1f}x PokerKit "
        f"(per pass {ratios[0]:.1f}x to {ratios[-1]:.1f}x); end to end: {len(hands) / e / (len(histories) / t):.1f}x"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
