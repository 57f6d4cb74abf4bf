"""The official ROADEF 2009 solution checker as the oracle (issue 34), under Wine: our plans on small
instances, and every official_cases break of the tiny plan, judged by the binary itself.

Skipped, with the reason, where Wine or the binary is absent (`make roadef-checker` installs both outside the
repository; ROADEF_CHECKER_DIR says where they are)."""

from __future__ import annotations

import pytest

from skymarshal.recovery.checker import check
from skymarshal.recovery.official import official_check, unavailable_reason
from skymarshal.recovery.parser import read_instance
from skymarshal.recovery.solver import solve
from skymarshal.recovery.writer import write_solution

from .official_cases import CASES, OfficialCase
from .roadef import ROADEF, needs_roadef
from .tiny import planned_solution, write_tiny

pytestmark = [
    pytest.mark.system,
    pytest.mark.skipif(unavailable_reason() is not None, reason=f"official checker: {unavailable_reason()}"),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_official_checker_reports_each_break_as_ours_does(tmp_path, case: OfficialCase):
    folder = write_tiny(tmp_path / "instance", **case.overrides)
    instance = read_instance(folder)
    clean = planned_solution(instance)
    solution = case.change(clean) if case.change else clean
    write_solution(instance, solution, tmp_path / "solution")
    verdict = official_check(folder, tmp_path / "solution")
    ours = check(instance, solution)
    if case.kind is None:
        assert verdict.feasible and not ours, (verdict.summary(), ours)
    else:
        assert not verdict.feasible and ours, (verdict.summary(), ours)
        if case.official_file:
            assert verdict.findings[case.official_file], verdict.summary()


@needs_roadef
@pytest.mark.parametrize("name", ["A01", "A02"])
def test_our_plan_is_feasible_by_the_official_checker(tmp_path, name):
    instance = read_instance(ROADEF / name)
    solution, result = solve(instance, time_limit=10, seed=0)
    write_solution(instance, solution, tmp_path)
    verdict = official_check(ROADEF / name, tmp_path)
    assert verdict.feasible, verdict.summary(examples=5)
    assert result.feasible  # and ours agrees
