"""The LP lower bound (recovery/lower_bound.py) never exceeds the cost of a plan the checker accepts."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from skymarshal.recovery.aircraft_plan import Weights
from skymarshal.recovery.checker import check
from skymarshal.recovery.cost import billed_hours, evaluate
from skymarshal.recovery.lower_bound import build, lower_bound
from skymarshal.recovery.model import (
    LENIENT,
    CapacityWindow,
    CrewPairing,
    DatedFlightRef,
    Instance,
    ReducedCapacity,
)
from skymarshal.recovery.passengers import plan_passengers
from skymarshal.recovery.rows import to_rows
from skymarshal.recovery.solver import _Search, construct, solve

from .test_solver import DISRUPTION, _disrupted_tiny
from .tiny import FILES, planned_solution, replace_flight, tiny_instance

pytest.importorskip("highspy")


def _no_credit(instance: Instance) -> Instance:
    """The cost without the cancelled flights' credit (CostConfig.credit_cancelled_flights, the day scorecard)."""
    return instance.model_copy(
        update={"config": instance.config.model_copy(update={"credit_cancelled_flights": False})}
    )


def _bound(instance: Instance, **kwargs) -> float:
    found = lower_bound(instance, **kwargs)
    assert found is not None
    return found.value


def test_the_bound_is_below_the_planned_solution_and_the_solvers(tmp_path):
    instance = tiny_instance(tmp_path)
    planned = planned_solution(instance)
    assert check(instance, planned) == []
    bound = _bound(instance)
    assert bound <= evaluate(instance, planned).total
    solution, result = solve(instance, time_limit=1.0)
    assert result.violations == []
    assert bound <= evaluate(instance, solution).total


def test_per_trip_links_and_tail_kinds_lift_the_bound(tmp_path):
    """The LP of 0139013 proved only -8,633.33 on the tiny instance: it flew fractions of flights, pocketed the
    rest of their credit and seated the passengers on the flown fraction at the biggest tail's seats. A trip's
    passengers on a flight are now ≤ p·y (one row per trip and flight) and a flight's seats and hourly cost are
    those of the kind of tail flying it (each kind's free minutes bounded): -7,255, still ≤ the solver's plan."""
    instance = tiny_instance(tmp_path)
    bound = _bound(instance)
    solution, result = solve(instance, time_limit=1.0)
    assert result.violations == []
    assert -7_255.01 <= bound <= evaluate(instance, solution).total
    assert bound > -8_633.33 + 1_000


def test_the_bound_is_the_lps_optimum_less_a_hair(tmp_path):
    """The safe dual bound computed from the duals sits just under the LP's own optimum, not above it."""
    import highspy

    instance = tiny_instance(tmp_path)
    lp = build(instance)
    model = highspy.Highs()
    model.setOptionValue("output_flag", False)
    for cost, lo, hi in zip(lp.cost, lp.lower, lp.upper):
        model.addVar(lo, hi)
        model.changeColCost(model.getNumCol() - 1, cost)
    for r, (lo, hi) in enumerate(zip(lp.row_lower, lp.row_upper)):
        cols = [j for j, entries in enumerate(lp.entries) for row, _ in entries if row == r]
        vals = [v for entries in lp.entries for row, v in entries if row == r]
        model.addRow(lo, hi, len(cols), cols, vals)
    model.run()
    optimum = model.getInfo().objective_function_value + lp.constant
    assert optimum - 0.01 <= _bound(instance) <= optimum + 1e-6


def _stranded(folder) -> Instance:
    """104 (CCC-AAA, 15:30) cancelled by the disruption with 10 outbound passengers booked on it: they wait for a
    later way home (203 from BBB, after a hop; or a whole new flight), or lose their trip. Both tails cost the
    same an hour, so no swap saves anything."""
    overrides = {
        "aircraft.csv": FILES["aircraft.csv"].replace("1200.0", "1000.0"),
        "alt_flights.csv": "102 01/01/09 30\n104 01/01/09 -1\n#",
        "itineraries.csv": FILES["itineraries.csv"].replace("#", "4 A 120.0 10 104 01/01/09 E\n#"),
    }
    return _no_credit(tiny_instance(folder, **overrides))


def test_a_disruption_that_costs_gives_a_positive_bound(tmp_path):
    instance = _stranded(tmp_path)
    bound = _bound(instance)
    solution, result = solve(instance, time_limit=2.0)
    assert result.violations == []
    cost = evaluate(instance, solution).total
    assert 0 < bound <= cost
    # itinerary 4's ten reach AAA at best 45 minutes late (a hop to BBB, then 203): 10 × 0.2 × 45. (Itinerary 2's
    # 30 minutes the LP avoids: a new flight's first leg BBB-AAA at 11:00 is not priced; first legs are free.)
    assert bound >= 90.0 - 0.01


def test_the_bound_is_tight_where_no_plan_can_do_better(tmp_path):
    """One return trip, its outbound leg 90 minutes late by the disruption: the other tail flies the return on
    time, the 20 passengers arrive 90 minutes late (20 × 0.1 × 90 = 180), and nothing cheaper exists (a new
    flight costs 1000, cancelling them far more). The LP finds exactly that."""
    overrides = {
        "flights.csv": "101 AAA BBB 09:00 10:00 0\n102 BBB AAA 11:00 12:00 0\n#",
        "rotations.csv": "101 01/01/09 P1\n102 01/01/09 P1\n#",
        "itineraries.csv": "1 A 100.0 20 101 01/01/09 E\n#",
        "aircraft.csv": FILES["aircraft.csv"].replace("1200.0", "1000.0"),
        "alt_flights.csv": "101 01/01/09 90\n#",
    }
    instance = _no_credit(tiny_instance(tmp_path, **overrides))
    solution, result = solve(instance, time_limit=1.0)
    assert result.violations == []
    cost = evaluate(instance, solution).total
    assert cost == pytest.approx(180.0)
    assert _bound(instance) == pytest.approx(cost, abs=0.01)


def test_without_credit_or_cheaper_tails_the_bound_is_not_negative(tmp_path):
    """Without the credit and with both tails at one price no component can be negative, nor can the bound (the
    LP re-routes itinerary 2 round 102's 30 minutes: its first legs are not priced, so the bound is 0 here)."""
    instance = _no_credit(
        tiny_instance(tmp_path, **{"aircraft.csv": FILES["aircraft.csv"].replace("1200.0", "1000.0")})
    )
    planned = planned_solution(instance)
    assert check(instance, planned) == []
    bound = _bound(instance)
    assert bound <= evaluate(instance, planned).total
    assert 0.0 - 0.01 <= bound <= evaluate(instance, planned).total


@pytest.mark.parametrize("step", [None, 60])
def test_a_swap_priced_per_pair_of_tails_earns_nothing_from_a_cheaper_tail(tmp_path, step):
    """P2 costs 1,200 an hour, P1 1,000. In the 2009 cost P2's flights moved to P1 earn the difference, and the
    bound is below 0; with a swap priced per pair of tails (the day scorecard's) no component is negative, nor is
    the bound, and a plan swapping the two rotations pays two pairs."""
    hourly = _no_credit(tiny_instance(tmp_path))
    per_pair = hourly.model_copy(
        update={"config": hourly.config.model_copy(update={"swap_per_tail_pair": 700.0, "new_flights": False})}
    )
    assert _bound(hourly, step=step) < -0.01
    assert 0.0 - 0.01 <= _bound(per_pair, step=step) <= evaluate(per_pair, planned_solution(per_pair)).total
    tails = {"P1": "P2", "P2": "P1"}
    swapped = planned_solution(per_pair)
    for f in swapped.flights:
        swapped = replace_flight(swapped, f.number, aircraft=tails[f.aircraft or ""])
    assert evaluate(per_pair, swapped).swapped_aircraft_cost == pytest.approx(2 * 700.0)
    hours = {
        tail: sum(billed_hours(f.arrival - f.departure) for f in swapped.flights if f.aircraft == tail)
        for tail in tails
    }
    difference = hours["P2"] * (1200.0 - 1000.0) + hours["P1"] * (1000.0 - 1200.0)  # P2 flies P1's, P1 P2's
    assert evaluate(hourly, swapped).swapped_aircraft_cost == pytest.approx(difference)


def test_the_lenient_reading_has_its_own_bound(tmp_path):
    instance = tiny_instance(tmp_path)
    planned = planned_solution(instance)
    assert check(instance, planned, LENIENT) == []
    assert _bound(instance, rules=LENIENT) <= evaluate(instance, planned).total


def _slowed(instance: Instance, airport: str, hour: int, movements: int) -> Instance:
    """`movements` departures and arrivals an hour at `airport` from `hour` o'clock for three hours."""
    cut = [
        ReducedCapacity(
            airport=airport,
            window=CapacityWindow(departures=movements, arrivals=movements, start=h * 60, end=h * 60 + 60),
        )
        for h in range(hour, hour + 3)
    ]
    return instance.model_copy(update={"reduced_capacities": instance.reduced_capacities + tuple(cut)})


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    disruption=DISRUPTION,
    seed=st.integers(0, 10**6),
    moves=st.integers(1, 10),
    credit=st.booleans(),
    step=st.sampled_from([None, 60, 30, 15, 45]),
    slowed=st.one_of(st.none(), st.tuples(st.sampled_from(["AAA", "BBB"]), st.integers(8, 16), st.integers(1, 2))),
    delay_rate=st.sampled_from([0.0, 2.5]),
    crew_slack=st.one_of(st.none(), st.tuples(st.integers(0, 90), st.integers(0, 90))),
    new_flights=st.sampled_from(["allowed", "left out of the bound", "forbidden"]),
    swap_price=st.sampled_from([None, 0.0, 500.0]),
)
def test_no_feasible_plan_costs_less_than_the_bound(
    tmp_path_factory, disruption, seed, moves, credit, step, slowed, delay_rate, crew_slack, new_flights, swap_price
):
    """Every plan the search reaches from its construction (each checked feasible) costs at least the bound, with
    the aircraft flow over time on any grid (45 minutes: no capacity rows), an hour's movements cut to one or two,
    a price on each minute a flight leaves late (the day objective's), crews with little slack on each tail's
    legs, and a swap priced per pair of tails (the day's); with new flights left out of the bound, every such plan
    that flies none; with them forbidden by the instance (the day's), every plan the checker accepts."""
    instance = _disrupted_tiny(tmp_path_factory.mktemp("tiny"), **disruption)
    if slowed:
        instance = _slowed(instance, *slowed)
    config = {"flight_delay_per_minute": delay_rate} | ({} if credit else {"credit_cancelled_flights": False})
    config |= {"swap_per_tail_pair": swap_price, "new_flights": new_flights != "forbidden"}
    instance = instance.model_copy(update={"config": instance.config.model_copy(update=config)})
    if crew_slack:
        crews = tuple(
            CrewPairing(
                id=f"C{tail}",
                legs=tuple(DatedFlightRef(number=n, day=0) for n in numbers),
                start_airport=start,
                slack=(slack,) * len(numbers),
                connect=30,
            )
            for tail, numbers, start, slack in (
                ("P1", (101, 102, 103, 104), "AAA", crew_slack[0]),
                ("P2", (201, 202, 203, 204), "BBB", crew_slack[1]),
            )
        )
        instance = instance.model_copy(update={"crews": crews})
    search = _Search(instance, seed)
    plan = construct(search.net, Weights(), list(instance.aircraft))
    assume(check(instance, to_rows(plan, plan_passengers(plan))) == [])  # crews may leave the tiny day no plan
    search.offer(plan)
    bound = _bound(instance, step=step, new_flights=new_flights == "allowed")
    planned = {(ref.number, ref.day) for ref, _ in instance.rotations}
    for candidate in [plan] + [search.neighbour() for _ in range(moves)]:
        rows = to_rows(candidate, plan_passengers(candidate))
        feasible = check(instance, rows) == []
        assert feasible or crew_slack  # every move keeps a crewless plan feasible (test_solver); the checker judges
        if feasible and (
            new_flights != "left out of the bound" or all((f.number, f.day) in planned for f in rows.to_model().flights)
        ):
            assert bound <= evaluate(instance, rows).total


def test_time_finds_the_only_tail_that_can_fly_a_flight_away(tmp_path):
    """P1 (at AAA) is unavailable until 11:00, so 101 (AAA-BBB at 09:00, 20 passengers) leaves at 11:00 at the
    earliest — P2 starts at BBB and flies 201 at 09:30, no tail reaches AAA before 11:00 — or is cancelled. Per
    airport alone the LP flies 101 on time by P2 and balances the tails with a new flight; over time it cannot: the
    bound rises to the two hours' delay (20 × 0.1 × 120) the search's plan pays."""
    overrides = {
        "aircraft.csv": FILES["aircraft.csv"].replace("1200.0", "1000.0"),
        "alt_aircraft.csv": "P1 01/01/09 08:00 01/01/09 11:00\n#",
        "alt_flights.csv": "#",
        "itineraries.csv": "1 A 100.0 20 101 01/01/09 E\n#",
    }
    instance = _no_credit(tiny_instance(tmp_path, **overrides))
    solution, result = solve(instance, time_limit=1.0)
    assert result.violations == []
    cost = evaluate(instance, solution).total
    untimed, timed = _bound(instance), _bound(instance, step=60)
    assert untimed < 240.0 - 0.01
    assert 240.0 - 0.01 <= timed <= cost


def test_an_hour_cut_to_one_arrival_delays_one_of_two_flights(tmp_path):
    """101 (AAA-BBB, 20 passengers) and 201 (CCC-BBB, 10) both land at BBB at 10:00; BBB's arrivals are cut to one
    an hour from 10:00, so one of them lands at 11:00 or later: 201 (the cheaper, 10 × 0.1 × 60 = 60). The capacity
    rows see it on the grid: 201's copy of the 10:00 hour lands from 10:45 (10 × 0.1 × 45 = 45); the LP per airport
    does not (0 here)."""
    overrides = {
        "aircraft.csv": "P1 M1 FAM 0/10/50 300 1000.0 30 20 AAA NULL\nP2 M1 FAM 0/10/50 300 1000.0 30 20 CCC NULL\n#",
        "flights.csv": "101 AAA BBB 09:00 10:00 0\n201 CCC BBB 09:15 10:00 0\n#",
        "rotations.csv": "101 01/01/09 P1\n201 01/01/09 P2\n#",
        "itineraries.csv": "1 A 100.0 20 101 01/01/09 E\n2 A 100.0 10 201 01/01/09 E\n#",
        "position.csv": "BBB M1 0/10/50 2 #\n#",
        "alt_flights.csv": "#",
    }
    instance = _slowed(_no_credit(tiny_instance(tmp_path, **overrides)), "BBB", 10, 1)
    solution, result = solve(instance, time_limit=1.0)
    assert result.violations == []
    assert evaluate(instance, solution).total == pytest.approx(60.0)
    assert _bound(instance) < 45.0 - 0.01
    assert 45.0 - 0.01 <= _bound(instance, step=60) <= 60.0 + 0.01


@pytest.mark.parametrize("slack", [60, 45])
def test_a_crews_slack_is_the_latest_a_held_flight_can_leave(tmp_path, slack):
    """101 (20 passengers) is held an hour; its crew's duty is legal to `slack` minutes late. Within it, 101 leaves
    at 10:00 (20 × 0.1 × 60 = 120) and the bound is exactly that; past it no plan flies 101 and the bound is the
    passengers' cancellation the search's plan pays, well above."""
    overrides = {
        "flights.csv": "101 AAA BBB 09:00 10:00 0\n102 BBB AAA 11:00 12:00 0\n#",
        "rotations.csv": "101 01/01/09 P1\n102 01/01/09 P1\n#",
        "itineraries.csv": "1 A 100.0 20 101 01/01/09 E\n#",
        "aircraft.csv": FILES["aircraft.csv"].replace("1200.0", "1000.0"),
        "alt_flights.csv": "#",
    }
    crew = CrewPairing(
        id="C1", legs=(DatedFlightRef(number=101, day=0),), start_airport="AAA", slack=(slack,), connect=30
    )
    instance = _no_credit(tiny_instance(tmp_path, **overrides)).model_copy(
        update={"held_until": {(101, 0): 60}, "crews": (crew,)}
    )
    solution, result = solve(instance, time_limit=1.0)
    assert result.violations == []
    cost = evaluate(instance, solution).total
    assert cost == pytest.approx(120.0) if slack >= 60 else cost > 1_000.0
    for step in (None, 60):
        assert _bound(instance, step=step, new_flights=False) == pytest.approx(cost, abs=0.01)


@pytest.mark.parametrize("step", [0, -15])
def test_a_grid_of_no_minutes_is_refused_on_one_line(tmp_path, step):
    """A step below one minute would never advance the grid: refused before any LP is built."""
    with pytest.raises(ValueError, match="at least one minute"):
        lower_bound(tiny_instance(tmp_path), step=step)
