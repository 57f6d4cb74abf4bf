"""Incremental seating: a move's plan inherits its base's untouched lines; its cost is the official one."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skymarshal.recovery.aircraft_plan import Weights
from skymarshal.recovery.checker import check
from skymarshal.recovery.cost import evaluate
from skymarshal.recovery.incremental import changed_flights, full_seating, reached, reseat_touched
from skymarshal.recovery.plan_cost import aircraft_total
from skymarshal.recovery.rows import to_rows
from skymarshal.recovery.solver import _Search, construct

from .test_solver import DISRUPTION, _disrupted_tiny


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    disruption=DISRUPTION,
    seed=st.integers(0, 10**6),
    moves=st.integers(1, 8),
)
def test_incremental_seating_is_feasible_and_its_cost_is_evaluates(tmp_path_factory, disruption, seed, moves):
    instance = _disrupted_tiny(tmp_path_factory.mktemp("tiny"), **disruption)
    search = _Search(instance, seed)
    base = construct(search.net, Weights(), list(instance.aircraft))
    seating = full_seating(base)
    for _ in range(moves):
        search.best_plan = base
        candidate = search.neighbour()
        derived = reseat_touched(candidate, base, seating)
        rows = to_rows(candidate, derived.lines)
        assert derived.passenger_cost + aircraft_total(candidate) == pytest.approx(
            evaluate(instance, rows).total, abs=0.01
        )
        assert check(instance, rows) == []
        carried = Counter()
        for line in derived.lines:
            carried[line.trip] += line.passengers
        assert carried == {t: trip.itinerary.passengers for t, trip in enumerate(search.net.trips)}
        if not changed_flights(candidate, base):  # nothing changed: every trip the base takes home keeps its lines
            short = {ln.trip for ln in seating.lines if not reached(base, ln)}
            derived_ids = {id(ln) for ln in derived.lines}
            assert all(id(ln) in derived_ids for ln in seating.lines if ln.trip not in short)
            # and a trip left short is seated again only where that is cheaper
            assert derived.passenger_cost <= seating.passenger_cost + 0.01
        base, seating = candidate, derived  # the next move derives from this one
