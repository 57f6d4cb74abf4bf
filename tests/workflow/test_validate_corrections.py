"""Validate with a duty manager's corrections, on the seeded airline: the corrected facts go through the same checks
against the data as the report's (a position nobody holds is refused, a flight the schedule lacks is refused), the
overlay is built again from them, and the request's audit record says who corrected what from what."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from skymarshal.data import schema as s
from skymarshal.workflow.steps.validate import InvalidDisruption, validate
from skymarshal.workflow.tables import WorkflowTables

DEMO = "Flight EY123 on January 20th had a mechanical failure"
NOW = datetime(2027, 1, 20, 6, tzinfo=UTC)


class Store:
    bucket = "test"

    def __init__(self) -> None:
        self.saved: dict[str, Any] = {}

    def put(self, key: str, payload: Any) -> int:
        self.saved[key] = payload
        return 0


class Trail:
    def __init__(self) -> None:
        self.records: list[tuple[str, dict, str]] = []

    def append(self, disruption_id, kind, ref, body, *, actor, execution_name):
        self.records.append((kind, body, actor))

    def artifact(self, bucket, key):
        return f"s3://{bucket}/{key}"


@pytest.fixture
def run(account, handle, monkeypatch):
    monkeypatch.setenv("SKYMARSHAL_ONE_RUN_PER_FLIGHT", "0")
    tables = WorkflowTables(account.resource(), account.naming)

    def start(prompt: str, facts: dict | None = None, trail: Trail | None = None, by: str = "Dev Duty Manager"):
        payload = {"disruption_id": "corr-1", "prompt": prompt, "requested_by": by, "facts": facts or {}}
        state = validate(
            payload, execution_name="corr-1", handle=handle, tables=tables, store=Store(), now=NOW, trail=trail
        )
        return state["request"]

    return start


def test_a_corrected_cause_rebuilds_the_what_if_and_the_audit_says_who(run):
    read = run(DEMO)
    assert read["disruption"]["iata_delay_code"] == 41
    trail = Trail()
    request = run(DEMO, {"code": "64", "crew_position": "captain"}, trail)
    disruption = request["disruption"]
    assert (disruption["iata_delay_code"], disruption["scope"]["kind"]) == (64, "crew_member")
    overlay = request["overlay"]
    # the captain rostered on EY123 is off the flight; the misread defect grounds nothing any more
    assert [p["fields"] for p in overlay["patches"] if p["table"] == s.CREW_MEMBERS] == [{"status": "SICK"}]
    assert not [a for a in overlay["additions"] if a["table"] == s.MAINTENANCE_WORK_ORDERS]
    [(kind, body, actor)] = trail.records
    assert kind == "request" and actor == "Dev Duty Manager"
    assert [(c["key"], c["value"], c["read"], c["by"]) for c in body["corrections"]] == [
        ("code", "64", "41", "Dev Duty Manager"),
        ("crew_position", "CAPTAIN", None, "Dev Duty Manager"),
    ]


def test_a_stated_duration_corrected_is_the_hold(run):
    request = run("EY123 on January 20th held for ATC flow, 30 min", {"duration": "2h"})
    assert request["disruption"]["severity_minutes"] == 120
    assert [c["read"] for c in request["disruption"]["corrections"]] == ["30"]


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        ({"code": "67", "crew_position": "SECOND_OFFICER"}, "no second officer (SO) is rostered on EY123"),
        ({"flights": "EY9999"}, "EY9999 on 2027-01-20 is not in the schedule"),
        ({"code": "5"}, "code=5: not an IATA AHM 730 delay code"),
        ({"family": "weather"}, "family=weather: the code read is 41"),
    ],
)
def test_a_correction_the_data_refuses_is_one_line_and_starts_nothing(run, facts, message):
    with pytest.raises(InvalidDisruption, match=message.replace("(", r"\(").replace(")", r"\)")) as refused:
        run(DEMO, facts)
    assert "\n" not in str(refused.value)


def test_a_report_naming_no_cause_runs_once_the_code_is_given(run):
    with pytest.raises(InvalidDisruption, match="not what happened"):
        run("EY11 on January 20th, please advise")
    request = run("EY11 on January 20th, please advise", {"code": "36", "duration": "90"})
    assert (request["disruption"]["iata_delay_code"], request["disruption"]["severity_minutes"]) == (36, 90)
    assert [c["key"] for c in request["disruption"]["corrections"]] == ["code", "duration"]


def test_corrected_flights_are_the_scope(run):
    request = run(DEMO, {"flights": "EY123,EY124"})
    assert request["disruption"]["scope"]["flight_numbers"] == ["EY123", "EY124"]
    assert [(c["key"], c["read"]) for c in request["disruption"]["corrections"]] == [("flights", "EY123")]
