"""A hold on a flight (`Instance.held_until`: fog at its origin, a crew member out) is a time it may not leave
before — on any aircraft, or cancelled — unlike the 2009 disruption's imposed delay (that aircraft, exactly then)."""

from __future__ import annotations

from skymarshal.recovery.checker import check
from skymarshal.recovery.solver import solve

from .tiny import planned_solution, replace_flight, tiny_instance


def _held(tmp_path, minutes: int):
    """The tiny instance with 102's imposed delay turned into a hold of `minutes` on 103 (AAA-CCC, 13:00)."""
    instance = tiny_instance(tmp_path, **{"alt_flights.csv": "#"})
    return instance.model_copy(update={"held_until": {(103, 0): minutes}})


def test_a_held_flight_may_not_leave_before_its_hold(tmp_path):
    instance = _held(tmp_path, 60)
    on_time = planned_solution(instance)
    assert [v.kind for v in check(instance, on_time)] == ["departs_early"]
    held = replace_flight(on_time, 103, departure=13 * 60 + 60, arrival=13 * 60 + 60 + 90)
    held = replace_flight(held, 104, departure=15 * 60 + 30 + 30, arrival=17 * 60 + 30)  # its turn-round after
    assert [v.kind for v in check(instance, held)] == []


def test_a_held_flight_may_be_flown_by_another_aircraft_or_cancelled(tmp_path):
    instance = _held(tmp_path, 60)
    swapped = replace_flight(planned_solution(instance), 103, aircraft="P2", departure=14 * 60 + 30, arrival=16 * 60)
    assert "disrupted_flight_changed" not in {v.kind for v in check(instance, swapped)}
    cancelled = replace_flight(planned_solution(instance), 103, aircraft=None)
    assert "disrupted_flight_changed" not in {v.kind for v in check(instance, cancelled)}


def test_the_solver_keeps_a_held_flight_to_its_hold(tmp_path):
    instance = _held(tmp_path, 45)
    solution, result = solve(instance, 2.0, seed=1)
    assert result.violations == []
    flown = next(f for f in solution.flights if f.number == 103)
    assert flown.aircraft is None or flown.departure >= 13 * 60 + 45
