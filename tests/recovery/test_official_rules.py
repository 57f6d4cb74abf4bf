"""Our checker holds the official solution checker's rules (issue 34): each case breaks a clean tiny plan the
way the official checker reports it (tests/recovery/official_cases.py; the binary itself judges the same
files in test_official_checker.py)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skymarshal.recovery.checker import check
from skymarshal.recovery.flight_checks import CapacityTable, movements_per_hour
from skymarshal.recovery.solver import solve

from .official_cases import CASES, GROUND_LINKS, IDLE_AWAY_FROM_MAINTENANCE, OfficialCase
from .tiny import delay, planned_solution, tiny_instance


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_break_is_reported_as_the_official_checker_does(tmp_path, case: OfficialCase):
    instance = tiny_instance(tmp_path, **case.overrides)
    clean = planned_solution(instance)
    solution = case.change(clean) if case.change else clean
    kinds = {v.kind for v in check(instance, solution)}
    assert kinds == ({case.kind, *case.also} if case.kind else set()), [v.message for v in check(instance, solution)]


def test_ground_link_takes_no_slot(tmp_path):
    instance = tiny_instance(tmp_path, **GROUND_LINKS)
    counts = movements_per_hour(instance, planned_solution(instance))
    assert counts[("AAA", "D", 9 * 60)] == 1  # 101 only: the shuttle's 301 leaves in the same hour
    assert CapacityTable(instance).allowed("AAA", "D", 9 * 60) == 1


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(minutes=st.integers(min_value=-120, max_value=240).filter(lambda m: m != 0))
def test_a_ground_link_flight_moved_any_amount_is_reported(tmp_path, minutes):
    instance = tiny_instance(tmp_path, **GROUND_LINKS)
    moved = delay(delay(planned_solution(instance), 301, minutes), 302, minutes)
    assert "fixed_flight_changed" in {v.kind for v in check(instance, moved)}


def test_solver_brings_an_idle_tail_to_its_maintenance_airport(tmp_path):
    """B05: tails whose own flights could not be kept stayed where they started, away from their slot."""
    instance = tiny_instance(tmp_path, **IDLE_AWAY_FROM_MAINTENANCE)
    solution, result = solve(instance, 0.5, seed=0)
    assert result.feasible, result.violations
    last = max((f for f in solution.flights if f.aircraft == "P3"), key=lambda f: f.arrival)
    assert last.destination == "BBB" and last.arrival <= 20 * 60
