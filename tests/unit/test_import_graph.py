"""The production modules import in one direction and only each other's public names (issue 12).

Read with the standard library's ``ast``, not a dependency: the four packages' own ``import`` statements are
all the graph needs (TYPE_CHECKING and function-level imports count: a cycle hidden in them is still one).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("domain", "ingest", "projections", "api")


def modules(root: Path = ROOT) -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            name = ".".join(path.relative_to(root).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> list[tuple[str, str | None]]:
    """(the production module imported, the name taken from it or None) for each import in ``path``."""
    is_package = path.name == "__init__.py"
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = name.split(".")
                kept = parts[: len(parts) - node.level + (1 if is_package else 0)]
                base = ".".join([*kept, base] if base else kept)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.append((full, None) if full in known else (base, alias.name))
    resolved = []
    for target, taken in found:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name:
            resolved.append((target, taken))
    return resolved


def graph(root: Path = ROOT) -> tuple[dict[str, set[str]], list[str]]:
    known = modules(root)
    edges: dict[str, set[str]] = defaultdict(set)
    private = []
    for name, path in known.items():
        for target, taken in imports(name, path, known):
            edges[name].add(target)
            if taken and taken.startswith("_") and not taken.startswith("__"):
                private.append(f"{name} imports {target}.{taken}")
    return edges, private


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, following = work[-1]
            step = next(following, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(edges.get(step, ())))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_production_module_is_in_an_import_cycle() -> None:
    edges, _ = graph()
    assert cycles(edges) == []


def test_no_production_module_imports_another_modules_private_names() -> None:
    _, private = graph()
    assert private == []


def test_the_check_finds_a_cycle_and_a_private_import(tmp_path: Path) -> None:
    """The check itself can fail: a package whose modules import each other, one of them a private name."""
    package = tmp_path / "domain"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from domain.b import _helper\n")
    (package / "b.py").write_text("def _helper() -> None: ...\n\n\ndef f() -> None:\n    from domain import a\n")
    (package / "c.py").write_text("from . import b\n")
    edges, private = graph(tmp_path)
    assert cycles(edges) == [["domain.a", "domain.b"]]
    assert private == ["domain.a imports domain.b._helper"]
