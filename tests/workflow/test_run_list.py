"""The runs by what happened (views.run_list), on a stand-in client: a run waiting for a decision comes first and
says so; a rejected or escalated run says rejected or escalated, never SUCCEEDED; a report refused at Validate is
'refused as input' with its reason, never FAILED; each run names its flight(s) or airport and its report's line."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from skymarshal.models.disruption import Disruption, Scope, Window
from skymarshal.views.run_list import OUTCOME_WORDS, run_lines, subject_of

T0 = datetime(2027, 1, 20, 8, tzinfo=UTC)
FOG = Disruption(
    iata_delay_code=89,
    family="atfm_airport_government",
    cause="fog",
    scope=Scope(kind="airport", airport="AUH"),
    window=Window(start=T0, end=T0 + timedelta(hours=3)),
)


class Store:
    def __init__(self, items: dict):
        self.items = items

    def get(self, key: str):
        return self.items.get(key)


class Runs:
    """describe / pending / executions / store, as WorkflowClient answers them."""

    def __init__(self, runs: list[dict], pending: set[str], stored: dict | None = None):
        self.runs, self.waiting, self.store = runs, pending, Store(stored or {})

    def executions(self, limit=50, status=None):
        return [r for r in self.runs if status in (None, r["status"])][:limit]

    def describe(self, name):
        return dict(next(r for r in self.runs if r["name"] == name))

    def pending(self, name):
        return {"status": "pending"} if name in self.waiting else None


def run(name: str, minutes: int, status: str, prompt: str, **more) -> dict:
    described = {"name": name, "status": status, "startDate": T0 + timedelta(minutes=minutes)}
    described["input"] = json.dumps({"disruption_id": name, "prompt": prompt})
    return described | more


def finished(outcome: str, message: str, request: dict) -> str:
    return json.dumps({"request": request, "outcome": {"status": outcome, "message": message}})


RUNS = [
    run(
        "executed-1",
        0,
        "SUCCEEDED",
        "Flight EY123 on January 20th had a mechanical failure",
        output=finished("executed", "executed tail_swap:A6-BLT: 3 action(s)", {"flight_number": "EY123"}),
    ),
    run(
        "rejected-1",
        1,
        "SUCCEEDED",
        "EY101 crew out of hours",
        output=finished("rejected", "rejected by Dev Duty Manager; nothing changed", {"flight_number": "EY101"}),
    ),
    run(
        "escalated-1",
        2,
        "SUCCEEDED",
        "Abu Dhabi closed by fog\nsecond line",
        output=finished(
            "escalated",
            "escalated (NETWORK_DISRUPTION): no legal plan",
            {"disruption": FOG.model_dump(mode="json")},
        ),
    ),
    run(
        "refused-1",
        3,
        "FAILED",
        "the coffee machine is broken",
        error="InvalidDisruption",
        cause=json.dumps(
            {
                "errorType": "InvalidDisruption",
                "errorMessage": "the report names no flight, tail, crew member or airport",
            }
        ),
    ),
    run("crashed-1", 4, "FAILED", "EY11 storm at LHR", error="States.TaskFailed", cause="boom"),
    run("waiting-1", 5, "RUNNING", "EY19 on 22 January: sick captain"),
    run("running-1", 6, "RUNNING", "EY20 on 22 January: bird strike"),
]


def test_runs_are_listed_by_what_happened_waiting_first():
    stored = {"runs/waiting-1/waiting-1/request.json": {"flight_number": "EY19", "prompt": "EY19 on 22 January"}}
    lines = run_lines(Runs(RUNS, {"waiting-1"}, stored))
    assert [line.disruption_id for line in lines][:2] == ["waiting-1", "running-1"]
    by_id = {line.disruption_id: line for line in lines}
    assert (by_id["waiting-1"].outcome_text, by_id["waiting-1"].subject) == ("awaiting your decision", "EY19")
    assert by_id["running-1"].outcome == "running" and by_id["running-1"].subject is None
    assert (by_id["executed-1"].outcome, by_id["executed-1"].subject) == ("executed", "EY123")
    assert by_id["rejected-1"].outcome == "rejected" and by_id["rejected-1"].status == "SUCCEEDED"
    assert (by_id["escalated-1"].outcome, by_id["escalated-1"].subject) == ("escalated", "AUH")
    assert by_id["escalated-1"].report == "Abu Dhabi closed by fog"
    assert by_id["refused-1"].outcome_text == "refused as input"
    assert by_id["refused-1"].detail == "the report names no flight, tail, crew member or airport"
    assert (by_id["crashed-1"].outcome, by_id["crashed-1"].detail) == ("failed", "boom")


@given(st.permutations(RUNS), st.sets(st.sampled_from(["waiting-1", "running-1"])))
def test_whatever_the_order_waiting_runs_lead_and_the_rest_are_newest_first(runs, waiting):
    lines = run_lines(Runs(list(runs), waiting))
    waits = [line.outcome == "awaiting_decision" for line in lines]
    assert waits == sorted(waits, reverse=True)
    rest = [line.started_at for line in lines if line.outcome != "awaiting_decision"]
    assert rest == sorted(rest, reverse=True)
    assert all(line.outcome_text == OUTCOME_WORDS[line.outcome] for line in lines)


def test_a_crew_member_run_names_the_flight_and_position():
    sick = Disruption(
        iata_delay_code=64,
        family="flight_operations_crew",
        cause="captain sick",
        scope=Scope(kind="crew_member", flight_numbers=["EY19"], crew_position="CAPTAIN"),
    )
    assert subject_of(sick) == "EY19 captain"
