"""`make bench-recovery` says how long its longest run took beside the limit, and how many ran over it (issue 47)."""

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
    args = Namespace(modes=["strict"], official=False, cost_checker=None, time_limit=60.0)
    (line,) = [x for x in _summary(args, [_row(f"A0{i}", s) for i, s in enumerate(seconds)]) if x.startswith("time:")]
    assert f"longest run {max(seconds):.2f} s of the 60 s limit; {over} over it" in line
