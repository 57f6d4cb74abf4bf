"""The official solution checker's rules our checker learned (issue 34), as breaks of a clean tiny plan.

Each case: instance file overrides that make the rule bite, the break of the clean plan (None: the clean plan
itself, which must be accepted), our checker's violation kind, and the official result file that reports it.
The unit tests hold our checker to them; tests/recovery/test_official_checker.py runs the official binary
under Wine on the same files, so a case that misreads the official checker fails there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from skymarshal.recovery.model import Solution, SolutionFlight

from .tiny import FILES, delay, itinerary_line, replace_flight, replace_itinerary

# Two ground links (model TranspCom) at AAA; T1 runs a shuttle AAA-BBB-AAA in the window, 301 in the same
# clock hour as P1's 101 (AAA 09:00).
GROUND_LINKS = {
    "aircraft.csv": FILES["aircraft.csv"].replace(
        "#",
        "T1 TranspCom TranspCom -1/-1/-1 120 0.0 10 10 AAA NULL\nT2 TranspCom TranspCom -1/-1/-1 120 0.0 10 10 AAA NULL\n#",
    ),
    "flights.csv": FILES["flights.csv"].replace("#", "301 AAA BBB 09:00 10:00 0\n302 BBB AAA 11:00 12:00 0\n#"),
    "rotations.csv": FILES["rotations.csv"].replace("#", "301 01/01/09 T1\n302 01/01/09 T1\n#"),
    # one departure an hour at AAA: 101 and the shuttle's 301 share 09:00, which holds only if 301 takes no slot
    "airports.csv": FILES["airports.csv"].replace("AAA 10 10 00:00 00:00", "AAA 1 10 00:00 00:00"),
}
# AAA closed to departures 09:00-10:00 by its daily figures: the planned 101 breaks it (no hour is exempt).
NO_DEPARTURES_AT_NINE = {
    "airports.csv": FILES["airports.csv"].replace(
        "AAA 10 10 00:00 00:00", "AAA 10 10 00:00 09:00 0 10 09:00 10:00 10 10 10:00 00:00"
    )
}
# P3 waits at AAA and flies nothing, but owes a maintenance slot at BBB from 20:00 (300 minutes' flying before it).
IDLE_AWAY_FROM_MAINTENANCE = {
    "aircraft.csv": FILES["aircraft.csv"].replace(
        "#", "P3 M1 FAM 0/10/50 300 1000.0 30 20 AAA BBB-01/01/09-20:00-01/01/09-23:00-300\n#"
    )
}
# The window opens at 11:45: 102 (BBB-AAA, delayed to 11:30) has flown; itinerary 2 (102 -> 103) is half done.
HALF_FLOWN = {"config.csv": FILES["config.csv"].replace("01/01/09 08:00", "01/01/09 11:45")}
# 103 and 104 continue 102 and 103 as one multi-leg flight each (P1's transit time 20, turn-round 30).
MULTI_LEG = {
    "flights.csv": FILES["flights.csv"]
    .replace("103 AAA CCC 13:00 14:30 0", "103 AAA CCC 13:00 14:30 102")
    .replace("104 CCC AAA 15:30 17:00 0", "104 CCC AAA 15:30 17:00 103")
}


def add_flight(solution: Solution, flight: SolutionFlight) -> Solution:
    return solution.model_copy(update={"flights": solution.flights + (flight,)})


def _new_flight(duration: int = 60, previous: int = 0) -> SolutionFlight:
    # P1 ends at AAA at 17:00; a new AAA-BBB at 18:00 (dist.csv: 60 minutes)
    return SolutionFlight(
        number=999,
        origin="AAA",
        destination="BBB",
        departure=1080,
        arrival=1080 + duration,
        previous=previous,
        day=0,
        aircraft="P1",
    )


def _both(solution: Solution, **changes) -> Solution:
    return replace_flight(replace_flight(solution, 301, **changes), 302, **changes)


@dataclass(frozen=True)
class OfficialCase:
    name: str
    overrides: dict[str, str]
    change: Callable[[Solution], Solution] | None  # None: the clean plan, accepted by both checkers
    kind: str | None  # our checker's violation kind
    official_file: str | None  # the official result file that reports it
    also: tuple[str, ...] = ()  # our other kinds the same break causes


CASES = [
    OfficialCase("ground link shares an hour with a flight", GROUND_LINKS, None, None, None),
    OfficialCase(
        "ground link cancelled",
        GROUND_LINKS,
        lambda s: _both(s, aircraft=None),
        "fixed_flight_changed",
        "checkFixedFlights.txt",
    ),
    OfficialCase(
        "ground link retimed",
        GROUND_LINKS,
        lambda s: delay(s, 302, 10),
        "fixed_flight_changed",
        "checkFixedFlights.txt",
    ),
    OfficialCase(
        "ground link reassigned",
        GROUND_LINKS,
        lambda s: _both(s, aircraft="T2"),
        "fixed_flight_changed",
        "checkFixedFlights.txt",
    ),
    OfficialCase(
        "planned departure in a closed hour",
        NO_DEPARTURES_AT_NINE,
        lambda s: s,
        "departure_capacity",
        "checkAirportCapacity.txt",
    ),
    OfficialCase(
        "idle tail away from its maintenance airport",
        IDLE_AWAY_FROM_MAINTENANCE,
        lambda s: s,
        "maintenance_position",
        "checkRotation.txt",
    ),
    OfficialCase(
        "half-flown trip stops where the recovery leaves it",
        HALF_FLOWN,
        lambda s: replace_itinerary(s, 2, itinerary_line(2, "R", 150.0, 5, (102, "B"))),
        None,
        None,
    ),
    OfficialCase(
        "half-flown trip cancelled",
        HALF_FLOWN,
        lambda s: replace_itinerary(s, 2, itinerary_line(2, "R", 150.0, 5)),
        "fixed_itinerary_part",
        "checkItinerary.txt",
    ),
    OfficialCase(
        "inbound trip ends elsewhere",
        {},
        lambda s: replace_itinerary(s, 2, itinerary_line(2, "R", 150.0, 5, (102, "B"))),
        "final_destination",
        "checkPassengerReac.txt",
    ),
    OfficialCase(
        "flight leaves early",
        {},
        lambda s: delay(s, 204, -10),
        "departs_early",
        "checkFlight.txt",
        also=("departs_before_original",),  # itinerary 3 flies on it
    ),
    OfficialCase("multi-leg flights", MULTI_LEG, None, None, None),
    OfficialCase(
        "multi-leg link dropped",
        MULTI_LEG,
        lambda s: replace_flight(s, 104, previous=0),
        "flight_changed",
        "checkFlight.txt",
    ),
    OfficialCase("multi-leg below transit", MULTI_LEG, lambda s: delay(s, 103, 45), "transit", "checkRotation.txt"),
    OfficialCase(
        "new flight off its route's duration",
        {},
        lambda s: add_flight(s, _new_flight(duration=50)),
        "new_flight_invalid",
        "checkFlight.txt",
    ),
    OfficialCase(
        "new flight linked",
        {},
        lambda s: add_flight(s, _new_flight(previous=104)),
        "new_flight_linked",
        "checkFlight.txt",
    ),
]
