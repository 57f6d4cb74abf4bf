"""The workflow bench's own arithmetic: a round's slack over its slowest agent, and whose CPU a profile line is."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta
from pathlib import Path

import moto
import pytest

from bench.profiling import _package
from bench.workflow import _state_seconds

T0 = datetime(2027, 1, 20, tzinfo=UTC)


def _event(kind: str, name: str, at: float) -> dict:
    key = "stateEnteredEventDetails" if kind.endswith("Entered") else "stateExitedEventDetails"
    return {"type": kind, "timestamp": T0 + timedelta(seconds=at), key: {"name": name}}


class _History:
    """What `client.sfn.get_paginator("get_execution_history")` gives, for one made-up run."""

    def __init__(self, events: list[dict]):
        self.events, self.sfn = events, self

    def execution_arn(self, name: str) -> str:
        return name

    def get_paginator(self, _operation: str):
        return self

    def paginate(self, **_kwargs):
        return [{"events": self.events}]


def _round(title: str, phase: str, start: float, tasks: dict[str, float], end: float) -> list[dict]:
    events = [_event("MapStateEntered", title, start)]
    for agent, seconds in tasks.items():
        events += [
            _event("TaskStateEntered", f"{agent} agent ({phase})", start),
            _event("TaskStateExited", f"{agent} agent ({phase})", start + seconds),
        ]
    return events + [_event("MapStateExited", title, end)]


def test_a_rounds_slack_is_its_time_beyond_its_slowest_agent():
    events = [_event("TaskStateEntered", "Validate disruption", 0), _event("TaskStateExited", "Validate disruption", 1)]
    events += _round("Initial round: seven agents", "initial", 1, {"Crew compliance": 2, "Network": 3}, 5)
    events += _round("Revision round: seven agents", "revision", 5, {"Crew compliance": 1, "Network": 0.5}, 6)
    events += _round("Debate round: seven agents", "debate", 6, {"Network": 1}, 8)
    events += _round("Debate round: seven agents", "debate", 8, {"Network": 2}, 10)
    seconds, rounds, slack = _state_seconds(_History(events), "run")
    assert rounds == 4
    assert slack == pytest.approx((4 - 3) + (1 - 1) + (2 - 1) + (2 - 2))
    assert seconds["Validate disruption"] == 1 and seconds["Debate round: seven agents"] == 4  # first entry, last exit


LIBRARY = Path(__file__).resolve().parents[2] / "layers" / "skymarshal" / "python" / "skymarshal"


@pytest.mark.parametrize(
    ("file", "function", "package"),
    [
        (str(LIBRARY / "rules" / "crew.py"), "evaluate_duty", "skymarshal.rules"),
        (str(LIBRARY / "local" / "moto_sfn.py"), "json_copy", "skymarshal.local"),
        (str(Path(moto.__file__).parent / "dynamodb" / "models" / "table.py"), "query", "moto"),
        (str(Path(moto.__file__).parents[1] / "skymarshal" / "rules" / "x.py"), "f", "skymarshal"),  # an installed copy
        ("~", "<method 'get' of 'dict' objects>", "(C built-ins: json, dict, str, zlib …)"),
        (copy.__file__, "deepcopy", "python standard library"),
    ],
)
def test_each_profile_line_is_charged_to_whoever_ran_it(file, function, package):
    assert _package(file, function) == package


def test_the_speed_reference_times_its_workload_and_says_so():
    from bench.calibration import describe, reference_seconds

    assert 0 < reference_seconds(lambda: sum(range(1000))) < 1
    assert describe(lambda: None).startswith("this machine's speed now: the reference")
