"""One architecture test: the layer order and purity contracts in pyproject.toml ([tool.importlinter]) hold
for every module of the library and infra/, and every package of the library has its place in the order."""

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
