"""The operations rule modules import only skymarshal.models, their sibling rules, the stdlib and pydantic."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import skymarshal.rules

RULES = Path(skymarshal.rules.__file__).parent
MODULES = ("_reasons", "maintenance_release", "tail_swap", "regulatory", "network", "guest", "cargo", "finance")


def imports(module: str) -> list[tuple[int, str]]:
    tree = ast.parse((RULES / f"{module}.py").read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(0, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or ""))
    return found


@pytest.mark.parametrize("module", MODULES)
def test_rules_import_only_models_siblings_stdlib_and_pydantic(module):
    for level, name in imports(module):
        top = name.split(".")[0]
        if level == 0:
            assert top in sys.stdlib_module_names or top in ("pydantic", "__future__"), f"{module} imports {name}"
        elif level == 2:
            assert top == "models", f"{module} imports ..{name}"
        else:
            assert level == 1 and (RULES / f"{top}.py").exists(), f"{module} imports .{name}"
