"""A time of day with no date, already past when the report is made about a flight of a later local day, is that
time's next occurrence (the report speaks of what is still ahead of the flight); about a flight of the report's own
day it is a time already past, refused for a flight still on the ground."""

from __future__ import annotations

from datetime import timedelta

import pytest
from clearance_cases import disruption_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from row_builders import flight, utc

from skymarshal.intake.clearance import PAST_GRACE, with_clearance
from skymarshal.models.disruption import ReportContradictsData, Scope

pytestmark = pytest.mark.usefixtures("empty_record")  # no history, no standby
TOMORROWS = flight(dep=utc(2027, 1, 20, 10), origin="MCT", destination="AUH", block=90)  # 14:00 local (UTC+4)
REPORTED = utc(2027, 1, 19, 12)  # 16:00 local the day before


def _scope(f) -> Scope:
    return Scope(kind="flight", flight_numbers=[f.flight_number], flights=[f.flight_id])


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(before=st.integers(1, int(PAST_GRACE.total_seconds() // 60) - 1))
def test_a_past_time_about_tomorrows_flight_is_tomorrows(before: int) -> None:
    stated = REPORTED - timedelta(minutes=before) + timedelta(hours=4)  # local
    text = f"EY{TOMORROWS.flight_number[2:]} aircraft in the hangar on its check, release expected {stated:%H:%M} local"
    d = with_clearance(disruption_of(41, _scope(TOMORROWS)), text, None, REPORTED, TOMORROWS)  # type: ignore[arg-type]
    assert d.clears is not None and d.clears.source == "stated"
    assert d.clears.expected == REPORTED - timedelta(minutes=before) + timedelta(days=1)


def test_a_past_time_about_todays_flight_is_still_refused() -> None:
    todays = flight(dep=utc(2027, 1, 19, 14), origin="MCT", destination="AUH", block=90)  # 18:00 local, same day
    text = "aircraft AOG, release expected 15:30 local"  # 11:30Z, half an hour before the report
    with pytest.raises(ReportContradictsData, match="still on the ground"):
        with_clearance(disruption_of(41, _scope(todays)), text, None, REPORTED, todays)  # type: ignore[arg-type]
