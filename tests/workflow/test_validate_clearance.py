"""When the cause clears, at Validate on the seeded airline (issue 46 item 1): every disruption a report, a movement
message or an airport window resolves to carries `clears` and a `clears` fact with its source — the report's own
estimate placed against the flight's schedule, else the airline's record or the policy — and a stated estimate
the data contradicts starts nothing."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from test_validate_corrections import NOW, Store

from skymarshal.data import queries as q
from skymarshal.workflow.steps.validate import InvalidDisruption, validate
from skymarshal.workflow.tables import WorkflowTables


@pytest.fixture
def run(account, handle, monkeypatch):
    monkeypatch.setenv("SKYMARSHAL_ONE_RUN_PER_FLIGHT", "0")
    tables = WorkflowTables(account.resource(), account.naming)

    def start(prompt: str) -> dict:
        payload = {"disruption_id": "clears-1", "prompt": prompt, "source": "api"}
        return validate(payload, execution_name="clears-1", handle=handle, tables=tables, store=Store(), now=NOW)[
            "request"
        ]["disruption"]

    return start


@pytest.fixture
def ey11(handle):
    flight = q.find_flight(handle, "EY11", NOW.date())
    assert flight is not None
    return flight


def _at(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def test_a_stated_delay_is_the_clearance_past_the_schedule(run, ey11):
    disruption = run(f"EY11 on {NOW:%d %b %Y} late inbound, ETD +220")
    clears = disruption["clears"]
    assert clears["source"] == "stated" and clears["kind"] == "flight_released"
    assert _at(clears["expected"]) == ey11.scheduled_departure + timedelta(minutes=220)
    fact = next(f for f in disruption["facts"] if f["name"] == "clears")
    assert fact["source"] == "stated" and fact["evidence"] == "ETD +220"


@pytest.mark.parametrize(
    "cause",
    [
        "hydraulic leak, AOG",
        "the captain called in sick",
        "fog at the departure airport",
        "ATC flow control restriction en route",
        "baggage system failure",
        "catering truck broke down",
    ],
)
def test_every_report_gets_a_clearance_with_its_source(run, cause):
    disruption = run(f"EY11 on {NOW:%d %b %Y}: {cause}")
    clears = disruption["clears"]
    assert clears is not None and _at(clears["latest"]) >= _at(clears["expected"])
    assert clears["source"] in ("history", "policy")
    assert [f["name"] for f in disruption["facts"]].count("clears") == 1


def test_an_airport_window_reopens_at_its_end(run):
    disruption = run(f"AUH runway closed {NOW:%d %b %Y} from 14:00 to 16:00Z")
    assert disruption["clears"]["kind"] == "station_reopens"
    assert _at(disruption["clears"]["expected"]) == _at(disruption["window"]["end"])
    assert disruption["clears"]["source"] == "stated"


def test_a_ctot_before_the_schedule_starts_nothing(run, ey11):
    early = ey11.scheduled_departure - timedelta(minutes=40)
    with pytest.raises(InvalidDisruption, match="before EY11's scheduled departure"):
        run(f"EY11 on {NOW:%d %b %Y} ATC flow regulation, CTOT {early:%H%M}Z")
