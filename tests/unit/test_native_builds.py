"""A compiled module runs only from a build of its current source (domain/native.py), and the suite as the
Makefile runs it runs the compiled modules (deploy/native.py's MODULES), not silently their sources."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import runpy
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest

from domain.native import FreshBuildsOnly, interpreter, source_stamp

SUFFIX = str(sysconfig.get_config_var("EXT_SUFFIX"))
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def package(tmp_path: Path) -> Iterator[Path]:
    """A package ``natpkg`` with a module ``mod`` whose "build" is a file no interpreter can load: importing
    the build fails, importing the source gives VALUE = 1."""
    pkg = tmp_path / "natpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "mod.py").write_text("VALUE = 1\n")
    (pkg / f"mod{SUFFIX}").write_bytes(b"not an extension")
    sys.path.insert(0, str(tmp_path))
    yield tmp_path
    sys.path.remove(str(tmp_path))
    for name in [n for n in sys.modules if n == "natpkg" or n.startswith("natpkg.")]:
        del sys.modules[name]


def _finder(root: Path, manifest: dict[str, object] | None) -> FreshBuildsOnly:
    path = root / "manifest.json"
    if manifest is not None:
        path.write_text(json.dumps(manifest))
    return FreshBuildsOnly(manifest=path, root=root, packages=("natpkg.",))


def _source_hash(root: Path) -> str:
    return hashlib.sha256((root / "natpkg" / "mod.py").read_bytes()).hexdigest()


def test_a_build_of_the_current_source_is_loaded(package: Path) -> None:
    finder = _finder(package, {"interpreter": interpreter(), "modules": {"natpkg.mod": _source_hash(package)}})
    spec = finder.find_spec("natpkg.mod", [str(package / "natpkg")])
    assert spec is not None and spec.origin is not None and spec.origin.endswith(SUFFIX)
    assert not finder.warned


@pytest.mark.parametrize("manifest", [
    None,                                                            # never built, or the manifest removed
    {"interpreter": "another-python.so", "modules": {"natpkg.mod": "<the hash>"}},
    {"interpreter": "<this one>", "modules": {"natpkg.mod": "0" * 64}},   # the source edited since the build
    {"interpreter": "<this one>", "modules": {}},                          # a build the manifest does not name
    {"interpreter": "<this one>", "modules": {"natpkg.mod": "<the hash>", "natpkg.gone": "0" * 64}},
], ids=["no manifest", "other interpreter", "source edited", "not in the manifest", "group member missing"])
def test_any_other_build_runs_the_source_with_one_warning(
    package: Path, manifest: dict[str, object] | None, capsys: pytest.CaptureFixture[str]
) -> None:
    if manifest is not None:
        text = json.dumps(manifest).replace("<this one>", interpreter()).replace("<the hash>", _source_hash(package))
        manifest = json.loads(text)
    finder = _finder(package, manifest)
    sys.meta_path.insert(0, finder)
    try:
        module = importlib.import_module("natpkg.mod")
    finally:
        sys.meta_path.remove(finder)
    assert module.VALUE == 1 and module.__file__ is not None and module.__file__.endswith("mod.py")
    assert finder.warned
    assert "make native" in capsys.readouterr().err


def _stamped(root: Path) -> dict[str, object]:
    """A manifest as a build writes it: the source's hash and, taken with it, its size and mtime."""
    source = root / "natpkg" / "mod.py"
    return {"interpreter": interpreter(), "modules": {"natpkg.mod": _source_hash(root)},
            "stamps": {"natpkg.mod": source_stamp(source)}}


def _loads_the_build(finder: FreshBuildsOnly, root: Path) -> bool:
    spec = finder.find_spec("natpkg.mod", [str(root / "natpkg")])
    assert spec is not None and spec.origin is not None
    return spec.origin.endswith(SUFFIX)


def test_an_untouched_source_is_not_hashed_again(package: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The start-up's saving: size and mtime as recorded, the source is neither read nor hashed."""
    finder = _finder(package, _stamped(package))
    monkeypatch.setattr("domain.native.source_digest", lambda path: pytest.fail(f"{path} hashed"))
    assert _loads_the_build(finder, package) and not finder.warned


@pytest.mark.parametrize("edit", ["VALUE = 2\n", "VALUE = 22\n"], ids=["same size", "another size"])
def test_a_source_edited_after_its_stamp_runs_interpreted(package: Path, edit: str) -> None:
    manifest = _stamped(package)
    source = package / "natpkg" / "mod.py"
    recorded = source_stamp(source)
    source.write_text(edit)
    # the edit a moment later (a coarse file clock could give a same-size edit the very same mtime within a tick)
    os.utime(source, ns=(recorded[1] + 1_000_000_000, recorded[1] + 1_000_000_000))
    finder = _finder(package, manifest)
    assert not _loads_the_build(finder, package) and finder.warned


def test_a_touched_but_unchanged_source_keeps_its_build(package: Path) -> None:
    """A checkout or a save without a change moves the mtime: the hash is read again, and still matches."""
    manifest = _stamped(package)
    source = package / "natpkg" / "mod.py"
    os.utime(source, ns=(source_stamp(source)[1] + 5_000_000_000,) * 2)
    finder = _finder(package, manifest)
    assert _loads_the_build(finder, package) and not finder.warned


def test_the_interpreters_tag_names_the_extension_suffix_builds_are_made_with() -> None:
    """The guard reads the suffix from the import system, mypyc's build from sysconfig: one and the same."""
    assert interpreter() == f"{sys.implementation.cache_tag}{SUFFIX}"


def test_modules_outside_the_packages_are_left_to_the_path_finder(package: Path) -> None:
    finder = _finder(package, None)
    assert finder.find_spec("json", None) is None


def test_the_suite_runs_the_compiled_modules() -> None:
    """Under ``make test`` (POKERAUDIT_REQUIRE_NATIVE=1) every listed module is its fresh build: a build that
    failed, went stale or was never made shows here rather than as a silently slower suite."""
    native = runpy.run_path(str(ROOT / "deploy" / "native.py"))
    modules: tuple[str, ...] = native["MODULES"]
    if os.environ.get("POKERAUDIT_REQUIRE_NATIVE") != "1" or not modules:
        pytest.skip("run by `make test` (POKERAUDIT_REQUIRE_NATIVE=1) when deploy/native.py lists modules")
    if native["compiler"]() is None:
        pytest.skip("no C compiler here: the modules run interpreted")
    assert native["up_to_date"](), "the compiled modules are missing or stale: run `make native`"
    for name in modules:
        module = importlib.import_module(name)
        assert module.__file__ is not None and module.__file__.endswith(SUFFIX), f"{name} runs interpreted"


def test_a_groups_shared_library_is_found_at_the_root_from_anywhere(tmp_path: Path) -> None:
    """Two or more modules compiled together share one library mypyc writes at the root (``<hash>__mypyc``);
    the root is on the import path only when Python starts there, so the guard finds it there itself."""
    (tmp_path / f"cafe__mypyc{SUFFIX}").write_bytes(b"not an extension")
    finder = FreshBuildsOnly(tmp_path / "manifest.json", root=tmp_path)
    spec = finder.find_spec("cafe__mypyc", None)
    assert spec is not None and spec.origin == str(tmp_path / f"cafe__mypyc{SUFFIX}")
    assert finder.find_spec("cafe", None) is None  # anything else outside the packages is not the guard's


def test_the_compiled_group_imports_outside_the_root() -> None:
    """A console script or a test run starts elsewhere: the compiled modules (and their group's library) load."""
    import subprocess

    names = runpy.run_path(str(ROOT / "deploy" / "native.py"))["MODULES"]
    code = "import importlib, sys; [importlib.import_module(m) for m in sys.argv[1:]]"
    done = subprocess.run([sys.executable, "-c", code, *names], cwd="/", capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_stale_build_is_refused_whatever_path_the_import_system_passes(package: Path) -> None:
    """Under pytest a test folder named like a package can stand as the parent's path (a namespace path that
    holds no module): the guard looks under the root itself, so it still answers, with the source."""
    finder = _finder(package, None)
    spec = finder.find_spec("natpkg.mod", [str(package / "elsewhere")])
    assert spec is not None and spec.origin == str(package / "natpkg" / "mod.py")
    assert finder.warned
