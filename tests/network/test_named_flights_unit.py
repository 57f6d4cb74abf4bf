"""The named-flights restriction without the airline: which disruptions are a named set, how long the cause holds
each flight (by AHM 730 code, over every code), and how the restriction reads in a decision's line."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from skymarshal.analysis.what_if import DEFECT_CODES, DESTINATION_WEATHER_CODES
from skymarshal.api.views import restriction_summary
from skymarshal.models.disruption import DELAY_CODES, Disruption, Scope, Window, family_of
from skymarshal.models.network_plan import NetworkRestriction
from skymarshal.models.operational import Flight
from skymarshal.network.scope import CREW_OWNED, held_for, is_named_set
from skymarshal.rules import what_if_policy as policy

DEPARTS = datetime(2027, 1, 21, 5, 20, tzinfo=UTC)


def _flight(delay: int = 0) -> Flight:
    return Flight(
        flight_id="EY391-20270121",
        flight_number="EY391",
        carrier="EY",
        origin="AUH",
        destination="IST",
        scheduled_departure=DEPARTS,
        scheduled_arrival=DEPARTS + timedelta(hours=4, minutes=30),
        aircraft_registration="A6-EJN",
        aircraft_type="A321",
        flight_date=DEPARTS.date(),
        distance_km=3000,
        block_minutes=270,
        capacity={"J": 20, "Y": 150},
        delay_minutes=delay,
        status="DELAYED" if delay else "SCHEDULED",
    )


def _disruption(code: int, flights: int, kind: str = "flight", window: Window | None = None) -> Disruption:
    ids = [f"EY{n}-20270121" for n in range(1, flights + 1)]
    numbers = [i.split("-")[0] for i in ids]
    scope = Scope(kind=kind, flight_numbers=numbers, flights=ids, registration="A6-EJN", crew_position="CAPTAIN")
    return Disruption.of_code(code, scope=scope, window=window)


@given(code=st.sampled_from(sorted(DELAY_CODES)), flights=st.integers(1, 5), kind=st.sampled_from(["flight", "tail"]))
def test_several_named_flights_are_a_named_set_and_one_or_a_tail_is_not(code, flights, kind):
    assert is_named_set(_disruption(code, flights, kind)) == (kind == "flight" and flights > 1)


@given(code=st.sampled_from(sorted(DELAY_CODES)), delay=st.integers(0, 600))
def test_a_named_flight_is_held_by_its_cause_and_never_less_than_its_own_estimate(code, delay):
    minutes, basis = held_for(_disruption(code, 2), _flight(delay))
    owned = code in DEFECT_CODES or code in CREW_OWNED or family_of(code) == "flight_operations_crew"
    assert basis
    if delay:
        assert minutes == delay  # the report's hold or slot, or the data's estimate, as the overlay shows it
    elif owned:
        assert minutes == 0  # the grounded tail or the unfit member is the constraint, not a hold
    elif code in DESTINATION_WEATHER_CODES:
        assert minutes == policy.WEATHER_HOURS * 60 - 30  # until the policy's weather window ends
    else:
        assert minutes == policy.slot_minutes(code) > 0


@given(hours=st.integers(1, 10))
def test_weather_at_the_destination_holds_the_arrival_until_the_stated_window_ends(hours):
    arrival = _flight().scheduled_arrival
    window = Window(start=arrival - timedelta(hours=1), end=arrival + timedelta(hours=hours))
    assert held_for(_disruption(72, 2, window=window), _flight())[0] == hours * 60


def test_the_restriction_reads_as_its_named_flights_and_cause():
    r = NetworkRestriction(
        kind="flights",
        airport="AUH",
        window=Window(start=DEPARTS, end=DEPARTS + timedelta(minutes=65)),
        flight_numbers=["EY391", "EY371"],
        held_minutes={"EY391-20270121": 45, "EY371-20270121": 45},
        basis="runway inspection",
    )
    assert r.described() == "named flights EY391, EY371 (runway inspection)"
    assert restriction_summary(r) == "named flights EY391, EY371 (runway inspection), 21 Jan 05:20–06:25Z"
