"""A re-decision's flight is free of the estimate its own earlier plan gave it (issue 46): read through the overlay,
the estimate the followed run wrote is released to the report's moment — never before the schedule, nor before its
crew can be ready (the latest report on its roster plus the sign-on lead); an estimate another run or the operation
wrote stands, and a flight that has left is not touched."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from row_builders import flight, flight_duty, utc

from skymarshal.data import schema as s
from skymarshal.data.overlay import Overlay
from skymarshal.intake.own_estimate import released_estimate, released_later
from skymarshal.models.fleet import AIRCRAFT_TYPES
from skymarshal.rules.standby import REPORT_BEFORE_DEPARTURE

pytestmark = pytest.mark.unit

STD = utc(2027, 1, 20, 17, 25)
RUN = "day-ordinary-2027-01-20-s11-E003"


def _delayed(minutes: int, by: str | None = RUN, status: str = "DELAYED"):
    return flight(
        "EY424", destination="MNL", dep=STD, estimated_departure=STD + timedelta(minutes=minutes),
        estimated_arrival=STD + timedelta(minutes=360 + minutes), delay_minutes=minutes, status=status,
        updated_by_execution=by,
    )  # fmt: skip


def _crew(held, report):
    """One member's row on the flight, reporting at `report` (a reserve called for it, or a report moved)."""
    return [flight_duty("C1", held, report=held.scheduled_departure - report)]


def test_the_followed_runs_estimate_is_released_to_the_reports_moment():
    held = _delayed(185)
    now = STD + timedelta(minutes=120)  # the fog lifted two hours after the schedule
    ready_crew = _crew(held, STD + timedelta(minutes=20))  # a reserve reported 100 min before the clearance
    released, overlay = released_estimate(held, Overlay(), RUN, now, ready_crew)
    assert released.delay_minutes == 120 and released.departure == now
    assert released.arrival == held.scheduled_arrival + timedelta(minutes=120)
    (patch,) = overlay.patches
    assert patch.table == s.FLIGHTS and patch.key == {"flight_id": held.flight_id} and patch.fact == "estimate_released"
    assert patch.fields["delay_minutes"] == 120


def test_never_before_the_crew_can_be_ready():
    """A crew told (by the earlier plan) to report at 19:15Z for 20:30Z cannot leave at 19:25Z when the fog lifts."""
    held = _delayed(185)
    moved = STD + timedelta(minutes=110)
    released, _ = released_estimate(held, Overlay(), RUN, STD + timedelta(minutes=120), _crew(held, moved))
    assert released is held  # ready only at its planned departure: nothing to release
    early = STD + timedelta(minutes=60)  # reported an hour after the schedule: ready 15 min after the clearance
    released, _ = released_estimate(held, Overlay(), RUN, STD + timedelta(minutes=120), _crew(held, early))
    assert released.departure == early + REPORT_BEFORE_DEPARTURE


@pytest.mark.parametrize(
    ("by", "follows", "status"),
    [("another-run", RUN, "DELAYED"), (None, RUN, "DELAYED"), (RUN, None, "DELAYED"), (RUN, RUN, "DEPARTED")],
)
def test_an_estimate_the_run_did_not_write_or_a_flight_gone_stands(by, follows, status):
    held = _delayed(185, by=by, status=status)
    released, overlay = released_estimate(held, Overlay(), follows, STD + timedelta(minutes=60), [])
    assert released is held and not overlay


@given(delay=st.integers(0, 900), elapsed=st.integers(-300, 1200))
def test_never_before_the_schedule_or_the_moment_and_never_later_than_it_was(delay, elapsed):
    held = _delayed(delay)
    now = STD + timedelta(minutes=elapsed)
    released, _ = released_estimate(held, Overlay(), RUN, now, [])
    assert released.delay_minutes <= delay  # released, never held longer
    assert released.departure >= min(held.departure, max(STD, now))  # never before the schedule or the moment


def _return(minutes: int, by: str | None = RUN):
    """EY425, the tail's return from Manila the next morning, re-timed `minutes` behind EY424 by the run `by`."""
    back = utc(2027, 1, 21, 3, 35)
    return flight(
        "EY425", origin="MNL", destination="AUH", dep=back, block=480, estimated_departure=back + timedelta(minutes=minutes),
        estimated_arrival=back + timedelta(minutes=480 + minutes), delay_minutes=minutes, status="DELAYED",
        updated_by_execution=by,
    )  # fmt: skip


def test_the_later_flights_the_followed_run_retimed_are_released_to_their_schedule():
    """Ordinary seed 11's day: the wait to 20:30Z re-timed EY425 150 min; the fog lifted at 19:25Z and the re-decision
    left EY425 there (its knock-on only ever delays), 80 passengers an hour late for nothing."""
    back, other = _return(150), _return(40, by="another-run").model_copy(update={"flight_id": "EY427-20270121"})
    read: list[str] = []
    now = STD + timedelta(minutes=120)
    flown, _ = released_estimate(_delayed(185), Overlay(), RUN, now, [])
    overlay = released_later(flown, [back, other], Overlay(), RUN, now, lambda fid: read.append(fid) or [])
    (patch,) = overlay.patches
    assert patch.key == {"flight_id": back.flight_id} and patch.fact == "estimate_released"
    assert patch.fields["delay_minutes"] == 0 and read == [back.flight_id]  # crews read for the run's flights only


def test_a_later_flights_crew_told_to_report_later_holds_its_release():
    back = _return(150)
    moved = back.scheduled_departure + timedelta(minutes=30)  # its crew's report moved by the earlier plan
    overlay = released_later(_delayed(0), [back], Overlay(), RUN, STD, lambda fid: _crew(back, moved))
    (patch,) = overlay.patches
    assert patch.fields["delay_minutes"] == 30 + REPORT_BEFORE_DEPARTURE.total_seconds() // 60
    assert released_later(_delayed(0), [back], Overlay(), None, STD, lambda fid: []) == Overlay()  # not a re-decision


def test_a_later_flight_is_never_released_before_the_one_before_it_has_turned_round():
    """EY425's crew was told to report later, so it stands; the tail's next flight after it, re-timed by the same
    run but with its crew at the roster's report, is released only to EY425's arrival and the turn."""
    back = _return(150)
    moved = back.scheduled_departure + timedelta(minutes=120)  # EY425 ready only 195 min late: it stays at 150
    after = flight(
        "EY426", origin="AUH", destination="MNL", dep=back.scheduled_arrival + timedelta(minutes=100),
        estimated_departure=back.scheduled_arrival + timedelta(minutes=300), delay_minutes=200, status="DELAYED",
        updated_by_execution=RUN, reg=back.aircraft_registration,
    )  # fmt: skip
    crews = {back.flight_id: _crew(back, moved), after.flight_id: []}
    overlay = released_later(_delayed(0), [after, back], Overlay(), RUN, STD, crews.__getitem__)
    (patch,) = overlay.patches  # EY425 stands; EY426 released, but not before EY425 has landed and turned
    turn = AIRCRAFT_TYPES[after.aircraft_type].min_turn_minutes
    leaves = after.scheduled_departure + timedelta(minutes=patch.fields["delay_minutes"])
    assert patch.key == {"flight_id": after.flight_id}
    assert leaves >= back.arrival + timedelta(minutes=turn) > after.scheduled_departure
