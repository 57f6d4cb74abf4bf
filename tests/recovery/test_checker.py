"""The checker on the tiny instance: the plan is feasible; each case breaks one constraint once."""

from __future__ import annotations

import pytest

from skymarshal.recovery.checker import check
from skymarshal.recovery.model import SolutionFlight

from .tiny import FILES, planned_solution, replace_flight, replace_itinerary, tiny_instance
from .tiny import itinerary_line as _itinerary

CONFIG = FILES["config.csv"]


def _new_flight(number, origin, destination, departure, duration, aircraft):
    return SolutionFlight(
        number=number,
        origin=origin,
        destination=destination,
        departure=departure,
        arrival=departure + duration,
        previous=0,
        day=0,
        aircraft=aircraft,
    )


def _add(solution, flight):
    return solution.model_copy(update={"flights": solution.flights + (flight,)})


def _drop(solution, number):
    return solution.model_copy(update={"flights": tuple(f for f in solution.flights if f.number != number)})


def _delay(solution, number, minutes):
    f = next(f for f in solution.flights if f.number == number)
    return replace_flight(solution, number, departure=f.departure + minutes, arrival=f.arrival + minutes)


def _reassign(solution, source, target):
    flights = tuple(f.model_copy(update={"aircraft": target}) if f.aircraft == source else f for f in solution.flights)
    return solution.model_copy(update={"flights": flights})


# (case, instance file overrides, solution change, the one violation kind expected)
CASES = [
    ("missing", {}, lambda s: _drop(_drop(s, 204), 203), "missing_flight"),
    ("duplicate", {}, lambda s: _add(s, next(f for f in s.flights if f.number == 204)), "duplicate_flight"),
    ("duration", {}, lambda s: replace_flight(s, 204, arrival=970), "flight_changed"),
    ("early", {}, lambda s: _delay(s, 204, -10), "departs_early"),
    (
        "new flight duration",
        {},
        lambda s: _add(s, _new_flight(999, "AAA", "BBB", 1080, 50, "P1")),
        "new_flight_invalid",
    ),
    (
        "new flight cancelled",
        {},
        lambda s: _add(s, _new_flight(999, "AAA", "BBB", 1080, 60, None)),
        "new_flight_cancelled",
    ),
    (
        "fixed",
        {"config.csv": CONFIG.replace("01/01/09 08:00", "01/01/09 09:15")},
        lambda s: _delay(s, 101, 5),
        "fixed_flight_changed",
    ),
    ("disrupted", {}, lambda s: _delay(s, 102, -30), "disrupted_flight_changed"),
    (
        "imposed cancellation",
        {"alt_flights.csv": "102 01/01/09 30\n204 01/01/09 -1\n#"},
        lambda s: replace_itinerary(s, 3, _itinerary(3, "A", 80.0, 10)),
        "imposed_cancellation_ignored",
    ),
    (
        "after end",
        {"config.csv": CONFIG.replace("02/01/09 04:00", "01/01/09 16:45")},
        lambda s: s,
        "after_recovery_end",
    ),
    ("unknown aircraft", {}, lambda s: _reassign(s, "P2", "ZZ9"), "unknown_aircraft"),
    (
        "initial position",
        {"aircraft.csv": FILES["aircraft.csv"].replace("30 20 AAA", "30 20 CCC")},
        lambda s: s,
        "initial_position",
    ),
    ("continuity", {}, lambda s: replace_flight(s, 204, aircraft="P1"), "rotation_continuity"),
    ("turn-round", {}, lambda s: _delay(s, 202, 60), "turn_round"),
    (
        "transit",
        {
            "flights.csv": FILES["flights.csv"].replace("103 AAA CCC 13:00 14:30 0", "103 AAA CCC 13:00 14:30 102"),
            "aircraft.csv": FILES["aircraft.csv"].replace("1000.0 30 20", "1000.0 20 40"),
        },
        lambda s: s,
        "transit",
    ),
    (
        "range",
        {"aircraft.csv": FILES["aircraft.csv"].replace("0/10/50 300 1000.0", "0/10/50 80 1000.0")},
        lambda s: s,
        "range",
    ),
    (
        "family",
        {"aircraft.csv": FILES["aircraft.csv"].replace("#", "P3 M9 OTHER 0/10/50 300 900.0 30 20 AAA NULL\n#")},
        lambda s: _reassign(s, "P1", "P3"),
        "swap_family",
    ),
    ("unavailability", {"alt_aircraft.csv": "P1 01/01/09 13:30 01/01/09 14:00\n#"}, lambda s: s, "unavailability"),
    (
        "maintenance airport",
        {"aircraft.csv": FILES["aircraft.csv"].replace("AAA NULL", "AAA BBB-01/01/09-12:40-01/01/09-12:50-999")},
        lambda s: s,
        "maintenance_position",
    ),
    (
        "maintenance limit",
        {"aircraft.csv": FILES["aircraft.csv"].replace("AAA NULL", "AAA AAA-01/01/09-12:35-01/01/09-12:55-60")},
        lambda s: s,
        "maintenance_flying_limit",
    ),
    (
        "departures",
        {"alt_airports.csv": "AAA 01/01/09 09:00 01/01/09 10:00 0 10\n#"},
        lambda s: s,
        "departure_capacity",
    ),
    ("arrivals", {"alt_airports.csv": "BBB 01/01/09 10:00 01/01/09 11:00 10 0\n#"}, lambda s: s, "arrival_capacity"),
    (
        "cabin",
        {"itineraries.csv": FILES["itineraries.csv"].replace("1 A 100.0 20", "1 A 100.0 60")},
        lambda s: s,
        "cabin_capacity",
    ),
    (
        "unknown itinerary",
        {},
        lambda s: replace_itinerary(s, 99, _itinerary(99, "A", 1.0, 1, (204, "E"))),
        "itinerary_unknown",
    ),
    ("type", {}, lambda s: replace_itinerary(s, 1, _itinerary(1, "R", 100.0, 20, (101, "E"))), "itinerary_changed"),
    ("count", {}, lambda s: replace_itinerary(s, 1, _itinerary(1, "A", 100.0, 19, (101, "E"))), "passenger_count"),
    ("cancelled flight taken", {}, lambda s: replace_flight(s, 204, aircraft=None), "cancelled_flight_taken"),
    (
        "departs before",
        {},
        lambda s: replace_itinerary(s, 3, _itinerary(3, "A", 80.0, 10, (101, "E"))),
        "departs_before_original",
    ),
    (
        "destination",
        {},
        lambda s: replace_itinerary(s, 1, _itinerary(1, "A", 100.0, 20, (103, "E"))),
        "final_destination",
    ),
    (
        "max delay",
        {"config.csv": CONFIG.replace("02/01/09 04:00", "03/01/09 04:00")},
        lambda s: replace_itinerary(_delay(s, 204, 800), 1, _itinerary(1, "A", 100.0, 20, (204, "E"))),
        "max_delay",
    ),
    (
        "fixed itinerary part",
        {"config.csv": CONFIG.replace("01/01/09 08:00", "01/01/09 09:15")},
        lambda s: replace_itinerary(s, 1, _itinerary(1, "A", 100.0, 20, (204, "E"))),
        "fixed_itinerary_part",
    ),
]


def test_planned_solution_is_feasible(tmp_path):
    instance = tiny_instance(tmp_path)
    assert check(instance, planned_solution(instance)) == []


@pytest.mark.parametrize("overrides,change,kind", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_constraint_reported(tmp_path, overrides, change, kind):
    instance = tiny_instance(tmp_path, **overrides)
    violations = check(instance, change(planned_solution(instance)))
    assert kind in {v.kind for v in violations}, violations
    assert all(v.message for v in violations)


@pytest.mark.parametrize(
    "change,kinds",
    [
        (lambda s: _delay(s, 202, 60), {"turn_round"}),
        (lambda s: replace_itinerary(s, 3, _itinerary(3, "A", 80.0, 10, (101, "E"))), {"departs_before_original"}),
        (lambda s: replace_flight(s, 204, aircraft=None), {"cancelled_flight_taken"}),
    ],
)
def test_single_breach_reports_only_itself(tmp_path, change, kinds):
    instance = tiny_instance(tmp_path)
    assert {v.kind for v in check(instance, change(planned_solution(instance)))} == kinds


def test_rebooking_onto_a_flight_before_the_window_is_refused(tmp_path):
    config = FILES["config.csv"].replace("01/01/09 08:00", "01/01/09 09:15")  # 101 has left when the window opens
    instance = tiny_instance(tmp_path, **{"config.csv": config})
    solution = replace_itinerary(planned_solution(instance), 3, _itinerary(3, "A", 80.0, 10, (101, "E")))
    assert "fixed_itinerary_part" in {v.kind for v in check(instance, solution)}


def test_a_new_flight_is_refused_where_the_instance_allows_none(tmp_path):
    """P1 back at AAA from 17:00 flies AAA-BBB at 18:00: a valid new flight in the 2009 problem, refused where the
    instance allows none (CostConfig.new_flights: the day objective, whose plans the day must be able to write)."""
    instance = tiny_instance(tmp_path)
    ferry = _add(planned_solution(instance), _new_flight(999, "AAA", "BBB", 1080, 60, "P1"))
    assert check(instance, ferry) == []
    closed = instance.model_copy(update={"config": instance.config.model_copy(update={"new_flights": False})})
    assert {v.kind for v in check(closed, ferry)} == {"new_flight_forbidden"}
