"""A hand-built ROADEF 2009 instance small enough to cost by hand.

Two aircraft of one family: P1 flies AAA-BBB-AAA-CCC-AAA, P2 flies BBB-CCC-BBB-AAA-BBB. Flight 102 has an
imposed 30-minute delay; itinerary 2 connects 102 -> 103 at AAA (60 minutes planned, 30 after the delay).
"""

from __future__ import annotations

from pathlib import Path

from skymarshal.recovery.model import Instance, Leg, Solution, SolutionFlight, SolutionItinerary
from skymarshal.recovery.parser import read_instance

FILES = {
    "config.csv": """01/01/09 08:00 02/01/09 04:00
F D 1.0 F C 1.0 F I 1.0 B D 0.5 B C 0.6 B I 0.7 E D 0.1 E C 0.2 E I 0.3
F D 1000.0 F C 1100.0 F I 1200.0 B D 500.0 B C 550.0 B I 600.0 E D 100.0 E C 150.0 E I 200.0
F D 2000.0 F C 2100.0 F I 2200.0 B D 900.0 B C 950.0 B I 1000.0 E D 300.0 E C 350.0 E I 400.0
F B D 100.0 F B C 110.0 F B I 120.0 F E D 200.0 F E C 210.0 F E I 220.0 B E D 50.0 B E C 60.0 B E I 70.0
20000.0 5000.0 1000.0
1.0 1.0 1.0
#""",
    "airports.csv": """AAA 10 10 00:00 00:00
BBB 10 10 00:00 00:00
CCC 0 0 00:00 06:00 10 10 06:00 00:00
#""",
    "dist.csv": """AAA BBB 60 D
BBB AAA 60 D
AAA CCC 90 C
CCC AAA 90 C
BBB CCC 45 D
CCC BBB 45 D
#""",
    "flights.csv": """101 AAA BBB 09:00 10:00 0
102 BBB AAA 11:00 12:00 0
103 AAA CCC 13:00 14:30 0
104 CCC AAA 15:30 17:00 0
201 BBB CCC 09:30 10:15 0
202 CCC BBB 11:00 11:45 0
203 BBB AAA 13:00 14:00 0
204 AAA BBB 15:00 16:00 0
#""",
    "aircraft.csv": """P1 M1 FAM 0/10/50 300 1000.0 30 20 AAA NULL
P2 M1 FAM 0/10/50 300 1200.0 30 20 BBB NULL
#""",
    "rotations.csv": """101 01/01/09 P1
102 01/01/09 P1
103 01/01/09 P1
104 01/01/09 P1
201 01/01/09 P2
202 01/01/09 P2
203 01/01/09 P2
204 01/01/09 P2
#""",
    "itineraries.csv": """1 A 100.0 20 101 01/01/09 E
2 R 150.0 5 102 01/01/09 B 103 01/01/09 E
3 A 80.0 10 204 01/01/09 E
#""",
    "position.csv": """AAA M1 0/10/50 1 #
BBB M1 0/10/50 1 #
#""",
    "alt_flights.csv": "102 01/01/09 30\n#",
    "alt_aircraft.csv": "#",
    "alt_airports.csv": "#",
}


def write_tiny(folder: Path, **overrides: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in {**FILES, **overrides}.items():
        (folder / name).write_text(text + "\n")
    return folder


def tiny_instance(folder: Path, **overrides: str) -> Instance:
    return read_instance(write_tiny(folder, **overrides))


def planned_solution(instance: Instance) -> Solution:
    """The plan as scheduled, imposed delays applied, every passenger as booked: feasible on the tiny one."""
    flights = []
    for ref, aircraft in instance.rotations:
        template = instance.flights[ref.number]
        departure = ref.day * 1440 + template.departure + instance.imposed_delays.get((ref.number, ref.day), 0)
        flights.append(
            SolutionFlight(
                number=ref.number,
                origin=template.origin,
                destination=template.destination,
                departure=departure,
                arrival=departure + template.duration,
                previous=template.previous,
                day=ref.day,
                aircraft=aircraft,
            )
        )
    itineraries = [
        SolutionItinerary(id=i.id, kind=i.kind, price=i.price, passengers=i.passengers, legs=i.legs)
        for i in instance.itineraries
    ]
    return Solution(flights=tuple(flights), itineraries=tuple(itineraries))


def replace_flight(solution: Solution, number: int, **changes) -> Solution:
    flights = tuple(f.model_copy(update=changes) if f.number == number else f for f in solution.flights)
    return solution.model_copy(update={"flights": flights})


def replace_itinerary(solution: Solution, itinerary_id: int, *lines: SolutionItinerary) -> Solution:
    kept = tuple(i for i in solution.itineraries if i.id != itinerary_id)
    return solution.model_copy(update={"itineraries": kept + lines})


def delay(solution: Solution, number: int, minutes: int) -> Solution:
    f = next(f for f in solution.flights if f.number == number)
    return replace_flight(solution, number, departure=f.departure + minutes, arrival=f.arrival + minutes)


def itinerary_line(itinerary_id: int, kind, price: float, passengers: int, *legs) -> SolutionItinerary:
    """One line of sol_itineraries.csv on day 0: legs as (flight number, cabin); none means cancelled."""
    return SolutionItinerary(
        id=itinerary_id,
        kind=kind,
        price=price,
        passengers=passengers,
        legs=tuple(Leg(number=n, day=0, cabin=c) for n, c in legs),
    )
