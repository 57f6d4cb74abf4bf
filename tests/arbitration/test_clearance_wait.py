"""Issue 46: waiting for the cause to clear is always a plan, the ranking counts what the day scorecard counts, and a
hold of the flight never gets a swap as rank 1 — unit tests, no emulated AWS (hand-built flights, clearances and
scenarios; generated ones for the invariants)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import row_builders
from hypothesis import given, settings
from hypothesis import strategies as st
from row_builders import utc

from skymarshal.analysis.crew import REPORT_BEFORE_DEPARTURE
from skymarshal.arbitration.actions import CancelFlight, DelayFlight, RebookPassengers
from skymarshal.arbitration.bounds import AircraftGroundedBound, CrewMaxDelayBound
from skymarshal.arbitration.context import DisruptionContext, release_estimate, with_release
from skymarshal.arbitration.day_cost import day_cost, with_day_cost
from skymarshal.arbitration.memo_keys import BookingsRead
from skymarshal.arbitration.models import Scenario, ValidatedScenario
from skymarshal.arbitration.plans.cancellation import INTERLINE_DELAY_MINUTES
from skymarshal.arbitration.plans.clearance_wait import annotated, clearance_waits, delay_to, ready_from
from skymarshal.arbitration.ranking import (
    OVERNIGHT_HOURS,
    SWAP_KINDS,
    Precedent,
    RankingWeights,
    hold_first,
    rank_order,
    raw_criteria,
)
from skymarshal.models.disruption import Clearance, Disruption, Scope
from skymarshal.models.operational import Booking

pytestmark = pytest.mark.unit
STD = utc(2027, 1, 20, 10)
NEUTRAL = Precedent(0.5, 0, "")
KINDS = ("aircraft_release", "crew_available", "station_reopens", "ctot", "flight_released")


def _clears(kind="aircraft_release", after=180, margin=60, source="stated") -> Clearance:
    extra = {"cases": 12, "percentile": 80} if source == "history" else {}
    return Clearance(
        kind=kind,
        expected=STD + timedelta(minutes=after),
        latest=STD + timedelta(minutes=after + margin),
        source=source,
        evidence="about 3 h",
        **extra,
    )


clearances = st.builds(
    _clears,
    kind=st.sampled_from(KINDS),
    after=st.integers(-120, 30 * 60),
    margin=st.integers(0, 6 * 60),
    source=st.sampled_from(("stated", "history", "policy")),
)


@settings(max_examples=300, deadline=None)
@given(clearances, st.integers(0, 600))
def test_the_waits_are_at_the_estimate_and_its_bound_never_before_either(clears, current):
    f = row_builders.flight(dep=STD, delay_minutes=current, estimated_departure=STD + timedelta(minutes=current))
    waits = clearance_waits(f, clears)
    lead = REPORT_BEFORE_DEPARTURE if clears.kind == "crew_available" else timedelta(0)
    assert 1 <= len(waits) <= 2
    for delay, wait in waits.items():
        assert delay >= current and (delay % 5 == 0 or delay == current)
        assert wait.until == STD + timedelta(minutes=delay)
        assert wait.until >= (clears.latest if wait.bound else clears.expected) + lead
        assert wait.redecide_at == clears.latest and wait.clears == clears
        assert wait.until - ((clears.latest if wait.bound else clears.expected) + lead) < timedelta(minutes=5) or (
            delay == current
        )
    assert min(waits) == delay_to(f, clears.expected + lead)


def test_no_estimate_no_wait():
    assert clearance_waits(row_builders.flight(dep=STD), None) == {}


def test_the_wait_says_until_when_from_what_and_when_to_look_again():
    waits = clearance_waits(row_builders.flight(dep=STD), _clears(after=180, margin=60))
    assert sorted(waits) == [180, 240]
    assert waits[180].describe() == "wait until 13:00Z (stated: 'about 3 h'); look again at 14:00Z"
    assert waits[240].bound and not waits[180].bound


def _scenario(sid: str, kind: str = "delay", delay: int = 180, **kw) -> Scenario:
    fields = {
        "scenario_id": sid,
        "kind": kind,
        "title": sid,
        "sources": ["generator"],
        "actions": [],
        "operates": kind != "cancel",
        "registration": "A6-BLA" if kind != "cancel" else None,
        "aircraft_type": "B789" if kind != "cancel" else None,
        "departure": STD + timedelta(minutes=delay) if kind != "cancel" else None,
        "arrival": STD + timedelta(minutes=delay + 360) if kind != "cancel" else None,
        "arrival_airport": "FRA" if kind != "cancel" else None,
        "delay_minutes": delay,
        "arrival_delay_minutes": delay,
        "passengers_impacted": 220,
        "cost_usd": 20_000.0,
    }
    return Scenario(**{**fields, **kw})


def test_only_the_delay_at_a_wait_is_annotated():
    waits = clearance_waits(row_builders.flight(dep=STD), _clears(after=180))
    wait = annotated(_scenario("delay:180"), waits)
    assert wait.waits == waits[180] and "look again at 14:00Z" in wait.title
    assert annotated(_scenario("delay:120", delay=120), waits).waits is None
    assert annotated(_scenario("tail_swap:A6-X", kind="tail_swap"), waits).waits is None


times = st.one_of(st.none(), st.integers(0, 48 * 60).map(lambda m: STD + timedelta(minutes=m)))


@settings(max_examples=200, deadline=None)
@given(times, clearances)
def test_the_release_estimate_only_ever_waits_longer(maintenance, clears):
    release = release_estimate(maintenance, clears)
    if clears.kind != "aircraft_release":
        assert release == maintenance
    else:
        assert release is not None and release >= clears.expected
        assert maintenance is None or release >= maintenance


def test_an_open_grounding_of_the_tail_ends_at_the_estimate_other_bounds_untouched():
    own = AircraftGroundedBound(agent="maintenance", text="AOG", registration="A6-BLA", release_at=None)
    other = AircraftGroundedBound(agent="maintenance", text="MEL", registration="A6-XYZ", release_at=None)
    later = AircraftGroundedBound(
        agent="maintenance", text="AOG", registration="A6-BLA", release_at=STD + timedelta(hours=9)
    )
    crew = CrewMaxDelayBound(agent="crew_compliance", text="FDP", crew_ids=("C1",), max_delay_minutes=200)
    at = STD + timedelta(hours=3)
    out = with_release([own, other, later, crew], "A6-BLA", at)
    assert out[0].release_at == at and "estimated release 13:00Z" in out[0].text
    assert out[1] == other and out[3] == crew
    assert out[2].release_at == STD + timedelta(hours=9)  # maintenance's later time governs
    assert with_release([own], "A6-BLA", None) == [own]


kinds = st.sampled_from(("delay", "cancel", "tail_swap", "crew_swap", "rescue_aircraft", "divert"))
plans = st.tuples(kinds, st.integers(0, 600))  # (kind, delay)


@settings(max_examples=300, deadline=None)
@given(st.lists(plans, min_size=1, max_size=8), st.randoms(use_true_random=False), st.none() | st.integers(0, 600))
def test_under_a_hold_of_the_flight_no_swap_leads_a_plan_without_one_that_leaves_as_early(plan_kinds, rnd, ends):
    scenarios = [_scenario(f"{k}:{i}", kind=k, delay=d) for i, (k, d) in enumerate(plan_kinds)]
    order = list(range(len(scenarios)))
    rnd.shuffle(order)
    hold_ends = None if ends is None else STD + timedelta(minutes=ends)
    held = hold_first(order, scenarios, hold_ends)
    assert sorted(held) == sorted(order)  # a reordering, nothing lost or added
    assert [i for i in held if i != held[0]] == [i for i in order if i != held[0]]  # only the leader moves
    lead = scenarios[order[0]]
    by = max((t for t in (lead.departure, hold_ends) if t is not None), default=None)
    early = [
        i
        for i in order
        if scenarios[i].kind not in SWAP_KINDS
        and scenarios[i].operates
        and (by is None or scenarios[i].departure <= by)
    ]
    if lead.kind in SWAP_KINDS and early:
        assert held[0] == early[0]  # the best plan without a swap that leaves as early
    else:
        assert held == order  # a swap nothing else matches, or no swap leading: unchanged (never a cancellation)


def test_a_fog_hold_ranks_the_wait_before_a_cheaper_tail_swap():
    swap = _scenario("tail_swap:A6-X", kind="tail_swap", delay=150, cost_usd=1_000.0)
    wait = _scenario("delay:180", delay=180, cost_usd=15_000.0)
    valid = [ValidatedScenario(scenario=s, checks=[], rejections=[]) for s in (swap, wait)]
    assert valid[rank_order(valid, RankingWeights(), [NEUTRAL] * 2)[0][0]].scenario.kind == "tail_swap"
    # the fog lifts at 13:00Z (the estimate): the swap's earlier departure is no earlier than the wait's
    held = rank_order(valid, RankingWeights(), [NEUTRAL] * 2, flight_hold=True, hold_ends=STD + timedelta(hours=3))
    assert valid[held[0][0]].scenario.scenario_id == "delay:180"
    # no estimate of the end: the swap that leaves earlier keeps its rank (it may be what gets the flight out)
    unknown = rank_order(valid, RankingWeights(), [NEUTRAL] * 2, flight_hold=True)
    assert valid[unknown[0][0]].scenario.kind == "tail_swap"


def test_the_passenger_criterion_counts_the_day_minutes_and_nights():
    base = _scenario("cancel", kind="cancel", delay=60)
    assert raw_criteria(ValidatedScenario(scenario=base, checks=[], rejections=[]))["passenger_satisfaction"] == 220
    counted = base.model_copy(update={"passenger_minutes": 220 * 1440, "overnight_passengers": 200, "knock_on_usd": 7})
    raw = raw_criteria(ValidatedScenario(scenario=counted, checks=[], rejections=[]))
    assert raw["passenger_satisfaction"] == 220 * 24 + 200 * OVERNIGHT_HOURS
    assert raw["cost"] == 20_007.0


# --- day_cost over a hand-built context (no data reads: every flight is in the tail's rotation) ---

OUT = row_builders.flight("EY123", "AUH", "FRA", STD, flight_id="F1", booked={"J": 20, "Y": 200})
BACK = row_builders.flight("EY124", "FRA", "AUH", STD + timedelta(hours=8), flight_id="F2", booked={"Y": 150})
NEXT_DAY = row_builders.flight("EY123", "AUH", "FRA", STD + timedelta(days=1), flight_id="F3", booked={"Y": 100})


def _booking(i: int) -> Booking:
    return Booking(
        booking_id=f"B{i}",
        pnr=f"PNR{i:03d}",
        passenger_id=f"X{i}",
        passenger_name=f"Passenger {i}",
        flight_id="F1",
        cabin="Y",
        final_destination="FRA",
        fare_paid=500.0,
    )


def _ctx() -> DisruptionContext:
    cause = Disruption(
        iata_delay_code=41, family="technical", cause="defect", scope=Scope(kind="flight", flights=["F1"])
    )
    return DisruptionContext(
        prompt="",
        flight=OUT,
        collation={},
        handle=None,  # type: ignore[arg-type]  # every flight is in the rotation: nothing is read
        now=STD - timedelta(hours=1),
        bookings=[_booking(i) for i in range(10)],
        rotation=[OUT, BACK, NEXT_DAY],
        profiles={},
        bounds=[],
        disruption_type="mechanical",
        release_at=None,
        tail_grounded=True,
        weather_window=None,
        disruption=cause,
    )


def _delay(f, minutes: int) -> DelayFlight:
    dep = f.scheduled_departure + timedelta(minutes=minutes)
    return DelayFlight(flight_id=f.flight_id, delay_minutes=minutes, new_departure=dep, new_arrival=dep)


def test_a_delay_counts_its_knock_on_passengers():
    plan = _scenario("delay:90", delay=90, actions=[_delay(OUT, 90), _delay(BACK, 60)])
    ctx = _ctx()
    home = {"flight_id": "F2", "final_destination": "AUH"}  # the knock-on's passengers, as its bookings read
    ctx.memo(BookingsRead("F2"), lambda: [_booking(i).model_copy(update=home) for i in range(150)])
    minutes, nights, owed = day_cost(ctx, plan)
    assert minutes == 10 * 90 + 150 * 60 and nights == 0 and owed == 0.0  # under two hours: nothing owed


def test_a_cancellation_counts_each_passenger_where_they_are_rebooked():
    rebook = RebookPassengers(flight_id="F1", passengers=10, onto={"F3": 7}, interline=3)
    plan = _scenario("cancel", kind="cancel", actions=[CancelFlight(flight_id="F1", reason="t"), rebook])
    minutes, nights, _ = day_cost(_ctx(), plan)
    assert minutes == 7 * 24 * 60 + 3 * INTERLINE_DELAY_MINUTES
    assert nights == 10  # a day later: every one of them waits through the night at Abu Dhabi
    kept = with_day_cost(_ctx(), plan.model_copy(update={"passenger_minutes": 42, "overnight_passengers": 1}))
    assert (kept.passenger_minutes, kept.overnight_passengers) == (42, 1)  # the costing's own journeys win


def test_a_wait_into_the_night_strands_the_flights_passengers():
    late = 15 * 60  # 01:00 local at Abu Dhabi (UTC+4)
    plan = _scenario(f"delay:{late}", delay=late, actions=[_delay(OUT, late)])
    minutes, nights, _ = day_cost(_ctx(), plan)
    assert minutes == 10 * late and nights == 10


def test_journeys_home_are_counted_as_the_costing_recorded_them():
    """A re-accommodation with each party's way home (issue 46 item 2) is counted by its journeys, not first legs."""
    from types import SimpleNamespace

    from skymarshal.arbitration.day_cost import _rebooked

    home = [
        SimpleNamespace(passengers=6, delay_minutes=200, overnight=False),
        SimpleNamespace(passengers=4, delay_minutes=900, overnight=True),
    ]
    rebook = SimpleNamespace(flight_id="F1", onto={"F3": 10}, interline=0, journeys=home)
    assert _rebooked(_ctx(), rebook) == (6 * 200 + 4 * 900, 4)


def test_the_console_shows_the_estimate_and_when_to_look_again(capsys):
    from skymarshal.arbitration.models import ArbitratorOutput
    from skymarshal.cli.render import render_decision

    clears = _clears(after=180, margin=60)
    decision = ArbitratorOutput(
        final_decision="Delay 180 min",
        recommendations=[],
        conflicts_identified=[],
        conflict_resolutions=[],
        safety_overrides=[],
        justification="j",
        reasoning="r",
        confidence=0.8,
        status="decided",
        estimate=clears,
        redecide_at=clears.latest,
    )
    render_decision(decision.model_dump(mode="json"))
    out = capsys.readouterr().out
    assert "expected 13:00Z, at the latest 14:00Z (stated: about 3 h); look again at 14:00Z" in out


@pytest.mark.parametrize("kind", KINDS)
def test_reserves_are_readied_for_a_history_estimates_early_end_only(kind):
    """A stated or policy estimate has no spread to ready for; a history estimate's low percentile is when its flight
    may first leave — a crew member available then still reports a sign-on lead before."""
    assert (
        ready_from(None) is None
        and ready_from(_clears(kind)) is None
        and ready_from(_clears(kind, source="policy")) is None
    )
    early = STD + timedelta(minutes=90)
    spread = _clears(kind, source="history").model_copy(update={"earliest": early})
    lead = REPORT_BEFORE_DEPARTURE if kind == "crew_available" else timedelta(0)
    assert ready_from(spread) == early + lead


def test_a_diversions_coach_is_in_its_passengers_minutes():
    # operate's diversion: `arrival` is the landing at the alternate, the coach only in the arrival delay
    plan = _scenario("divert", delay=90, actions=[_delay(OUT, 90)]).model_copy(
        update={"arrival_delay_minutes": 90 + 240}
    )
    minutes, _, _ = day_cost(_ctx(), plan)
    assert minutes == 10 * (90 + 240)


def test_a_connection_onto_a_flight_the_plan_moves_or_cancels_is_costed_once_on_that_flights_rows():
    ctx = _ctx()
    ctx.bookings[0] = ctx.bookings[0].model_copy(update={"onward_flight_id": "F2", "final_destination": "AUH"})
    back = [ctx.bookings[0].model_copy(update={"flight_id": "F2", "booking_id": "B0-2", "onward_flight_id": None})]
    ctx.memo(BookingsRead("F2"), lambda: back)
    plan = _scenario("delay:90", delay=90, actions=[_delay(OUT, 90), _delay(BACK, 60)])
    minutes, _, _ = day_cost(ctx, plan)
    assert minutes == 9 * 90 + 1 * 60  # the connecting passenger once, at F2's delay: not F1's too
    cancelled = _scenario(
        "delay:90:x", delay=90, actions=[_delay(OUT, 90), CancelFlight(flight_id="F2", reason="test")]
    )
    assert day_cost(ctx, cancelled)[0] == 9 * 90  # left to F2's cancellation and its re-accommodation
