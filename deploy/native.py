"""Compiles pokeraudit's hottest modules with mypyc, in place, and records what each build was made from.

    python deploy/native.py build     # compile MODULES when a source changed since the last build (make native)
    python deploy/native.py clean     # remove the builds: everything runs interpreted
    python deploy/native.py status    # which modules run compiled, and why not when they do not
    python deploy/native.py sources   # the compiled modules' source files, one per line

The modules are ordinary typed Python; mypyc (part of mypy, a pinned dev dependency) turns them into C
extensions that do the same thing several times faster. They are compiled as one group (mypyc's calls between
modules of a group skip Python), the extensions written beside their sources (``*.so``, git-ignored), and the
group's manifest (``.native-build.json`` at the root: each module's source hash, its size and mtime when hashed,
the interpreter) beside them.

A build is used only while every source of its group is what it was built from: ``domain/native.py`` checks the
manifest at the first import of a compiled module, and when a source was edited since (or the manifest is
missing, or made for another interpreter) the whole group runs from its sources, with one warning saying to run
``make native``. An edit therefore never runs stale compiled code. Without a C compiler or mypyc the build is
skipped with a message and everything runs interpreted: the results are the same, only slower.

This script uses the standard library only at import (and ``domain/native.py``, the guard, which does too: the
manifest's place, its hashing and the interpreter's tag are defined once, there), so the Makefile can ask it for
``sources`` with any Python 3.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from domain.native import (  # noqa: E402  (the root on the path first)
    MANIFEST,
    interpreter,
    source_digest,
    source_of,
    source_stamp,
)

#: the modules compiled, as one group; each says why it is worth it (a module is listed only when a bench shows
#: the gain and its tests pass both compiled and interpreted)
MODULES: tuple[str, ...] = (
    # integrity's counting, every hold'em hand the projector stores (bench/integrity_count.py, with the two
    # integrity modules below: warm CPU a hand 2.3-3.0x less than interpreted, the same counters)
    "projections.integrity.counters",
    # the rules engine, every act of every hand validate replays and the referee judges (bench/rules_engine.py:
    # the replay 2.2-2.8x faster compiled, the same results); one group, so the engine's calls stay in C
    "domain.hand.state",  # HandState: the one door in (apply), forced bets, betting's turn, streets
    "domain.hand.betting",  # BettingRound: verify and act, seat_after, several times an act
    "domain.hand.deal_acts",  # each deal's checks, hole and board
    "domain.hand.dealing",  # the deck's integrity: every card dealt checked and noted
    "domain.hand.misdeals",  # the first deal's checks in front of every hole-card deal
    "domain.hand.corrections",  # the board's and the burn's checks in front of every board deal and burn
    "domain.hand.tabling",  # shows, mucks, the pots and the award
    "domain.hand.showdown",  # the showdown's award, pot by pot
    "domain.hand.pots",  # the main and side pots at the showdown
    "domain.hand.start",  # a hand's start checked, once a hand
    "domain.hand.turn",  # who acts first, every street
    "domain.hand.in_play",  # the pending corrections read at every burn
    "domain.hand.replay",  # the Replayer around every event validate replays
    "domain.cards",  # a card's hash, at every card the deck notes (the deck's sets)
    # the counting's strength buckets, hand categories and "the nuts" from card codes, asked three times a hand
    # (compiled beside counters, each a C call; the walk 3.0x faster than main with the two below, same counters)
    "domain.integrity.strength",
    # the all-in equities' boards to come, a few hundred evaluations an all-in hand (~0.8 ms each interpreted)
    "projections.integrity.equity",
    # a rebuild's per-row work (issue 17): a stored row read into what the read models use, a hand followed by its
    # chip accountant or the engine's replay, its history and snapshot rows; and a hand as integrity reads it,
    # which the counting above takes field by field (native attribute reads inside the group)
    "projections.hand_projection",
    "projections.chip_account",
    "domain.integrity.record",
    # PHH read and turned into events for validate, every line and action of every file (branch validate:
    # `validate --jobs 1` 0.89x the CPU compiled, its 157 tests passing both ways)
    "ingest.phh_fast",
    "ingest.phh_fields",
    "ingest.phh_actions",
    "ingest.phh_events",
    # the referee's write path around the engine (issues 12, 17; bench/referee_cpu.py: bare 0.93x, simulated 0.91x
    # the CPU a record, the stored rows byte-identical): every record's meta, hand stream, verdict and batch
    # bookkeeping (ingest.judgement), the hand handler's glue (ingest.handlers.hands), the clock's checks
    # (domain.clock), the payload's bounds (ingest.bounds), every event's payload encoded (domain.hand.codec) and its
    # link body written (domain.chain). Not ingest.referee: compiled, a Referee's methods cannot be wrapped on an
    # instance (bench/pipeline.py times each judge so), and its loop was worth little
    "ingest.judgement",
    "ingest.bounds",
    "ingest.handlers.hands",
    "domain.clock",
    "domain.hand.codec",
    "domain.chain",
)


def built_files() -> list[Path]:
    """Every extension a build left under the root: the modules' and the group's shared library."""
    suffixes = (".so", ".pyd")
    found = [p for p in ROOT.glob("*__mypyc*") if p.name.endswith(suffixes)]
    for package in ("domain", "projections", "ingest", "api"):
        found.extend(p for p in (ROOT / package).rglob("*") if p.name.endswith(suffixes))
    return sorted(found)


def wanted() -> dict[str, str]:
    return {module: source_digest(source_of(module)) for module in MODULES}


def stamped() -> tuple[dict[str, str], dict[str, list[int]]]:
    """Each module's source hash and its size and mtime, the stamp taken first (domain/native.py's
    ``source_stamp``): the guard at every start compares the stamps and hashes only a source whose stamp moved."""
    stamps = {module: source_stamp(source_of(module)) for module in MODULES}
    return wanted(), stamps


def write_manifest(sources: dict[str, str], stamps: dict[str, list[int]]) -> None:
    manifest = {"interpreter": interpreter(), "modules": sources, "stamps": stamps}
    MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n")


def current() -> dict[str, object] | None:
    try:
        return json.loads(MANIFEST.read_text())  # type: ignore[no-any-return]
    except (OSError, ValueError):
        return None


def up_to_date() -> bool:
    manifest = current()
    return (
        manifest is not None
        and manifest.get("interpreter") == interpreter()
        and manifest.get("modules") == wanted()
        and all(_extension_of(m).exists() for m in MODULES)
    )


def _extension_of(module: str) -> Path:
    return source_of(module).with_name(module.rsplit(".", 1)[-1] + str(sysconfig.get_config_var("EXT_SUFFIX")))


def clean() -> None:
    for path in built_files():
        path.unlink()
    MANIFEST.unlink(missing_ok=True)


def compiler() -> str | None:
    cc = str(sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc)


def build(force: bool = False) -> int:
    if not MODULES:
        clean()
        print("native: no module is listed for compiling; everything runs interpreted")
        return 0
    if not force and up_to_date():
        sources, stamps = stamped()
        manifest = current() or {}
        if manifest.get("stamps") != stamps and sources == manifest.get("modules"):
            # sources touched (a checkout, a save without a change) but the same bytes: the build stands; record
            # their stamps, so the guard stops hashing them at every start
            write_manifest(sources, stamps)
        print(f"native: {len(MODULES)} compiled modules are up to date")
        return 0
    try:
        import mypyc  # noqa: F401
    except ImportError:
        print("native: mypyc is not installed (it comes with the dev dependencies); everything runs interpreted")
        return 0
    if compiler() is None:
        print("native: no C compiler found; everything runs interpreted (install gcc to compile the hot modules)")
        return 0
    sources, stamps = stamped()  # before compiling: an edit during the build makes the build stale, not wrong
    clean()
    print(f"native: compiling {len(MODULES)} modules with mypyc (about half a minute a module) ...", flush=True)
    with tempfile.TemporaryDirectory(prefix="pokeraudit-native-") as scratch:
        paths = [str(source_of(m).relative_to(ROOT)) for m in MODULES]
        script = (
            "import sys\n"
            "from setuptools import setup\n"
            "from mypyc.build import mypycify\n"
            f"setup(name='pokeraudit-native', packages=[], py_modules=[],\n"
            f"      ext_modules=mypycify({paths!r}, opt_level='3', target_dir={scratch + '/c'!r}),\n"
            f"      script_args=['build_ext', '--inplace', '--build-temp', {scratch + '/o'!r},\n"
            f"                   '--build-lib', {scratch + '/lib'!r},\n"
            f"                   '--parallel', {str(os.cpu_count() or 1)!r}])\n"
        )
        done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        clean()
        print(done.stdout[-4000:] + done.stderr[-4000:], file=sys.stderr)
        print("native: the build failed (above); everything runs interpreted", file=sys.stderr)
        return done.returncode
    write_manifest(sources, stamps)
    print(f"native: compiled {', '.join(MODULES)}")
    return 0


def status() -> int:
    manifest = current()
    if not MODULES:
        print("no module is listed for compiling")
    elif manifest is None:
        print("not built: run `make native`")
    elif manifest.get("interpreter") != interpreter():
        print(f"built for another interpreter ({manifest.get('interpreter')}): run `make native`")
    else:
        modules = manifest.get("modules")
        recorded = modules if isinstance(modules, dict) else {}
        whole = up_to_date()
        for module, now in wanted().items():
            built = recorded.get(module) == now and _extension_of(module).exists()
            state = "compiled" if whole else "built from this source, but runs interpreted" if built else "stale"
            print(f"{module}: {state}")
        if not whole:
            print("the whole group runs interpreted (one module's build is stale or missing) until `make native`")
    return 0


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "build"
    if command == "build":
        return build(force="--force" in argv)
    if command == "clean":
        clean()
        return 0
    if command == "status":
        return status()
    if command == "sources":
        print("\n".join(str(source_of(m).relative_to(ROOT)) for m in MODULES))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
