"""`make bench-recovery` says how long its longest run took beside the limit, how many ran over it, and the lower bound
and gap it printed per instance (issue 47)."""

from __future__ import annotations

from argparse import Namespace

import pytest

from bench.recovery import _summary

pytestmark = pytest.mark.unit


def _row(name: str, seconds: float) -> dict:
    return {
        "instance": name,
        "winner": None,
        "runs": {"strict": {"cost": 1.0, "seconds": seconds, "verdict": "feasible"}},
    }


@pytest.mark.parametrize(("seconds", "over"), [((59.6, 59.9), 0), ((59.6, 60.2), 1), ((60.5, 61.0), 2)])
def test_the_summary_counts_the_runs_over_the_limit(seconds, over):
    args = Namespace(modes=["strict"], official=False, cost_checker=None, time_limit=60.0, bound=False)
    (line,) = [x for x in _summary(args, [_row(f"A0{i}", s) for i, s in enumerate(seconds)]) if x.startswith("time:")]
    assert f"longest run {max(seconds):.2f} s of the 60 s limit; {over} over it" in line


def test_the_summary_gives_the_bounds_found_and_the_range_of_gaps():
    rows = [_row("A01", 59.0), _row("A02", 59.0), _row("B01", 59.0)]
    for row, bound, seconds in zip(rows, (-9.0, 0.5, None), (1.5, 2.5, 30.0), strict=True):
        run = row["runs"]["strict"]
        run.update(bound=bound, bound_seconds=seconds, bound_gap=None if bound is None else (1.0 - bound) / 1.0)
    args = Namespace(
        modes=["strict"], official=False, cost_checker=None, time_limit=60.0, bound=True, bound_seconds=30.0
    )
    (line,) = [x for x in _summary(args, rows) if x.startswith("lower bound:")]
    assert line == "lower bound: 2/3 runs, longest 30.0 s of the 30 s limit; gap (ours − bound)/|ours| 50.0 to 1000.0 %"
