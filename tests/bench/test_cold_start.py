"""The cold-start bench reads what it says: every Python Lambda entry point, and import timings summed per package."""

from __future__ import annotations

import pytest

from bench.cold_start import FUNCTIONS, by_package, handlers

pytestmark = pytest.mark.unit


def test_every_python_function_is_measured():
    deployed = {d.name for d in FUNCTIONS.iterdir() if d.is_dir() and (d / "handler.py").exists()}
    assert {h.parent.name for h in handlers()} == deployed
    assert {"workflow", "api", "crew_compliance"} <= deployed


def test_own_import_time_is_summed_per_top_level_package():
    timings = {"a": (5, 30), "a.b": (20, 25), "a.b.c": (5, 5), "z": (40, 40)}
    assert by_package(timings) == [(40, "z"), (30, "a")]
