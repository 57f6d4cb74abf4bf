"""A mid-duty rest executed (workflow/execution/crew.py `_rested_rows`): the duty is split where the crew stood down —
the sectors flown end their duty there, the flight and those after it are a new duty from the new report."""

from __future__ import annotations

import pytest

from skymarshal.workflow.execution.crew import _rested_rows

pytestmark = pytest.mark.unit


def _row(flight: str, dep: str, arr: str) -> dict:
    return {
        "crew_id": "C1",
        "duty_id": "D-C1-1",
        "kind": "FLIGHT",
        "duty_start": "2027-01-18T20:50:00Z",
        "duty_end": "2027-01-19T08:00:00Z",
        "fdp_end": "2027-01-19T07:30:00Z",
        "duty_key": f"2027-01-18T20:50:00Z#{dep}#{flight}",
        "flight_id": flight,
        "sector_departure": dep,
        "sector_arrival": arr,
        "sectors": 2,
        "start_station": "AUH",
        "end_station": "AUH",
    }


OUT = _row("EY339", "2027-01-18T21:50:00Z", "2027-01-19T01:55:00Z")
BACK = _row("EY340", "2027-01-19T13:40:00Z", "2027-01-19T17:30:00Z")


def test_the_duty_is_split_where_the_crew_stood_down():
    flown, rested = _rested_rows([OUT, BACK], [OUT], "2027-01-19T12:40:00Z", "2027-01-19T02:25:00Z", "KTM")
    assert flown["duty_id"] == OUT["duty_id"] and flown["duty_key"] == OUT["duty_key"]
    assert (flown["duty_end"], flown["fdp_end"], flown["sectors"], flown["end_station"]) == (
        "2027-01-19T02:25:00Z",
        "2027-01-19T01:55:00Z",
        1,
        "KTM",
    )
    assert rested["duty_id"] == "D-C1-1-rested" and rested["duty_start"] == "2027-01-19T12:40:00Z"
    assert rested["duty_key"] == "2027-01-19T12:40:00Z#2027-01-19T13:40:00Z#EY340"
    assert (rested["sectors"], rested["start_station"], rested["end_station"]) == (1, "KTM", "AUH")


def test_a_first_sector_rest_only_moves_the_report():
    (rested,) = _rested_rows([BACK], [], "2027-01-19T12:40:00Z", "2027-01-19T02:25:00Z", "KTM")
    assert rested == {**BACK, "duty_start": "2027-01-19T12:40:00Z", "duty_key": rested["duty_key"]}
    assert rested["duty_key"].startswith("2027-01-19T12:40:00Z#")
