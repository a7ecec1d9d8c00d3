"""Which build of a module runs: the compiled one only while it was made from the source beside it.

Some hot modules are compiled with mypyc (``deploy/native.py``; ``make native``), their extensions written beside
their sources. Python prefers an extension to a source of the same name, so a module edited after the build
would silently run its old compiled code. :class:`FreshBuildsOnly`, installed by each of pokeraudit's top-level
packages before any of their modules loads, stands in front of that choice: an extension is loaded only when
the build's manifest names it and every source of its group still has the hash it was built from (the group's
modules call one another inside C, so one edited module means the whole group runs from its sources); a source
whose size and mtime are still those the manifest recorded beside its hash is not read again. When it
does not, the source is loaded instead, and one warning says to run ``make native``. Results are the same
either way; only the speed differs.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec, PathFinder
from pathlib import Path
from types import ModuleType

# every pokeraudit process imports this module first, `pokeraudit validate` among them, whose start-up is measured
# against PokerKit's: so no importlib.abc (it pulls in importlib.resources, tempfile and shutil, ~20 ms) and the
# manifest's reading (json, hashlib) only when a compiled module is met

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / ".native-build.json"
PACKAGES = ("domain.", "projections.", "ingest.", "api.")


def interpreter() -> str:
    """What a build is only good for: this interpreter's version and extension suffix (sysconfig's EXT_SUFFIX,
    which the import system lists first among the suffixes it loads: read there, sysconfig is not imported at
    every start)."""
    return f"{sys.implementation.cache_tag}{EXTENSION_SUFFIXES[0]}"


def source_of(module: str, root: Path = ROOT) -> Path:
    """The source file of a module under ``root`` (``domain.cards`` → ``root/domain/cards.py``)."""
    return root.joinpath(*module.split(".")).with_suffix(".py")


def source_digest(path: Path) -> str:
    """What the manifest records of a source: the SHA-256 of its bytes."""
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def source_stamp(path: Path) -> list[int]:
    """A source's size and modification time (ns), which the manifest records beside its hash: while both are
    what they were when it was hashed, the guard takes the hash as unchanged instead of reading and hashing the
    file again (every start, ~24 files). Taken BEFORE the hash, so an edit between the two reads as a change."""
    stat = path.stat()
    return [stat.st_size, stat.st_mtime_ns]


class FreshBuildsOnly:
    """Finds pokeraudit's modules as the path finder does, but loads an extension only from a fresh build."""

    def __init__(self, manifest: Path = MANIFEST, root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> None:
        self.manifest = manifest
        self.root = root
        self.packages = packages
        self._fresh: frozenset[str] | None = None
        self.warned = False

    def fresh(self) -> frozenset[str]:
        """The modules whose build may run: all of the manifest's, or none when any source changed since."""
        if self._fresh is None:
            self._fresh = frozenset(self._read())
        return self._fresh

    def _read(self) -> list[str]:
        import json

        try:
            manifest = json.loads(self.manifest.read_text())
            modules: dict[str, str] = manifest["modules"]
            # size and mtime of each source when it was hashed (absent from older manifests: every source hashed)
            stamps: dict[str, list[int]] = manifest.get("stamps") or {}
            if manifest["interpreter"] != interpreter():
                return []
            for module, built_from in modules.items():
                source = source_of(module, self.root)
                if stamps.get(module) == source_stamp(source):
                    continue  # untouched since hashed (Python trusts the same check for bytecode, to the second)
                if source_digest(source) != built_from:
                    return []
            return list(modules)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return []

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if "." not in fullname and fullname.endswith("__mypyc"):
            # a group of several modules shares one library mypyc writes at the root, which is on the import path
            # only when Python starts there (not under pytest, a console script or another folder)
            return PathFinder.find_spec(fullname, [str(self.root)], target)
        if not fullname.startswith(self.packages):
            return None
        # looked up under the root, not along the ``path`` the import system passes: under pytest a test folder
        # named like a package (tests/unit/projections) can stand as the parent's path, the lookup along it finds
        # nothing, and the next finder (the editable install's) would load the extension unguarded
        package = str(self.root.joinpath(*fullname.split(".")[:-1]))
        spec = PathFinder.find_spec(fullname, [package], target)
        origin = spec.origin if spec is not None else None
        if spec is None or origin is None or not origin.endswith(tuple(EXTENSION_SUFFIXES)):
            return spec
        if fullname in self.fresh():
            return spec
        source = Path(origin).with_name(fullname.rsplit(".", 1)[-1] + ".py")
        if not source.exists():
            return spec
        if not self.warned:
            self.warned = True
            print(f"pokeraudit: {fullname} was compiled from another source; running the compiled group's "
                  "sources interpreted (run `make native` to compile them again)", file=sys.stderr)
        from importlib.util import spec_from_file_location  # the rare path: a stale build

        return spec_from_file_location(fullname, source)


def install() -> None:
    """Put the guard first on the import path, once per interpreter (forked workers inherit it)."""
    if not any(isinstance(finder, FreshBuildsOnly) for finder in sys.meta_path):
        sys.meta_path.insert(0, FreshBuildsOnly())
