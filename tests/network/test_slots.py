"""Capacity as the airport declares it (issue 47 item 4): the cut applies to the declared rate of every airline
together, our flights get ration-by-schedule slots, and "nothing to re-plan" only when those slots delay none of
our flights."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import row_builders
from hypothesis import given, settings
from hypothesis import strategies as st

from skymarshal.models.disruption import Disruption, Fact, Scope, Window
from skymarshal.models.operational import Flight
from skymarshal.network.restriction import NetworkInputRefused, check_rate, imposed_minutes, restriction_of
from skymarshal.network.scope import NetworkScope
from skymarshal.network.tails import baseline_cancellations
from skymarshal.rules.slots import UTILISATION, declared_rate, ration_by_schedule, slot_delay

DAY = datetime(2027, 1, 22, tzinfo=UTC)
WINDOW = Window(start=DAY.replace(hour=14), end=DAY.replace(hour=17))


def flight(n: int, origin: str, destination: str, dep: datetime) -> Flight:
    return row_builders.flight(f"EY{n}", origin, destination, dep, 420, "A6-BLA", flight_id=f"EY{n}-20270122")


def strike(airport: str, **facts: float) -> Disruption:
    return Disruption.of_code(
        89,
        scope=Scope(kind="airport", airport=airport),
        window=WINDOW,
        facts=[Fact(name=k, value=v, source="data") for k, v in facts.items()],
    )


def outstation_day() -> list[Flight]:
    """One departure and one arrival an hour at London from 12:00 to 19:00 (the airline's whole rate there)."""
    out = [flight(10 + h, "LHR", "AUH", DAY.replace(hour=h, minute=20)) for h in range(12, 20)]
    inbound = [flight(40 + h, "AUH", "LHR", DAY.replace(hour=h - 7, minute=40)) for h in range(12, 20)]
    return out + inbound


def test_a_strike_halving_an_outstation_is_planned_not_refused():
    """The report that was refused as 'at or above the airline's normal rate there': 1 movement an hour each way is
    all the airline has at LHR, but half of LHR's declared rate is what every airline's flights now share."""
    day = outstation_day()
    r = restriction_of(strike("LHR", capacity_share=0.5), day)
    declared = declared_rate("LHR")
    assert declared is not None and (r.normal_departures_per_hour, r.normal_arrivals_per_hour) == declared
    assert (r.departures_per_hour, r.arrivals_per_hour) == (declared[0] // 2, declared[1] // 2)
    check_rate(r, day)  # not refused
    assert "estimated" in r.basis  # the waits rest on reference and policy figures, and say so
    waits = {fid: m for fid, m in r.held_minutes.items()}
    assert waits and all(m > 0 for m in waits.values())
    in_window = [f for f in day if f.origin == "LHR" and WINDOW.start <= f.scheduled_departure < WINDOW.end]
    assert all(f.flight_id in waits for f in in_window)
    assert imposed_minutes(r, in_window[-1]) == waits[in_window[-1].flight_id]  # the plan's slot, validated
    before = [f for f in day if f.origin == "LHR" and f.scheduled_departure < WINDOW.start]
    assert not any(f.flight_id in waits for f in before)


def test_a_cut_whose_slots_keep_up_with_the_demand_is_nothing_to_replan():
    day = outstation_day()
    r = restriction_of(strike("LHR", capacity_share=0.95), day)  # 41 an hour each way for a demand of ~35
    with pytest.raises(NetworkInputRefused, match="delay none of our flights") as caught:
        check_rate(r, day)
    assert caught.value.reason.code == "NO_AFFECTED_FLIGHT" and "\n" not in str(caught.value)
    assert "estimated: declared rates are rounded reference figures" in str(caught.value)


def test_an_airport_without_a_declared_rate_keeps_the_airlines_own():
    day = [flight(i, "AUH", "MCT", DAY.replace(hour=14, minute=5 * i)) for i in range(1, 7)]
    r = restriction_of(strike("AUH", capacity_share=0.5), day)
    assert declared_rate("AUH") is None and (r.normal_departures_per_hour, r.departures_per_hour) == (6, 3)
    assert r.held_minutes == {}


minutes = st.floats(0, 600, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(a=minutes, b=minutes, span=st.integers(30, 600), cut=st.integers(0, 60), declared=st.integers(10, 120))
def test_slots_keep_the_schedules_order_and_a_deeper_cut_never_delays_less(a, b, span, cut, declared):
    demand = UTILISATION * declared
    cut = min(cut, declared)
    first, second = sorted((a, b))
    assert (
        first + slot_delay(first, span, cut, declared, demand)
        <= second + slot_delay(second, span, cut, declared, demand) + 1
    )
    deeper = max(0, cut - 5)
    assert slot_delay(a, span, deeper, declared, demand) >= slot_delay(a, span, cut, declared, demand)
    assert slot_delay(-1, span, cut, declared, demand) == 0
    if cut >= demand:
        assert slot_delay(a, span, cut, declared, demand) == 0


@settings(max_examples=50, deadline=None)
@given(share=st.floats(0.1, 0.9), hours=st.integers(1, 6))
def test_the_backlog_clears_after_the_window_at_the_declared_rate(share, hours):
    declared = declared_rate("FRA")
    assert declared is not None
    cut = (int(declared[0] * share), int(declared[1] * share))
    window = Window(start=DAY.replace(hour=8), end=DAY.replace(hour=8) + timedelta(hours=hours))
    late = [flight(1, "FRA", "AUH", DAY.replace(hour=8) + timedelta(hours=hours + 60))]  # long after
    inside = [flight(2, "FRA", "AUH", DAY.replace(hour=8) + timedelta(hours=hours) - timedelta(minutes=1))]
    waits = ration_by_schedule(late + inside, "FRA", window, cut, declared)
    assert waits["EY1-20270122"] == 0
    assert waits["EY2-20270122"] > 0 or cut[0] >= UTILISATION * declared[0]


def test_the_conservative_baseline_cancels_every_flight_the_slots_delay():
    """Else it flies them at their schedule, before their slots, and the validation rejects it (BEFORE_SLOT)."""
    day = [f.model_copy(update={"aircraft_registration": f"A6-X{i:02d}"}) for i, f in enumerate(outstation_day())]
    r = restriction_of(strike("LHR", capacity_share=0.5), day)
    affected = [f for f in day if f.flight_id in r.held_minutes]
    scope = NetworkScope(r, affected, [], DAY.replace(hour=11), DAY.replace(hour=23), day)
    rotations = {f.aircraft_registration: [f] for f in day}
    cancelled = baseline_cancellations(scope, rotations)
    assert set(r.held_minutes) <= cancelled
    assert not cancelled & {f.flight_id for f in day if f.flight_id not in r.held_minutes}
