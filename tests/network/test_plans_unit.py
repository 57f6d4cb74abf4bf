"""The network planner's pieces without AWS: the report's rates, the restriction and its refusals, tail continuity
and the baseline's cancellations, the hours the groups share, the objectives' weights, the closure check, and
crewability's reserves (hypothesis properties: no valid plan moves a flight into a closure, no reserve twice,
the baseline always cancels every affected flight and leaves each tail flying in sequence)."""

from __future__ import annotations

import itertools
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
import row_builders
from hypothesis import given, settings
from hypothesis import strategies as st

from skymarshal.intake.capacity import rate_facts
from skymarshal.models.disruption import Disruption, Fact, Scope, Window
from skymarshal.models.network_plan import FlightAction, NetworkRestriction
from skymarshal.models.operational import Flight
from skymarshal.network.plans import capacity_limits, floor_minutes
from skymarshal.network.restriction import NetworkInputRefused, check_rate, restriction_of
from skymarshal.network.scope import NetworkScope, narrower_window
from skymarshal.network.tails import baseline_actions, baseline_cancellations, broken_turn, cascade, scheduled_legs
from skymarshal.network.validation import closed_movements

DAY = datetime(2027, 1, 22, tzinfo=UTC)
WINDOW = Window(start=DAY.replace(hour=14), end=DAY.replace(hour=17))


SHORT_HAUL = {"type_code": "A320", "distance_km": 500, "capacity": {"J": 8, "Y": 128}, "booked": {"Y": 40}}


def flight(n: int, origin: str, destination: str, dep: datetime, minutes: int = 60, reg: str = "A6-EIA") -> Flight:
    return row_builders.flight(
        f"EY{n}", origin, destination, dep, minutes, reg, flight_id=f"EY{n}-20270122", **SHORT_HAUL
    )


def disruption(remarks: str = "", **facts: float) -> Disruption:
    return Disruption.of_code(
        87,
        scope=Scope(kind="airport", airport="AUH"),
        window=WINDOW,
        remarks=remarks,
        facts=[Fact(name=k, value=v, source="data") for k, v in facts.items()],
    )


def rotations(tails: int, legs: int) -> dict[str, list[Flight]]:
    """Each tail flies AUH-X-AUH round trips from 10:00, 2 h a trip."""
    out = {}
    for t in range(tails):
        reg = f"A6-EI{chr(65 + t)}"
        rows = []
        for i in range(legs):
            dep = DAY.replace(hour=10) + timedelta(hours=2 * i, minutes=10 * t)
            outstation = ("MCT", "BAH", "DOH", "KWI")[t]
            origin, destination = ("AUH", outstation) if i % 2 == 0 else (outstation, "AUH")
            rows.append(flight(100 * t + i + 1, origin, destination, dep, reg=reg))
        out[reg] = rows
    return out


def test_rates_read_from_the_report():
    (share,) = rate_facts("Runway works cut capacity to 50 % from 12:00 to 18:00 UTC")
    assert (share.name, share.value) == ("capacity_share", 0.5) and share.evidence
    assert rate_facts("capacity reduced by 30% this afternoon")[0].value == 0.7
    assert rate_facts("the airport runs at half capacity")[0].value == 0.5
    assert rate_facts("limited to 12 movements per hour")[0].value == 12
    slot = rate_facts("ATC flow regulation: 40 minute slot delays from 14:00")
    assert [(f.name, f.value) for f in slot] == [("slot_delay_minutes", 40)]
    assert rate_facts("Abu Dhabi airport is closed by fog from 14:00 to 17:00 UTC") == []


def test_a_closure_allows_no_movement_and_a_share_is_of_the_normal_rate():
    day = [flight(i, "AUH", "MCT", DAY.replace(hour=14, minute=5 * i)) for i in range(1, 7)]
    day += [flight(10 + i, "MCT", "AUH", DAY.replace(hour=13, minute=5 * i)) for i in range(1, 5)]
    closed = restriction_of(disruption("closed"), day)
    assert (closed.kind, closed.departures_per_hour, closed.arrivals_per_hour) == ("closure", 0, 0)
    half = restriction_of(disruption(capacity_share=0.5), day)
    assert (half.kind, half.departures_per_hour, half.arrivals_per_hour) == ("capacity", 3, 2)
    assert (half.normal_departures_per_hour, half.normal_arrivals_per_hour) == (6, 4)
    rate = restriction_of(disruption(capacity_per_hour=5), day)
    assert rate.departures_per_hour + rate.arrivals_per_hour == 5
    with pytest.raises(NetworkInputRefused, match="neither that AUH is closed") as caught:
        restriction_of(disruption(), day)
    assert caught.value.reason.code == "NO_AFFECTED_FLIGHT"


def test_a_capacity_at_the_normal_rate_or_limiting_nothing_is_refused_in_one_line():
    day = [flight(i, "AUH", "MCT", DAY.replace(hour=14, minute=5 * i)) for i in range(1, 7)]
    with pytest.raises(NetworkInputRefused) as caught:
        check_rate(restriction_of(disruption(capacity_share=1.0), day), day)
    assert caught.value.reason.code == "CAPACITY_ABOVE_NORMAL" and "\n" not in str(caught.value)
    busy_elsewhere = [*day, *(flight(50 + i, "AUH", "BAH", DAY.replace(hour=9, minute=i)) for i in range(1, 10))]
    r = restriction_of(disruption(capacity_share=0.7), busy_elsewhere)  # 6 of 9 per hour: the window has 6
    with pytest.raises(NetworkInputRefused) as caught:
        check_rate(r, day)
    assert caught.value.reason.code == "NO_AFFECTED_FLIGHT"


def test_a_narrower_window_is_proposed_in_half_hours():
    r = NetworkRestriction(kind="closure", airport="AUH", window=WINDOW, departures_per_hour=0, arrivals_per_hour=0)
    assert narrower_window(r, total=600, limit=300) == "14:00 to 15:30 UTC"
    assert narrower_window(r, total=10_000, limit=300) == "14:00 to 14:30 UTC"


def test_groups_share_the_airports_hours_and_the_window_is_rounded_outward():
    r = NetworkRestriction(
        kind="capacity",
        airport="AUH",
        window=Window(start=DAY.replace(hour=14, minute=10), end=DAY.replace(hour=15, minute=20)),
        departures_per_hour=4,
        arrivals_per_hour=3,
        normal_departures_per_hour=8,
        normal_arrivals_per_hour=6,
    )
    used = Counter({("D", DAY.replace(hour=14)): 3, ("A", DAY.replace(hour=17)): 2})
    limits = capacity_limits(r, used, DAY.replace(hour=20))
    by_hour = {lim.start.hour: (lim.departures_per_hour, lim.arrivals_per_hour) for lim in limits}
    assert by_hour == {14: (1, 3), 15: (4, 3), 17: (8, 4)}  # 16:00 is normal and unused: no line


@settings(max_examples=60, deadline=None)
@given(tails=st.integers(1, 4), legs=st.integers(2, 8), data=st.data())
def test_a_cascade_keeps_every_tail_in_sequence(tails, legs, data):
    rows = rotations(tails, legs)
    ids = sorted(f.flight_id for fs in rows.values() for f in fs)
    cancelled = set(data.draw(st.lists(st.sampled_from(ids), max_size=len(ids))))
    out = cascade(scheduled_legs(rows), cancelled)
    assert cancelled <= out
    for fs in scheduled_legs(rows).values():
        kept = [leg for leg in fs if leg.flight_id not in out]
        assert all(broken_turn(a, b) is None for a, b in itertools.pairwise(kept))


@settings(max_examples=40, deadline=None)
@given(tails=st.integers(1, 4), legs=st.integers(2, 8), closure=st.sampled_from(("closed", "capacity")))
def test_the_baseline_cancels_what_the_restriction_forbids(tails, legs, closure):
    rows = rotations(tails, legs)
    flights = [f for fs in rows.values() for f in fs]
    affected = [
        f
        for f in flights
        if (f.origin == "AUH" and WINDOW.start <= f.scheduled_departure < WINDOW.end)
        or (f.destination == "AUH" and WINDOW.start <= f.scheduled_arrival < WINDOW.end)
    ]
    r = NetworkRestriction(
        kind="closure" if closure == "closed" else "capacity",
        airport="AUH",
        window=WINDOW,
        departures_per_hour=0 if closure == "closed" else 1,
        arrivals_per_hour=0 if closure == "closed" else 1,
    )
    scope = NetworkScope(r, affected, [], DAY, DAY + timedelta(days=1), flights)
    out = baseline_cancellations(scope, rows)
    kept = [f for f in affected if f.flight_id not in out]
    per_hour = Counter(
        (kind, at.hour)
        for f in kept
        for kind, at, iata in (("D", f.scheduled_departure, f.origin), ("A", f.scheduled_arrival, f.destination))
        if iata == "AUH" and WINDOW.start <= at < WINDOW.end
    )
    assert all(n <= (r.departures_per_hour if k == "D" else r.arrivals_per_hour) for (k, _), n in per_hour.items())


times = st.datetimes(min_value=datetime(2027, 1, 22, 10), max_value=datetime(2027, 1, 22, 21), timezones=st.just(UTC))


@settings(max_examples=200, deadline=None)
@given(departure=times, minutes=st.integers(30, 600), to_hub=st.booleans())
def test_no_flight_moving_at_the_closed_airport_inside_the_window_passes(departure, minutes, to_hub):
    r = NetworkRestriction(kind="closure", airport="AUH", window=WINDOW, departures_per_hour=0, arrivals_per_hour=0)
    origin, destination = ("MCT", "AUH") if to_hub else ("AUH", "MCT")
    arrival = departure + timedelta(minutes=minutes)
    a = FlightAction(
        flight_id="EY1-20270122",
        flight_number="EY1",
        origin=origin,
        destination=destination,
        action="retime",
        scheduled_departure=departure,
        scheduled_arrival=arrival,
        new_departure=departure,
        new_arrival=arrival,
        registration="A6-EIA",
        new_registration="A6-EIA",
        aircraft_type="A320",
    )
    at_hub = arrival if to_hub else departure
    found = list(closed_movements(r, {}, a))
    assert bool(found) == (WINDOW.start <= at_hub < WINDOW.end)
    assert all(code == "CLOSED_AIRPORT" for code, _, _ in found)


@given(late=st.integers(0, 900), slot=st.one_of(st.none(), st.integers(0, 900)))
def test_the_optimizer_never_moves_a_flight_before_an_earlier_decisions_estimate(late, slot):
    f = flight(1, "AUH", "MCT", DAY.replace(hour=15))
    f = f.model_copy(update={"estimated_departure": f.scheduled_departure + timedelta(minutes=late)})
    r = restriction_of(disruption(capacity_share=0.5), [f]).model_copy(update={"slot_delay_minutes": slot})
    assert floor_minutes(r, f) == max(late, slot or 0)


def test_the_baseline_keeps_a_flight_an_earlier_decision_delayed_at_its_estimate():
    """Where it stands, as the hold plan does: shown on schedule, the baseline's passengers would not wait the
    earlier delay and it would outscore a plan that tells the truth (bad day E004, after E003's hold)."""
    rows = rotations(1, 2)
    first = rows["A6-EIA"][0]
    late = timedelta(minutes=45)
    rows["A6-EIA"][0] = first.model_copy(
        update={
            "estimated_departure": first.scheduled_departure + late,
            "estimated_arrival": first.scheduled_arrival + late,
            "status": "DELAYED",
        }
    )
    r = row_builders.capacity_cut(WINDOW, rate=10, normal=20)
    flights = rows["A6-EIA"]
    scope = NetworkScope(r, flights, [], DAY, DAY + timedelta(days=1), flights)
    kept = {a.flight_id: a for a in baseline_actions(rows, scope, {})}[first.flight_id]
    assert (kept.action, kept.new_departure) == ("operate", first.scheduled_departure + late)
