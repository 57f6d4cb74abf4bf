"""The decision bench's case files are well formed (unit tier: files only, no airline, no AWS).

`make bench-decisions` reads every `bench/scenarios/*.yaml`; a malformed one would only show up there,
minutes into a run. Here each file must load into the pydantic model, and the bench must still be what the
issue asks for: at least 30 cases across the AHM 730 families, with its bad-input cases.
"""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest
from pydantic import ValidationError

from bench.decision_cases import SCENARIOS, Case, load_case, load_cases
from bench.decisions import Result, judge
from skymarshal.data.transfer import read_folder
from skymarshal.models.disruption import DelayFamily

FILES = sorted(SCENARIOS.glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_case_file_loads(path: Path) -> None:
    case = load_case(path)
    if case.whatif_folder:
        _, errors = read_folder(case.whatif_folder)  # the rows `skymarshal data import` would accept
        assert not errors, errors


def test_the_bench_covers_the_families() -> None:
    cases = load_cases()
    assert len(cases) >= 30
    families = {family for case in cases for family in case.expect.family}
    assert families >= set(get_args(DelayFamily))  # every AHM 730 family has a case
    assert sum(case.expect.outcome == "input_error" for case in cases) >= 3
    assert {"hub", "outstation"} <= {case.station for case in cases}


def test_a_malformed_case_is_refused() -> None:
    base = load_case(SCENARIOS / "demo-ey123-mechanical.yaml").model_dump()
    with pytest.raises(ValidationError, match="unknown plan kind"):
        Case.model_validate({**base, "expect": {**base["expect"], "rank1": ["tail_swop"]}})
    with pytest.raises(ValidationError, match="both acceptable and never"):
        Case.model_validate({**base, "expect": {**base["expect"], "never_rank1": ["tail_swap"]}})
    with pytest.raises(ValidationError, match="flight id"):
        Case.model_validate({**base, "expect": {**base["expect"], "flights": ["EY123"]}})
    with pytest.raises(ValidationError, match="extra"):
        Case.model_validate({**base, "expected": {}})


@pytest.mark.parametrize("registration", ["A6-BLT", "A6-BLJ"])
def test_a_rank_1_on_a_tail_the_what_if_grounded_fails_the_case(registration: str) -> None:
    case = load_case(SCENARIOS / "tech-hub-spares-unairworthy.yaml")
    result = Result(name=case.name, group=case.group, report=case.report, outcome="decision")
    result.understood = {"family": "technical", "scope": "flight", "flights": ["EY19-20270121"]}
    plan = {"scenario_id": f"tail_swap:{registration}", "kind": "tail_swap", "kinds": ["tail_swap"], "title": "Swap"}
    judge(case, result, {"ranked": [{"rank": 1, "scenario": {**plan, "registration": registration}}]})
    grounded = registration in case.expect.unfit_tails
    assert any("the what-if grounded" in f for f in result.failures) == grounded, result.failures
