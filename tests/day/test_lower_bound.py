"""The day's lower bound on passenger delay (issue 47 item 5): what a hold on a flight or a closure forces on its
passengers whatever anybody decides, nothing for an AOG or a sick crew member, and never above the delay any
policy's day then counts. No AWS: the hand-built airline of day_rows (F1 AUH-FRA 10:00, F2 FRA-AUH 17:30 → F6
AUH-BOM 00:45, F7 AUH-BOM 10:00; P-001 on F1, P-002 on F2 then F6)."""

from __future__ import annotations

from datetime import date, timedelta

from day_rows import state, utc
from hypothesis import given, settings
from hypothesis import strategies as st
from test_legal_baselines import crewed, hold

from skymarshal.day.baselines import play_baseline
from skymarshal.day.lower_bound import delay_bound, earliest_departure
from skymarshal.day.stream import StreamEvent

DAY = date(2027, 1, 20)
POLICIES = ("delay", "greedy", "cancel-first", "delay-unconstrained", "greedy-unconstrained")


def closure(station: str, start_hour: int, hours: int) -> StreamEvent:
    start = utc(2027, 1, 20, start_hour)
    return StreamEvent(
        event_id=f"W-{station}-{start_hour}-{hours}",
        at=start - timedelta(hours=1),
        holds="station",
        family="weather",
        cause="weather",
        history_type="weather",
        station=station,
        start=start,
        end=start + timedelta(hours=hours),
        closes=True,
        report=f"{station} closed",
    )


def test_a_held_flight_holds_its_passengers_as_long_as_no_other_way_is_quicker():
    bound = delay_bound(state(), [hold("flight", 120)], [DAY])  # F1 held to 12:00; no other AUH-FRA flight
    assert (bound.passenger_delay_minutes, bound.journeys_delayed, bound.flights_held) == (120, 1, 1)
    bound = delay_bound(state(), [hold("flight", 600)], [DAY])  # a partner's AUH-FRA is 240 min late: quicker
    assert bound.passenger_delay_minutes == 240


def test_an_aog_or_a_sick_crew_member_forces_no_delay_a_spare_or_a_reserve_might_have_saved():
    for holds in ("tail", "crew"):
        bound = delay_bound(state(), [hold(holds, 600)], [DAY])
        assert (bound.passenger_delay_minutes, bound.flights_held) == (0, 0)


def test_a_closure_holds_its_departures_and_a_missed_connection_counts_to_the_final_destination():
    fra_shut = closure("FRA", 17, 4)  # F2 leaves FRA at 21:00 (+210), lands 03:00 and misses F6 (00:45)
    assert earliest_departure(state().flights["F2"], [fra_shut]) == utc(2027, 1, 20, 21)
    bound = delay_bound(state(), [fra_shut], [DAY])
    # P-002: F7 (10:00) lands 13:00, 555 min after F6's 03:45; a partner's AUH-BOM for the F6 segment: 240
    assert bound.passenger_delay_minutes == 240
    assert delay_bound(state(), [closure("FRA", 8, 4)], [DAY]).passenger_delay_minutes == 0  # nothing leaves then


events = st.lists(
    st.one_of(
        st.builds(
            hold,
            holds=st.sampled_from(["tail", "flight", "crew"]),
            minutes=st.integers(0, 20 * 60),
            at_hour=st.integers(6, 9),
            fid=st.sampled_from(["F1", "F2"]),
        ),
        st.builds(
            closure, station=st.sampled_from(["AUH", "FRA"]), start_hour=st.integers(6, 20), hours=st.integers(1, 8)
        ),
    ),
    min_size=1,
    max_size=3,
    unique_by=lambda e: e.event_id,
)


@given(events=events, reserves=st.integers(0, 2), name=st.sampled_from(POLICIES))
@settings(max_examples=80, deadline=None)
def test_no_policy_flies_a_day_below_the_bound(events, reserves, name):
    events = sorted(events, key=lambda e: (e.at, e.event_id))
    tables = crewed(reserves)
    played = play_baseline(name, tables, events, [DAY])
    assert played.card.passenger_delay_minutes >= delay_bound(tables, events, [DAY]).passenger_delay_minutes
