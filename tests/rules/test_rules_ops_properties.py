"""Property tests of the operations rules: monotonicity in delay, passengers, labour."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st
from ops_rows import assignment, booking, engineer, flight, shift, shipment, utc, work_order

from skymarshal.rules.cargo import HANDLING_LIMITS, cargo_impact
from skymarshal.rules.finance import PlanCostInput, plan_cost
from skymarshal.rules.guest import compensation_liability, duty_of_care
from skymarshal.rules.maintenance_release import estimate_release
from skymarshal.rules.network import misconnections, propagate_delay
from skymarshal.rules.tail_swap_checks import cabin_plan

buffers = st.lists(st.integers(-20, 240), min_size=1, max_size=6)
delays = st.integers(0, 900)


def rotation(turn_buffers: list[int]):
    flights, dep = [], utc(2027, 1, 20, 3)
    for i in range(len(turn_buffers) + 1):
        origin, destination = ("AUH", "LHR") if i % 2 else ("LHR", "AUH")
        flights.append(
            flight(
                number=f"EY{11 + i}",
                origin=origin,
                destination=destination,
                dep=dep,
                block=420,
                distance_km=5517,
                booked={"J": 10, "Y": 100},
            )
        )
        if i < len(turn_buffers):
            dep += timedelta(minutes=420 + 75 + turn_buffers[i])
    return flights


@given(buffers, delays, delays)
def test_a_longer_initial_delay_never_shortens_propagation(turn_buffers, a, b):
    short, long_ = sorted((a, b))
    flights = rotation(turn_buffers)
    p, q = (propagate_delay(flights, flights[0].flight_id, d) for d in (short, long_))
    assert len(p.affected_flight_ids) <= len(q.affected_flight_ids)
    assert set(p.affected_flight_ids) <= set(q.affected_flight_ids)
    longer = q.delays()
    assert all(minutes <= longer[fid] for fid, minutes in p.delays().items())
    assert p.end_of_day_arrival_delay_minutes <= q.end_of_day_arrival_delay_minutes
    assert p.total_delay_minutes <= q.total_delay_minutes


def _plan_total(flights, delay: int, rows) -> float:
    knock_on = propagate_delay(flights, flights[0].flight_id, delay)
    first = flights[0]
    return plan_cost(
        PlanCostInput(
            flight_delays=knock_on.delays(),
            compensation=(
                compensation_liability(first, rows, "delay", arrival_delay_minutes=delay, cause="technical"),
            ),
            care=(duty_of_care(first, rows, "delay", departure_delay_minutes=delay),),
        )
    ).total_usd


@settings(deadline=None, max_examples=60)
@given(buffers, delays, delays)
def test_a_longer_initial_delay_never_lowers_the_total_cost(turn_buffers, a, b):
    short, long_ = sorted((a, b))
    flights = rotation(turn_buffers)
    rows = [booking(f"B{i}", flights[0].flight_id, final="AUH") for i in range(5)]
    assert _plan_total(flights, short, rows) <= _plan_total(flights, long_, rows)


routes = st.sampled_from([("LHR", "AUH", 5517), ("AUH", "FRA", 4864), ("ATH", "AUH", 3263), ("BAH", "AUH", 452)])
extra_booking = st.fixed_dictionaries(
    {"cabin": st.sampled_from(["J", "Y"]), "inbound": st.booleans(), "final": st.sampled_from(["same", "BKK", "LHR"])}
)


@settings(deadline=None, max_examples=60)
@given(
    routes,
    st.integers(0, 4),
    extra_booking,
    delays,
    st.sampled_from(["delay", "cancellation"]),
    st.sampled_from(["technical", "weather", None]),
)
def test_adding_a_passenger_never_lowers_liability(route, n, extra, delay, disruption, cause):
    origin, destination, km = route
    leg = flight(number="EY50", origin=origin, destination=destination, distance_km=km)
    inbound = (
        flight(number="EY49", origin="LHR", destination=origin, dep=utc(2027, 1, 20, 1), block=60)
        if origin != "LHR"
        else None
    )
    rows = [booking(f"B{i}", leg.flight_id, final=destination) for i in range(n)]
    more = rows + [
        booking(
            "NEW",
            leg.flight_id,
            cabin=extra["cabin"],
            final=destination if extra["final"] == "same" else extra["final"],
            inbound=inbound.flight_id if inbound and extra["inbound"] else None,
        )
    ]
    kw = dict(arrival_delay_minutes=delay, cause=cause, inbound_flights=[inbound] if inbound else [])
    before = compensation_liability(leg, rows, disruption, **kw).totals
    after = compensation_liability(leg, more, disruption, **kw).totals
    assert all(after.get(currency, 0) >= amount for currency, amount in before.items())
    care = [duty_of_care(leg, r, disruption, departure_delay_minutes=delay).total for r in (rows, more)]
    assert care[0] <= care[1]


@given(st.lists(st.integers(-120, 300), min_size=1, max_size=8), delays, delays)
def test_shrinking_a_delay_never_creates_a_misconnection(gaps, a, b):
    inbound = flight(number="EY18", origin="LHR", destination="AUH", dep=utc(2027, 1, 20, 2), block=400)
    onward = [
        flight(
            number=f"EY{500 + i}",
            origin="AUH",
            destination="BKK",
            reg="A6-BLC",
            dep=inbound.scheduled_arrival + timedelta(minutes=60 + gap),
        )
        for i, gap in enumerate(gaps)
    ]
    rows = [booking(f"C{i}", inbound.flight_id, onward=f.flight_id, final="BKK") for i, f in enumerate(onward)]
    small, large = sorted((a, b))

    def broken(delay: int) -> set[str]:
        new = {inbound.flight_id: inbound.scheduled_arrival + timedelta(minutes=delay)}
        return set(misconnections([inbound], onward, rows, new_arrivals=new).booking_ids)

    assert broken(small) <= broken(large)


@settings(deadline=None, max_examples=40)
@given(st.floats(0.5, 30), st.floats(0, 20), st.integers(0, 600))
def test_more_labour_or_later_parts_never_release_earlier(labour, more, parts_delay):
    shifts = [shift("E1", utc(2027, 1, 20, 10) + timedelta(days=d)) for d in range(6)]
    base = work_order(labour=round(labour, 1), parts=utc(2027, 1, 20, 11))
    heavier = work_order(labour=round(labour + more, 1), parts=utc(2027, 1, 20, 11) + timedelta(minutes=parts_delay))
    first, second = (
        estimate_release("A6-BLA", [w], [engineer("E1")], shifts, utc(2027, 1, 20, 9)) for w in (base, heavier)
    )
    if second.release_at is not None:
        assert first.release_at is not None and first.release_at <= second.release_at


@given(
    st.dictionaries(st.sampled_from(["F", "J", "Y"]), st.integers(0, 400)),
    st.dictionaries(st.sampled_from(["F", "J", "Y"]), st.integers(0, 400)),
)
def test_the_cabin_plan_accounts_for_every_passenger(booked, capacity):
    plan = cabin_plan(booked, capacity)
    seated = sum(min(booked.get(c, 0), capacity.get(c, 0)) for c in "FJY")
    moved = sum(plan.downgraded.values()) + sum(plan.upgraded.values())
    assert seated + moved + plan.offloaded == sum(booked.values())
    assert plan.offloaded == max(0, sum(booked.values()) - sum(capacity.values()))


@given(st.lists(st.sampled_from([*HANDLING_LIMITS, "DGR", "ICE", "VAL"]), max_size=3), delays, delays)
def test_a_longer_delay_never_lowers_cargo_revenue_at_risk(codes, a, b):
    goods = shipment(1, [c for c in codes if c != "GEN"])
    leg = flight()
    short, long_ = sorted((a, b))
    rows, ships = [assignment(goods, leg.flight_id)], [goods]
    assert (
        cargo_impact(leg, rows, ships, short).revenue_at_risk_usd
        <= cargo_impact(leg, rows, ships, long_).revenue_at_risk_usd
    )
