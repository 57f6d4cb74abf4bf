"""One architecture test: the layer order and purity contracts in pyproject.toml ([tool.importlinter]) hold
for every module of the library and infra/, every package of the library has its place in the order, and no
module of the library imports itself back through others (no circle, whatever the import's place)."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import grimp
import pytest
from importlinter.api import use_cases

import skymarshal

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "pyproject.toml"


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("skymarshal", include_external_packages=True, cache_dir=None)


def contract(contract_id: str) -> dict:
    contracts = tomllib.loads(CONFIG.read_text())["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c["id"] == contract_id)


def test_every_contract_is_kept(monkeypatch):
    """The report names each broken import chain (shown above the failure)."""
    monkeypatch.chdir(ROOT)
    assert use_cases.lint_imports(config_filename=str(CONFIG), cache_dir=None, no_logo=True)


def test_every_package_of_the_library_has_a_layer():
    layers = {name.strip() for layer in contract("layers")["layers"] for name in layer.split("|")}
    packages = {
        p.name for p in Path(skymarshal.__file__).parent.iterdir() if p.is_dir() and (p / "__init__.py").exists()
    }
    assert packages == layers, f"place {sorted(packages - layers)} in the layers; drop {sorted(layers - packages)}"


@pytest.mark.parametrize("package", ["skymarshal.rules", "skymarshal.models"])
def test_rules_and_models_import_only_the_standard_library_pydantic_and_the_layers_below(graph, package):
    allowed_inside = {
        "skymarshal.rules": ("skymarshal.rules", "skymarshal.models"),
        "skymarshal.models": ("skymarshal.models",),
    }[package]
    allowed_outside = {"pydantic", "pydantic_core", "airportsdata"}  # airportsdata: coordinates and time zones
    found = []
    for module in sorted(graph.find_descendants(package) | {package}):
        for imported in graph.find_modules_directly_imported_by(module):
            top = imported.split(".")[0]
            inside = imported.startswith(allowed_inside)
            if not (inside or top in sys.stdlib_module_names or top in allowed_outside):
                found.append(f"{module} imports {imported}")
    assert not found, found


def circles(imports: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative): each a circle of imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(imports):
        if root in index:
            continue
        work = [(root, iter(sorted(imports[root])))]
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
                    work.append((child, iter(sorted(imports[child]))))
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


def test_circles_finds_a_circle_and_only_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []


def test_no_module_of_the_library_imports_itself_back(graph):
    """Every import counts — at module level, inside a function, under TYPE_CHECKING (grimp records them all) —
    with no exemption: a type two modules share lives below both. The message names each circle's imports."""
    modules = {m for m in graph.modules if m.startswith("skymarshal")}
    imports = {m: {i for i in graph.find_modules_directly_imported_by(m) if i in modules and i != m} for m in modules}
    found = circles(imports)
    lines = [
        " ".join(component)
        + ": "
        + "; ".join(f"{a} -> {b}" for a in component for b in sorted(imports[a]) if b in component)
        for component in found
    ]
    assert not found, "\n".join(lines)


# A room (a package's own folder) holds at most this many modules; above it, its __init__ says why (issue 51).
ROOM_LIMIT = 15
OVERSIZED_REASON = "Room size:"


def rooms_over_the_limit(library: Path, limit: int = ROOM_LIMIT) -> list[str]:
    """Every package folder with more than `limit` modules whose __init__ docstring gives no reason for it."""
    over = []
    for init in sorted(library.rglob("__init__.py")):
        room = init.parent
        modules = [p for p in room.glob("*.py") if p.name != "__init__.py"]
        if len(modules) > limit and OVERSIZED_REASON not in init.read_text():
            over.append(f"{room.relative_to(library)}: {len(modules)} modules")
    return over


def test_rooms_over_the_limit_finds_a_crowded_room(tmp_path):
    (tmp_path / "crowded").mkdir()
    (tmp_path / "crowded" / "__init__.py").write_text('"""A room."""\n')
    for i in range(3):
        (tmp_path / "crowded" / f"m{i}.py").write_text("")
    assert rooms_over_the_limit(tmp_path, limit=2) == ["crowded: 3 modules"]
    (tmp_path / "crowded" / "__init__.py").write_text('"""A room. Room size: one concern, kept whole."""\n')
    assert rooms_over_the_limit(tmp_path, limit=2) == []


def test_workflow_and_arbitration_are_split_into_rooms():
    """workflow/ and arbitration/ held 44 and 36 modules in one folder; each room now says what it owns."""
    library = Path(skymarshal.__file__).parent
    for package in ("workflow", "arbitration"):
        assert rooms_over_the_limit(library / package) == []
        for room in (library / package).iterdir():
            init = room / "__init__.py"
            if room.is_dir() and init.exists():
                assert "must not import" in init.read_text().lower(), f"{package}/{room.name}/__init__.py"


# workflow/'s logic reaches AWS through its ports (workflow/ports.py); boto3 and botocore are imported by the
# adapters room and the tables only (issue 51 item 2).
AWS_SDK = ("boto3", "botocore")
WORKFLOW_ADAPTERS = ("skymarshal.workflow.aws", "skymarshal.workflow.tables")


def sdk_importers(imports: dict[str, set[str]], package: str, allowed: tuple[str, ...]) -> list[str]:
    """'module imports sdk.x' for each module of `package` outside `allowed` importing the AWS SDK directly."""
    return sorted(
        f"{module} imports {imported}"
        for module, imported_by_it in imports.items()
        if (module == package or module.startswith(package + "."))
        and not any(module == a or module.startswith(a + ".") for a in allowed)
        for imported in imported_by_it
        if imported.split(".")[0] in AWS_SDK
    )


def test_sdk_importers_finds_a_step_importing_botocore():
    imports = {
        "p.steps.a": {"botocore.exceptions", "p.ports"},
        "p.aws.s3": {"boto3"},
        "p.tables": {"boto3"},
        "q.other": {"boto3"},
    }
    assert sdk_importers(imports, "p", ("p.aws", "p.tables")) == ["p.steps.a imports botocore.exceptions"]


def test_no_module_of_workflows_logic_imports_boto3_or_botocore(graph):
    """Every import counts, inside functions too (grimp records them all): a step takes a port, the adapter
    behind it is the only module that names the SDK."""
    modules = graph.find_descendants("skymarshal.workflow") | {"skymarshal.workflow"}
    imports = {m: set(graph.find_modules_directly_imported_by(m)) for m in modules}
    assert not sdk_importers(imports, "skymarshal.workflow", WORKFLOW_ADAPTERS)
