"""The strict reading of connections (issue #22) and the keep-unbooked ranking, on the tiny instance.

`broken_tiny`: the window opens at 13:30; 102 (BBB-AAA) is delayed 45 min to 11:45-12:45, so itinerary 2
(102 -> 103 at AAA, 103 leaving at 13:00) has 15 minutes to connect, before the window. 105 (AAA-CCC 18:00)
is the later flight that can carry them from the connection airport.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skymarshal.cli import main
from skymarshal.recovery.aircraft_plan import Weights
from skymarshal.recovery.checker import MIN_CONNECTION, check, flown_history, unbooked_cancellations
from skymarshal.recovery.model import LENIENT, STRICT, Leg, Rules, SolutionItinerary
from skymarshal.recovery.passengers import plan_passengers
from skymarshal.recovery.solver import _Search, construct, solve, to_rows

from .tiny import FILES, planned_solution, replace_flight, replace_itinerary, tiny_instance, write_tiny

EXTRA_FLIGHTS = "105 AAA CCC 18:00 19:30 0\n106 CCC AAA 20:30 22:00 0\n#"
EXTRA_ROTATIONS = "105 01/01/09 P1\n106 01/01/09 P1\n#"


def broken_overrides(window: str = "13:30", delay: int = 45) -> dict[str, str]:
    return {
        "config.csv": FILES["config.csv"].replace("01/01/09 08:00", f"01/01/09 {window}"),
        "flights.csv": FILES["flights.csv"].replace("#", EXTRA_FLIGHTS),
        "rotations.csv": FILES["rotations.csv"].replace("#", EXTRA_ROTATIONS),
        # a 10-minute turn-round keeps P1's own rotation legal at any of these delays: only passengers break
        "aircraft.csv": FILES["aircraft.csv"].replace(
            "P1 M1 FAM 0/10/50 300 1000.0 30 20", "P1 M1 FAM 0/10/50 300 1000.0 10 5"
        ),
        "alt_flights.csv": f"102 01/01/09 {delay}\n#",
    }


def broken_tiny(folder, **kwargs):
    return tiny_instance(folder, **broken_overrides(**kwargs))


def _line(*legs, passengers=5):
    return SolutionItinerary(
        id=2, kind="R", price=150.0, passengers=passengers, legs=tuple(Leg(number=n, day=0, cabin=c) for n, c in legs)
    )


def test_connection_broken_before_the_window_is_reported_only_when_strict(tmp_path):
    instance = broken_tiny(tmp_path)
    kept = planned_solution(instance)  # itinerary 2 still on 102 -> 103, 15 minutes apart
    assert check(instance, kept, LENIENT) == []
    assert {v.kind for v in check(instance, kept, STRICT)} == {"connection_time", "fixed_itinerary_part"}
    assert check(instance, kept) == check(instance, kept, STRICT)  # strict is the default


def test_the_minimum_connection_is_the_instances_own(tmp_path):
    """Itinerary 2 connects 102 -> 103 in 30 minutes once 102's imposed delay is flown: legal at the
    challenge's 30, reported under an airline's MCT of 31 or more."""
    instance = tiny_instance(tmp_path)
    kept = planned_solution(instance)
    assert check(instance, kept) == []
    reported = check(instance.model_copy(update={"min_connection": 31}), kept)
    assert {v.kind for v in reported} == {"connection_time"}


def test_history_ends_at_the_connection_airport_when_strict(tmp_path):
    instance = broken_tiny(tmp_path)
    itinerary = next(i for i in instance.itineraries if i.id == 2)
    assert flown_history(instance, itinerary, STRICT) == [(102, 0)]
    assert flown_history(instance, itinerary, LENIENT) == [(102, 0), (103, 0)]


def test_repair_from_the_connection_airport_after_the_window(tmp_path):
    instance = broken_tiny(tmp_path)
    repaired = replace_itinerary(planned_solution(instance), 2, _line((102, "B"), (105, "B")))
    assert check(instance, repaired, STRICT) == []
    assert {v.kind for v in check(instance, repaired, LENIENT)} == {"fixed_itinerary_part"}
    # Passengers who flew 102 before the window cannot be cancelled (official checker: "Fixed part of itinerary 2
    # missing flight(s) 102"); with no way on they stop at the connection airport, costed as a cancelled trip.
    cancelled = replace_itinerary(planned_solution(instance), 2, _line())
    for rules in (STRICT, LENIENT):
        assert {v.kind for v in check(instance, cancelled, rules)} == {"fixed_itinerary_part"}
    stopped = replace_itinerary(planned_solution(instance), 2, _line((102, "B")))
    assert check(instance, stopped, STRICT) == []


def test_solver_repairs_the_broken_connection_under_strict(tmp_path):
    instance = broken_tiny(tmp_path)
    solution, result = solve(instance, 0.5, seed=1)
    assert result.feasible and result.rules == STRICT and check(instance, solution, STRICT) == []
    lines = [line for line in solution.itineraries if line.id == 2]
    # re-accommodated from AAA on 105 (18:00), not cancelled and not left on the missed 103
    assert [[(leg.number, leg.cabin) for leg in line.legs] for line in lines] == [[(102, "B"), (105, "B")]]
    _, lenient = solve(instance, 0.5, seed=1, rules=LENIENT)
    assert lenient.feasible and lenient.cost.total < result.cost.total  # the lenient total skips the repair


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    window=st.sampled_from(["09:30", "10:45", "11:30", "12:50", "13:05", "13:30", "14:00"]),
    delay=st.integers(0, 50),
    seed=st.integers(0, 10**6),
    moves=st.integers(0, 6),
    min_connection=st.sampled_from([MIN_CONNECTION, 45, 60]),
)
def test_strict_plans_never_keep_a_short_connection(tmp_path_factory, window, delay, seed, moves, min_connection):
    """Whatever the delay, where the window opens and the minimum connection (the challenge's 30 minutes or an
    airline's MCT), every plan the solver builds or moves to is strict feasible, and (computed here, not by the
    checker) no passenger line connects in under the minimum."""
    instance = broken_tiny(tmp_path_factory.mktemp("tiny"), window=window, delay=delay)
    instance = instance.model_copy(update={"min_connection": min_connection})
    search = _Search(instance, seed)
    plan = construct(search.net, Weights(), list(instance.aircraft))
    search.offer(plan)
    for _ in range(moves + 1):
        rows = to_rows(plan, plan_passengers(plan))
        assert check(instance, rows, STRICT) == []
        times = {(f.number, f.day): (f.departure, f.arrival) for f in rows.flights if f.aircraft}
        for line in rows.itineraries:
            for a, b in zip(line.legs, line.legs[1:]):
                assert times[(b.number, b.day)][0] - times[(a.number, a.day)][1] >= min_connection
        plan = search.neighbour()
        search.offer(plan)


def test_unbooked_cancellations_are_listed_not_infeasible(tmp_path):
    instance = tiny_instance(tmp_path)
    solution = replace_flight(replace_flight(planned_solution(instance), 201, aircraft=None), 202, aircraft=None)
    assert check(instance, solution) == []  # P2 stays at BBB: a legal plan
    assert [v.kind for v in unbooked_cancellations(instance, solution)] == ["unbooked_flight_cancelled"] * 2


def test_keep_unbooked_flies_every_unbooked_flight_it_can(tmp_path):
    instance = tiny_instance(
        tmp_path,
        **{"aircraft.csv": FILES["aircraft.csv"].replace("#", "P3 M1 FAM 0/10/50 300 1100.0 30 20 AAA NULL\n#")},
    )
    solution, result = solve(instance, 0.5, seed=0, rules=Rules(keep_unbooked=True))
    assert result.feasible and result.unbooked_cancelled == 0
    assert unbooked_cancellations(instance, solution) == []


def test_cli_reads_the_rules(tmp_path, capsys):
    folder = write_tiny(tmp_path / "inst", **broken_overrides())
    assert (
        main(
            [
                "recover",
                str(folder),
                "--out",
                str(tmp_path / "out"),
                "--time-limit",
                "0.3",
                "--connections",
                "lenient",
                "--keep-unbooked",
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert "lenient" in printed and "feasible" in printed
