"""The operation board's one stream (api/live.runs_ended_events): each followed run's end once, and with `watch_new`
each run another page reports after the stream opened — the board is drawn again for both, with no reload."""

from __future__ import annotations

from datetime import UTC, datetime

from skymarshal.api.live import runs_ended_events
from skymarshal.workflow.runs.client import RunNotFound


class FakeRuns:
    """The WorkflowClient calls the stream makes: describe, and the newest executions (optionally RUNNING only)."""

    def __init__(self, statuses: dict[str, str]):
        self.statuses = dict(statuses)
        self.started: dict[str, datetime] = {n: datetime(2027, 1, 20, tzinfo=UTC) for n in statuses}
        self.ticks = 0

    def describe(self, name: str) -> dict:
        if name not in self.statuses:
            raise RunNotFound(name)
        return {"status": self.statuses[name]}

    def executions(self, limit: int = 50, status: str | None = None) -> list[dict]:
        self.ticks += 1
        if self.ticks == 2:  # another page reports a run, then the followed one is approved and executes
            self.statuses["fresh"] = "RUNNING"
            self.started["fresh"] = datetime(2027, 1, 20, 1, tzinfo=UTC)
            if "waiting" in self.statuses:
                self.statuses["waiting"] = "SUCCEEDED"
        runs = [{"name": n, "status": s, "startDate": self.started[n]} for n, s in self.statuses.items()]
        runs = [r for r in runs if status is None or r["status"] == status]
        return sorted(runs, key=lambda r: r["startDate"], reverse=True)[:limit]


def test_without_watching_new_runs_it_ends_when_its_runs_have():
    wf = FakeRuns({"a": "SUCCEEDED", "b": "FAILED"})
    assert list(runs_ended_events(wf, ["a", "nope", "a"], poll_s=0)) == [
        ("done", {"run": "a", "status": "SUCCEEDED"}),
        ("done", {"run": "nope", "status": "NOT_FOUND"}),
    ]


def test_a_run_reported_elsewhere_is_announced_once_and_the_stream_lives_on():
    wf = FakeRuns({"old": "SUCCEEDED", "waiting": "RUNNING", "other": "RUNNING"})
    events = runs_ended_events(wf, ["waiting"], poll_s=0, watch_new=True, new_every_s=0, timeout_s=0.5)
    seen = list(events)
    assert seen[0] == ("started", {"run": "fresh"})  # not "old" nor "other": they were there when it opened
    assert ("done", {"run": "waiting", "status": "SUCCEEDED"}) in seen
    assert [e for e in seen if e[0] == "started"] == [("started", {"run": "fresh"})]
    assert seen[-1][0] == "timeout"  # with no run left open it still watches, until its time is up


def test_a_board_with_no_open_run_still_hears_of_a_new_one():
    wf = FakeRuns({"old": "SUCCEEDED"})
    first = next(runs_ended_events(wf, [], poll_s=0, watch_new=True, new_every_s=0))
    assert first == ("started", {"run": "fresh"})
