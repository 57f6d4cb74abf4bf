"""A held flight's captain short of the rest before the next duty (ORO.FTL.235): released from that duty — a
reserve on standby where it starts flies it, else its flights are cancelled with what the tail then cannot reach —
so the held flight leaves at its hold with its own crew (day/next_duty.py, the hindsight's cover)."""

from __future__ import annotations

from datetime import timedelta

import row_builders
from day_rows import F1, flight, state, utc

from skymarshal.day.crew_cover import StandbyIndex
from skymarshal.day.next_duty import released
from skymarshal.day.realize import DayState
from skymarshal.day.scorecard import illegal_members
from skymarshal.models.operational import CrewMember

DAY_START = utc(2027, 1, 20)
F10 = flight("F10", "EY30", "FRA", "AUH", utc(2027, 1, 21, 6), 360, "A6-BLE")
F11 = flight("F11", "EY31", "AUH", "FRA", utc(2027, 1, 21, 14), 360, "A6-BLE")


def _captain(rank: str = "CA") -> CrewMember:
    return CrewMember(crew_id="C1", name="C1", rank=rank, base="AUH", type_ratings=["B787"])


def day(reserve: bool = False) -> DayState:
    """C1 flies F1 (AUH-FRA 10:00-16:00Z) then, after a night in FRA, F10 home (FRA-AUH 06:00Z on the 21st)."""
    s = state()
    d1 = row_builders.flight_duty("C1", F1, duty_id="D1", aircraft_type="B789", block_minutes=F1.block_minutes)
    d2 = row_builders.flight_duty("C1", F10, duty_id="D2", aircraft_type="B789", block_minutes=F10.block_minutes)
    rosters = {"C1": [d1, d2]}
    members = {"C1": _captain()}
    if reserve:
        rosters["R1"] = [
            row_builders.standby_duty("R1", "FRA", utc(2027, 1, 21, 2), hours=10, standby_base_date="FRA#2027-01-21")
        ]
        members["R1"] = CrewMember(crew_id="R1", name="R1", rank="CA", base="FRA", type_ratings=["B787"])
    return DayState(
        {**s.flights, "F10": F10, "F11": F11},
        s.bookings,
        {"F1": [d1], "F10": [d2]},
        rosters,
        members,
        {**s.original_tails, "F10": F10.aircraft_registration, "F11": F11.aircraft_registration},
        s.min_connection_minutes,
    )


HOLD = F1.scheduled_departure + timedelta(hours=4)  # released 20:30Z: 8 h 15 before F10's report


def test_the_captain_short_of_rest_before_the_next_duty_is_illegal_at_the_hold():
    (finding,) = illegal_members(day(), F1, HOLD)
    assert finding.crew_id == "C1" and any(
        "rest" in x.message.lower() for x in finding.findings if x.status == "illegal"
    )


def test_with_no_reserve_the_next_duty_is_cancelled_with_the_tails_flights_it_strands():
    out = released(day(), "F1", HOLD, DAY_START, StandbyIndex(day().rosters), "hindsight")
    assert out is not None and illegal_members(out, out.flights["F1"], HOLD) == []
    assert out.flights["F10"].status == "CANCELLED" and out.flights["F11"].status == "CANCELLED"  # A6-BLE stays at FRA
    assert [r.flight_id for r in out.rosters["C1"]] == ["F1"]


def test_a_reserve_on_standby_where_the_next_duty_starts_flies_it():
    tables = day(reserve=True)
    out = released(tables, "F1", HOLD, DAY_START, StandbyIndex(tables.rosters), "hindsight")
    assert out is not None and out.flights["F10"].status != "CANCELLED"
    assert [r.crew_id for r in out.crew_on["F10"]] == ["R1"]
    assert illegal_members(out, out.flights["F1"], HOLD) == []


def test_a_member_illegal_for_more_than_the_rest_is_not_released():
    """Held 9 h the captain's FDP itself is over its limit: no next duty taken away makes that legal."""
    assert released(day(), "F1", F1.scheduled_departure + timedelta(hours=9), DAY_START, StandbyIndex({}), "h") is None


def test_a_member_legal_at_the_hold_needs_nothing():
    assert (
        released(day(), "F1", F1.scheduled_departure + timedelta(minutes=30), DAY_START, StandbyIndex({}), "h") is None
    )


def test_told_not_to_cancel_it_releases_only_to_a_reserve():
    none = released(day(), "F1", HOLD, DAY_START, StandbyIndex(day().rosters), "h", cancel=False)
    tables = day(reserve=True)
    covered = released(tables, "F1", HOLD, DAY_START, StandbyIndex(tables.rosters), "h", cancel=False)
    assert none is None and covered is not None and covered.flights["F10"].status != "CANCELLED"
