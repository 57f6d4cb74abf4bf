"""A report about a flight the data has cancelled (an earlier plan cancelled it) starts nothing: Validate refuses
it on one line naming who cancelled it (InvalidDisruption: the run ends as `input_error`), instead of deciding a
flight with no departure left — whose plan the execution's condition then refuses and the run escalates."""

from __future__ import annotations

import pytest
from test_validate_corrections import (
    NOW,
    Store,
    run,  # noqa: F401  (the fixture: Validate on the seeded airline)
)

from skymarshal.data import schema as s
from skymarshal.data.overlay import Overlay, RowPatch
from skymarshal.workflow.steps.validate import InvalidDisruption, validate
from skymarshal.workflow.tables import WorkflowTables

REPORT = "20 Jan EY124 - an unattended bag in the terminal means screening is repeated. Expected delay about 30 min"


@pytest.fixture
def cancelled(handle, monkeypatch):
    """EY124 of 20 January as an executed plan leaves it: cancelled, by that plan's execution."""
    monkeypatch.setenv("SKYMARSHAL_ONE_RUN_PER_FLIGHT", "0")
    patch = RowPatch(
        table=s.FLIGHTS,
        key={"flight_id": "EY124-20270120"},
        fields={"status": "CANCELLED", "updated_by_execution": "day-E006"},
        fact="test",
    )
    return handle.with_overlay(Overlay(patches=[patch]))


def test_a_report_on_a_flight_an_earlier_plan_cancelled_is_refused_on_one_line(account, cancelled) -> None:
    with pytest.raises(InvalidDisruption) as refused:
        validate(
            {"disruption_id": "gone-1", "prompt": REPORT, "requested_by": "Dev Duty Manager"},
            execution_name="gone-1",
            handle=cancelled,
            tables=WorkflowTables(account.resource(), account.naming),
            store=Store(),
            now=NOW,
        )
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith("EY124 on 2027-01-20 is cancelled in the data by day-E006")


def test_the_same_report_on_the_flight_still_to_operate_runs(run) -> None:  # noqa: F811
    request = run(REPORT)
    assert request["flight_id"] == "EY124-20270120"


def test_a_cancelled_flight_among_several_named_is_refused_before_the_report_is_read(account, cancelled) -> None:
    with pytest.raises(InvalidDisruption) as refused:
        validate(
            {
                "disruption_id": "gone-2",
                "prompt": "EY123 and EY124 on 20 Jan: the baggage belts are stuck, both about 30 min late",
                "requested_by": "Dev Duty Manager",
            },
            execution_name="gone-2",
            handle=cancelled,
            tables=WorkflowTables(account.resource(), account.naming),
            store=Store(),
            now=NOW,
        )
    assert str(refused.value).startswith("EY124 on 2027-01-20 is cancelled in the data by day-E006")
