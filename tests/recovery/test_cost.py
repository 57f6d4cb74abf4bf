"""The cost evaluator against costs worked out by hand on the tiny instance (alpha = beta = gamma = 1).

Reminders for the arithmetic: operating costs bill started hours (45 or 60 min -> 1 h, 90 min -> 2 h),
compensation bands are < 2 h / < 4.5 h / longer, and a trip ending elsewhere counts as an inbound
cancellation.
"""

from __future__ import annotations

import pytest

from skymarshal.recovery.cost import billed_hours, delay_compensation, evaluate, format_report
from skymarshal.recovery.model import SolutionFlight

from .tiny import FILES, planned_solution, replace_flight, replace_itinerary, tiny_instance
from .tiny import itinerary_line as _line


def _delay(solution, number, minutes):
    f = next(f for f in solution.flights if f.number == number)
    return replace_flight(solution, number, departure=f.departure + minutes, arrival=f.arrival + minutes)


def _swap_rotations(solution):
    other = {"P1": "P2", "P2": "P1"}
    return solution.model_copy(
        update={"flights": tuple(f.model_copy(update={"aircraft": other[f.aircraft]}) for f in solution.flights)}
    )


def _cancel_p1_afternoon(solution):
    solution = replace_flight(replace_flight(solution, 103, aircraft=None), 104, aircraft=None)
    return replace_itinerary(solution, 2, _line(2, "R", 150.0, 5, (102, "B")))


def _cancel_204(solution):
    return replace_itinerary(replace_flight(solution, 204, aircraft=None), 3, _line(3, "A", 80.0, 10))


NEW_FLIGHT = SolutionFlight(
    number=999, origin="AAA", destination="BBB", departure=1080, arrival=1140, previous=0, day=0, aircraft="P1"
)

CASES = [
    ("plan", lambda s: s, {"total": 0.0}),
    # 20 passengers E/domestic: 20 x 100 outbound + 20 x (100 price + 250 under 2 h)
    (
        "cancel trip",
        lambda s: replace_itinerary(s, 1, _line(1, "A", 100.0, 20)),
        {"outbound_cancellation": 2000.0, "cancellation_compensation": 7000.0, "total": 9000.0},
    ),
    # 10 passengers x 0.1 x 200 min; 200 > 120 min threshold of a 60-min trip: 15 each
    (
        "delay 200",
        lambda s: _delay(s, 204, 200),
        {"passenger_delay": 200.0, "delay_compensation": 150.0, "total": 350.0},
    ),
    # past 5 h: 15 + 60 hotel each
    (
        "delay 301",
        lambda s: _delay(s, 204, 301),
        {"passenger_delay": 301.0, "delay_compensation": 750.0, "total": 1051.0},
    ),
    # trip 2 (B, continental, 150 planned min) stranded at AAA: 5 x 950 inbound, 5 x (150 + 400);
    # flights 103 and 104 (90 min -> 2 h each at 1000/h) saved
    (
        "cancel flights",
        _cancel_p1_afternoon,
        {
            "inbound_cancellation": 4750.0,
            "cancellation_compensation": 2750.0,
            "operating_cost_decrease": 4000.0,
            "total": 3500.0,
        },
    ),
    # P1's 6 billed hours at +200/h, P2's 4 at -200/h; both end where an M1 is wanted
    ("swap", _swap_rotations, {"swapped_aircraft_cost": 400.0, "end_position_penalty": 0.0, "total": 400.0}),
    # BBB left without its M1: family penalty; 204 saved (1 h x 1200)
    (
        "end position",
        _cancel_204,
        {
            "outbound_cancellation": 1000.0,
            "cancellation_compensation": 3300.0,
            "operating_cost_decrease": 1200.0,
            "end_position_penalty": 20000.0,
            "total": 23100.0,
        },
    ),
    # leg 102 booked in B flown in E: B->E domestic 50 x 5 passengers; leg 103 flown as booked is free
    (
        "downgrade",
        lambda s: replace_itinerary(s, 2, _line(2, "R", 150.0, 5, (102, "E"), (103, "E"))),
        {"downgrading": 250.0, "total": 250.0},
    ),
    # a new AAA-BBB hour at 1000/h, and AAA then misses its M1
    (
        "new flight",
        lambda s: s.model_copy(update={"flights": s.flights + (NEW_FLIGHT,)}),
        {"operating_cost_increase": 1000.0, "end_position_penalty": 20000.0, "total": 21000.0},
    ),
]


@pytest.mark.parametrize("change,expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hand_computed_costs(tmp_path, change, expected):
    instance = tiny_instance(tmp_path)
    breakdown = evaluate(instance, change(planned_solution(instance))).model_dump()
    for component, value in expected.items():
        assert breakdown[component] == value, component
    others = set(breakdown) - set(expected) - {"total"}
    assert all(breakdown[c] == 0.0 for c in others), breakdown


@pytest.mark.parametrize("spare,penalty", [("P3 M2 FAM 0/10/50", 5000.0), ("P3 M1 FAM 0/0/60", 1000.0)])
def test_end_position_model_and_configuration_penalties(tmp_path, spare, penalty):
    aircraft = FILES["aircraft.csv"].replace("#", f"{spare} 300 900.0 30 20 BBB NULL\n#")
    instance = tiny_instance(tmp_path, **{"aircraft.csv": aircraft})
    assert evaluate(instance, _cancel_204(planned_solution(instance))).end_position_penalty == penalty


def test_weights_apply_per_group(tmp_path):
    config = FILES["config.csv"].replace("1.0 1.0 1.0", "2.0 0.5 0.1")
    instance = tiny_instance(tmp_path, **{"config.csv": config})
    # alpha x (2750 compensation - 4000 saved) + beta x 4750 inbound
    assert evaluate(instance, _cancel_p1_afternoon(planned_solution(instance))).total == -125.0


@pytest.mark.parametrize("minutes,hours", [(1, 1), (30, 1), (60, 1), (61, 2), (80, 2), (120, 2), (121, 3)])
def test_billed_hours(minutes, hours):
    assert billed_hours(minutes) == hours


@pytest.mark.parametrize(
    "planned,delay,amount",
    [
        (119, 120, 0.0),
        (119, 121, 15.0),
        (120, 180, 0.0),
        (120, 181, 15.0),
        (270, 240, 0.0),
        (270, 241, 15.0),
        (270, 301, 75.0),
    ],
)
def test_delay_compensation_thresholds(planned, delay, amount):
    assert delay_compensation(planned, delay) == amount


def test_report_has_the_official_layout(tmp_path):
    instance = tiny_instance(tmp_path)
    report = format_report(evaluate(instance, planned_solution(instance))).splitlines()
    assert report[0] == "Passenger Delay Cost: 0.00" and report[-2] == "" and report[-1] == "Total Cost: 0.00"
    assert len(report) == 12


def test_the_trip_facts_cache_never_keeps_an_instance_alive(tmp_path):
    import gc
    import weakref

    from skymarshal.recovery import cost

    instance = tiny_instance(tmp_path)
    facts = cost.all_trip_facts(instance)
    assert cost.all_trip_facts(instance) is facts  # computed once while the instance lives
    alive = weakref.ref(instance)
    assert instance in cost._FACTS
    held = len(cost._FACTS)
    del instance
    gc.collect()
    assert alive() is None and len(cost._FACTS) == held - 1
