"""No import cycle between the modules of csp_check (style: folders read as the pipeline,
readers → delexicalize → constraints → solvers → score → report / cli).

Every ``import`` counts, also one inside a function (a lazy import is still a dependency); a
module depends on the packages above the module it imports (importing ``a.b.c`` runs ``a.b``),
but not on its own enclosing packages.
"""

from __future__ import annotations

import ast
from pathlib import Path

import csp_check

ROOT = Path(csp_check.__file__).parent


def modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = ["csp_check", *path.relative_to(ROOT).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def import_graph(mods: dict[str, Path]) -> dict[str, dict[str, int]]:
    """Module → {module it imports: line of the first such import}."""

    def known(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, dict[str, int]] = {}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: dict[str, int] = {}
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join(up + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
            else:
                continue
            for target in targets:
                found = known(target)
                if found is None:
                    continue
                parts = found.split(".")
                for i in range(1, len(parts) + 1):  # the module and the packages above it
                    dep = ".".join(parts[:i])
                    if dep in mods and dep != name and not name.startswith(dep + "."):
                        edges.setdefault(dep, node.lineno)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
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


def test_the_finder_sees_a_cycle() -> None:
    assert cycles({"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3}, "d": {"a": 1}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b": 1}, "b": {}}) == []


def test_the_graph_holds_lazy_and_relative_imports() -> None:
    graph = import_graph(modules())
    assert "csp_check.annotate" in graph["csp_check.pipeline"]  # a lazy import inside a function
    assert "csp_check.solvers" in graph["csp_check.run.runner"]
    assert "csp_check.experiment.paper" in graph["csp_check.experiment.tables"]  # from . import paper


def test_no_import_cycle() -> None:
    graph = import_graph(modules())
    found = cycles(graph)
    lines = [
        f"{a} imports {b} (line {graph[a][b]})" for component in found for a in component for b in component if b in graph[a]
    ]
    assert not found, "import cycle(s):\n" + "\n".join(lines)


def test_no_test_module_imports_another() -> None:
    """Shared test code lives in ``tests/support`` (a package) or ``tests/conftest.py`` fixtures."""
    tests = Path(__file__).resolve().parent
    offenders = []
    for path in sorted(tests.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0].startswith("test_") or n == "conftest"]
    assert not offenders, offenders


def test_the_layers_below_the_families() -> None:
    """The constraint ids import nothing of csp_check (the data model validates ids with them);
    the builder's context knows no family; a family module imports neither the builder nor the
    checker that run it."""
    graph = import_graph(modules())
    assert not graph["csp_check.constraint_ids"]
    assert not [m for m in graph["csp_check.build.context"] if m.startswith("csp_check.families")]
    for name, edges in graph.items():
        if name.startswith("csp_check.families."):
            assert not {"csp_check.build.builder", "csp_check.check.evaluate"} & set(edges), name


#: Imports that stay inside a function, each for a reason: optional extras (an ImportError there
#: names the extra to install) and spaCy, which costs about a second to import and is needed only
#: to annotate raw text. langdetect (extra ``drift``) loads its language profiles on first use; torch
#: and transformers (extra ``hf``, several hundred MB) are needed only by ``drift --hf-model``.
#: rich, in the LLM client, only for a progress bar shown on a terminal (its start-up time).
LAZY_ALLOWED = {"rich", "ortools", "minizinc", "openai", "matplotlib", "ray", "rank_bm25", "multiprocessing", "langdetect",
                "torch", "transformers"}
LAZY_ALLOWED_MODULES = {("csp_check.pipeline", "csp_check.annotate")}


def test_no_import_inside_a_function_but_optional_extras() -> None:
    offenders = []
    for name, path in modules().items():
        if path.name == "TEMPLATE.py":
            continue
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.ImportFrom):
                    target = "." * node.level + (node.module or "")
                elif isinstance(node, ast.Import):
                    target = node.names[0].name
                else:
                    continue
                if target.split(".")[0] in LAZY_ALLOWED or (name, target) in LAZY_ALLOWED_MODULES:
                    continue
                offenders.append(f"{path.relative_to(ROOT.parent)}:{node.lineno} imports {target} inside {fn.name}")
    assert not offenders, "\n".join(offenders)


def test_no_private_name_imported_across_modules() -> None:
    offenders = []
    for path in modules().values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("csp_check")):
                parts = (node.module or "").split(".")
                offenders += [f"{path.relative_to(ROOT.parent)}:{node.lineno} {node.module}.{a.name}"
                              for a in node.names if a.name.startswith("_") or any(p.startswith("_") for p in parts)]
    assert not offenders, "\n".join(offenders)


def test_the_package_stays_walkable() -> None:
    """At most 8 top-level modules; no module over 600 lines."""
    top = sorted(p.name for p in ROOT.glob("*.py"))
    assert len(top) <= 8, top
    long = {str(p.relative_to(ROOT.parent)): n for p in ROOT.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600}
    assert not long, long
