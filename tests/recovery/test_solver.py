"""The solver's moves keep plans feasible; the anytime loop returns a checked incumbent."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skymarshal.recovery.aircraft_plan import Weights
from skymarshal.recovery.checker import check
from skymarshal.recovery.cost import evaluate
from skymarshal.recovery.parser import read_instance
from skymarshal.recovery.passengers import plan_passengers
from skymarshal.recovery.solver import _Search, construct, solve, to_rows

from .roadef import ROADEF, needs_roadef
from .tiny import FILES, tiny_instance

SPARE = "P3 M1 FAM 0/10/50 300 1100.0 30 20 AAA NULL\n#"


def _disrupted_tiny(folder, unavailable_from: int | None, closed_hour: int | None, cancel_103: bool):
    overrides = {"aircraft.csv": FILES["aircraft.csv"].replace("#", SPARE)}
    if unavailable_from is not None:
        overrides["alt_aircraft.csv"] = f"P1 01/01/09 {unavailable_from:02d}:00 02/01/09 04:00\n#"
    if closed_hour is not None:
        overrides["alt_airports.csv"] = f"AAA 01/01/09 {closed_hour:02d}:00 01/01/09 {closed_hour + 1:02d}:00 0 0\n#"
    if cancel_103:
        overrides["alt_flights.csv"] = "102 01/01/09 30\n103 01/01/09 -1\n#"
    return tiny_instance(folder, **overrides)


# The tiny instance under random disruptions: P1 unavailable from an hour on, an hour of AAA closed (12:00 is
# 102's imposed arrival), 103 cancelled.
DISRUPTION = st.fixed_dictionaries(
    {
        "unavailable_from": st.one_of(st.none(), st.integers(13, 20)),
        "closed_hour": st.one_of(st.none(), st.sampled_from([9, 10, 11, 13, 14, 15, 16])),
        "cancel_103": st.booleans(),
    }
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    disruption=DISRUPTION,
    seed=st.integers(0, 10**6),
    moves=st.integers(1, 12),
)
def test_moves_never_break_feasibility(tmp_path_factory, disruption, seed, moves):
    instance = _disrupted_tiny(tmp_path_factory.mktemp("tiny"), **disruption)
    search = _Search(instance, seed)
    plan = construct(search.net, Weights(), list(instance.aircraft))
    assert check(instance, to_rows(plan, plan_passengers(plan))) == []
    search.offer(plan)
    for _ in range(moves):
        candidate = search.neighbour()  # every move, kept or not, must give a feasible plan
        assert check(instance, to_rows(candidate, plan_passengers(candidate))) == []
        search.offer(candidate)


def test_incumbent_only_improves_and_stays_feasible(tmp_path):
    instance = _disrupted_tiny(tmp_path, unavailable_from=13, closed_hour=None, cancel_103=False)
    seen = []
    solution, result = solve(instance, 1.0, seed=3, on_incumbent=lambda rows, cost: seen.append(cost))
    assert seen == sorted(seen, reverse=True) and result.cost.total == seen[-1]
    assert result.feasible and check(instance, solution) == []
    assert evaluate(instance, solution).total == result.cost.total


def test_a_stalled_search_ends_before_its_budget_with_the_same_plan(tmp_path):
    """The tiny instance converges at once: with a 0.3 s stall limit the search stops far inside its 30 s budget
    (without the limit it runs to the budget's end: the bound is half of it, so load cannot fail it), and its plan
    costs what a whole budget finds."""
    instance = _disrupted_tiny(tmp_path, unavailable_from=13, closed_hour=None, cancel_103=False)
    _, stalled = solve(instance, 30.0, seed=0, stall_seconds=0.3)
    assert stalled.seconds < 15.0
    _, whole = solve(instance, 1.0, seed=0)
    assert stalled.feasible and stalled.cost.total == whole.cost.total


def test_unavailable_tail_flights_move_to_the_spare(tmp_path):
    instance = _disrupted_tiny(tmp_path, unavailable_from=13, closed_hour=None, cancel_103=False)
    solution, result = solve(instance, 1.0, seed=0)
    flown_by = {f.number: f.aircraft for f in solution.flights}
    # P1 is grounded from 13:00; the AAA-based spare P3 flies 103 (itinerary 2's second leg) on time
    assert flown_by[103] == "P3" and flown_by[104] in ("P3", None)
    assert all(line.legs for line in solution.itineraries)  # nobody stranded
    # construction has P3 fly 103-104 (100/h dearer than P1 over 4 billed hours: +400); given time the
    # search also cancels what carries nobody without moving a required tail (104, 201-202): cheaper still
    assert result.cost.total <= 400.0 and result.cost.passenger_delay == 0.0


@needs_roadef
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_moves_on_a01_never_break_feasibility(seed):
    instance = read_instance(ROADEF / "A01")
    search = _Search(instance, seed)
    search.offer(construct(search.net, Weights(), list(instance.aircraft)))
    for _ in range(5):
        candidate = search.neighbour()
        assert check(instance, to_rows(candidate, plan_passengers(candidate))) == []
        search.offer(candidate)


def test_nobody_is_routed_over_a_tail_without_seats(tmp_path):
    """The CDG-ORY 'TranspCom' tails list -1 seats a cabin: the router must skip their flights and find the
    next route (here 205 at 18:00), not stop at the seatless one and cancel the trip."""
    instance = tiny_instance(
        tmp_path,
        **{
            "aircraft.csv": FILES["aircraft.csv"].replace("P2 M1 FAM 0/10/50", "P2 M1 FAM -1/-1/-1"),
            "flights.csv": FILES["flights.csv"].replace("#", "205 AAA BBB 18:00 19:00 0\n#"),
            "rotations.csv": FILES["rotations.csv"].replace("#", "205 01/01/09 P1\n#"),
        },
    )
    search = _Search(instance, 0)
    # spill_factor 0: the planner ignores seats, so 204 stays on seatless P2 (the router's case, not the planner's)
    plan = construct(search.net, Weights(cancel_factor=1.0, spill_factor=0.0), list(instance.aircraft))
    assert plan.aircraft_of[search.net.by_key[(204, 0)]] == "P2"
    lines = plan_passengers(plan)
    routed = [
        [search.net.flights[idx].number for idx, _ in line.legs]
        for line in lines
        if search.net.trips[line.trip].itinerary.id == 3
    ]
    assert routed == [[205]]
    assert check(instance, to_rows(plan, lines)) == []
