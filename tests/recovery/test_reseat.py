"""The MIP re-seating is feasible and never worse than the greedy; the plan's own total is the official one."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skymarshal.recovery import reseat as reseat_module
from skymarshal.recovery.aircraft_plan import Weights
from skymarshal.recovery.checker import check
from skymarshal.recovery.cost import evaluate
from skymarshal.recovery.network import build_network
from skymarshal.recovery.objectives import day_config
from skymarshal.recovery.passengers import PassengerLine, plan_passengers
from skymarshal.recovery.plan_cost import plan_total
from skymarshal.recovery.reseat import Reseater, reseat
from skymarshal.recovery.rows import to_rows
from skymarshal.recovery.solver import _Search, construct, plan_from

from .test_solver import DISRUPTION, _disrupted_tiny
from .tiny import FILES, planned_solution, tiny_instance

pytest.importorskip("highspy", reason="highspy is not installed (pip install -c constraints.txt highspy)")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    disruption=DISRUPTION,
    seed=st.integers(0, 10**6),
    moves=st.integers(0, 6),
    day_objective=st.booleans(),
)
def test_plan_total_is_the_official_total_and_reseating_only_helps(
    tmp_path_factory, disruption, seed, moves, day_objective
):
    """Under the 2009 cost and the day objective (objectives.day_config: flight delay minutes, no cancellation credit)."""
    instance = _disrupted_tiny(tmp_path_factory.mktemp("tiny"), **disruption)
    if day_objective:
        cfg = instance.config
        instance = instance.model_copy(update={"config": day_config(cfg.window_start, cfg.window_end)})
    search = _Search(instance, seed)
    search.offer(construct(search.net, Weights(), list(instance.aircraft)))
    plans = [search.incumbent] + [search.neighbour() for _ in range(moves)]
    for plan in plans:
        greedy = plan_passengers(plan)
        assert plan_total(plan, greedy) == pytest.approx(evaluate(instance, to_rows(plan, greedy)).total, abs=0.01)
        lines = reseat(plan, greedy)
        assert lines is not None
        rows = to_rows(plan, lines)
        assert check(instance, rows) == []
        assert evaluate(instance, rows).total <= evaluate(instance, to_rows(plan, greedy)).total + 0.01
        # limited to some trips, the others keep their very lines (their seats off the capacity)
        free = set(range(seed % 2, len(search.net.trips), 2))
        some = reseat(plan, greedy, free=free)
        assert some is not None
        some_ids = {id(line) for line in some}
        assert all(id(line) in some_ids for line in greedy if line.trip not in free)
        rows = to_rows(plan, some)
        assert check(instance, rows) == []
        assert evaluate(instance, rows).total <= evaluate(instance, to_rows(plan, greedy)).total + 0.01


# 204 (AAA-BBB 15:00, 60 seats) is wanted by 110 passengers: itinerary 5 (50, dearest to cancel) could take
# 205 three hours later, itinerary 4 (50) connects to 207 and has no other way to CCC.
CROWDED = {
    "flights.csv": FILES["flights.csv"].replace(
        "#",
        "205 AAA BBB 18:00 19:00 0\n206 BBB AAA 19:45 20:45 0\n207 BBB CCC 17:00 17:45 0\n208 CCC BBB 18:30 19:15 0\n#",
    ),
    "rotations.csv": FILES["rotations.csv"].replace(
        "#", "205 01/01/09 P1\n206 01/01/09 P1\n207 01/01/09 P2\n208 01/01/09 P2\n#"
    ),
    "itineraries.csv": FILES["itineraries.csv"].replace(
        "#", "4 A 50.0 50 204 01/01/09 E 207 01/01/09 E\n5 A 500.0 50 204 01/01/09 E\n#"
    ),
}


def test_a_passenger_with_a_later_flight_makes_room_for_one_without(tmp_path):
    instance = tiny_instance(tmp_path, **CROWDED)
    flown: dict[str, list[tuple[int, int, int]]] = {}
    for f in planned_solution(instance).flights:  # every flight as planned (102 with its imposed delay)
        assert f.aircraft is not None
        flown.setdefault(f.aircraft, []).append((f.number, f.day, f.departure))
    plan = plan_from(build_network(instance), flown)
    greedy = plan_passengers(plan)
    lines = reseat(plan, greedy)
    assert lines is not None
    rows = to_rows(plan, lines)
    assert check(instance, rows) == []
    # the greedy seats itinerary 5 on 204 first (its cancellation costs most) and cancels 4's passengers
    assert any(line.id == 4 and not line.legs for line in to_rows(plan, greedy).itineraries)
    assert all(line.legs for line in rows.itineraries)  # everyone travels
    assert {tuple(leg.number for leg in line.legs) for line in rows.itineraries if line.id == 4} == {(204, 207)}
    assert sum(line.passengers for line in rows.itineraries if line.id == 5 and line.legs[0].number == 205) >= 40
    assert evaluate(instance, rows).total < evaluate(instance, to_rows(plan, greedy)).total - 10_000


def test_re_seatings_go_incremental_only_once_a_whole_one_is_slow(tmp_path, monkeypatch):
    """Whole while quick (set A); once a whole re-seating is slow (set B), only the trips whose lines
    changed since the last kept one."""
    instance = tiny_instance(tmp_path, **CROWDED)
    search = _Search(instance, 0)
    search.offer(construct(search.net, Weights(), list(instance.aircraft)))
    plan, greedy = search.incumbent, plan_passengers(search.incumbent)
    asked: list[object] = []

    def fake(plan, lines, seconds, free=None):
        asked.append(free)
        return list(lines)

    monkeypatch.setattr(reseat_module, "reseat", fake)
    reseater = Reseater(0.0)
    kept = reseater(plan, greedy, 10.0)
    assert kept is not None and asked == [None]
    reseater.kept(kept)
    reseater(plan, greedy, 10.0)
    assert asked == [None, None]  # the whole one was quick: whole again
    monkeypatch.setattr(reseat_module, "WHOLE_SECONDS", -1.0)
    moved = greedy[0]
    changed = [PassengerLine(moved.trip, moved.passengers, list(moved.legs))] + greedy[1:]
    reseater(plan, changed, 10.0)
    assert asked[-1] == {moved.trip}
    assert reseater(plan, greedy, 10.0) is None  # nothing changed: nothing to re-seat
    assert len(asked) == 3
