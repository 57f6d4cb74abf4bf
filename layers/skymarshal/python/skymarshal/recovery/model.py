"""The ROADEF/EURO 2009 recovery problem as pydantic models: an instance and a solution.

Times are whole minutes from midnight of the recovery window's first day ("day 0"), so every comparison in
the checker and the solver is integer arithmetic; dates are day indices relative to day 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

Cabin = Literal["F", "B", "E"]
Haul = Literal["D", "C", "I"]
ItineraryKind = Literal["A", "R"]  # A outbound (one way or first half), R inbound
CABINS: tuple[Cabin, ...] = ("F", "B", "E")  # highest first: a lower index is a better cabin
HAULS: tuple[Haul, ...] = ("D", "C", "I")  # shortest first: the longest leg decides an itinerary's haul
MINUTES_PER_DAY = 1440
# The CDG-ORY ground transfers listed as flights (0 per hour, -1 seats). The official solution checker treats
# their flights as fixed (never cancelled, retimed or reassigned) and leaves them out of airport capacity.
GROUND_LINK_MODEL = "TranspCom"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CostConfig(_Frozen):
    """config.csv: the window and every cost coefficient (keys are cabin+haul, e.g. "BI")."""

    window_start: int
    window_end: int
    delay_per_minute: dict[str, float]
    outbound_cancellation: dict[str, float]
    inbound_cancellation: dict[str, float]
    downgrade: dict[str, float]  # key: from-cabin + to-cabin + haul, e.g. "FED"
    penalty_family: float
    penalty_model: float
    penalty_config: float
    alpha: float
    beta: float
    gamma: float
    # The 2009 cost subtracts a cancelled planned flight's operating cost; the day scorecard (the day objective,
    # objectives.day_config) saves nothing by cancelling a flight its passengers then lose.
    credit_cancelled_flights: bool = True
    # What a planned flight's minute of delay costs the airline beyond its passengers' (none in the 2009 cost; the
    # day scorecard's operating cost counts each delay minute of each flight, rules.finance.delay_cost).
    flight_delay_per_minute: float = 0.0
    # What a tail swap costs: None, the 2009 cost's difference of hourly costs over each swapped flight's billed
    # hours; a price, the day scorecard's, once per pair (planned tail, flying tail) whatever the flights
    # (rules.finance.tail_swap_cost: a cheaper type earns nothing there).
    swap_per_tail_pair: float | None = None
    # Whether a plan may fly new flights: the 2009 plans may; a day's plan cannot write one
    # (adapter.planned_changes), so the day objective allows none.
    new_flights: bool = True


class CapacityWindow(_Frozen):
    """Movements allowed per clock hour in [start, end) (minutes; daily windows use minutes of the day)."""

    departures: int
    arrivals: int
    start: int
    end: int


class Airport(_Frozen):
    code: str
    daily: tuple[CapacityWindow, ...]


class Route(_Frozen):
    duration: int
    haul: Haul


class ScheduledFlight(_Frozen):
    """flights.csv: the daily template of one flight number."""

    number: int
    origin: str
    destination: str
    departure: int  # minute of the day
    duration: int
    previous: int  # previous leg of a multi-leg flight, 0 when none


class Maintenance(_Frozen):
    airport: str
    start: int
    end: int
    flying_limit: int  # minutes of flight allowed before the slot starts


class Aircraft(_Frozen):
    id: str
    model: str
    family: str
    seats: dict[str, int]  # cabin -> seats
    range: int  # longest flight, minutes
    cost_per_hour: float
    turn_round: int
    transit: int
    initial_airport: str
    maintenance: Maintenance | None = None

    @property
    def config(self) -> str:
        return "/".join(str(self.seats[c]) for c in CABINS)

    @property
    def ground_link(self) -> bool:
        """A ground transfer written as an aircraft (model TranspCom): its flights are fixed, and take no
        airport slot (official solution checker: "Fixed flight … cancelled", no capacity line for them)."""
        return self.model == GROUND_LINK_MODEL


class DatedFlightRef(_Frozen):
    number: int
    day: int


class Leg(_Frozen):
    number: int
    day: int
    cabin: Cabin


class Itinerary(_Frozen):
    id: int
    kind: ItineraryKind
    price: float
    passengers: int
    legs: tuple[Leg, ...]


class PositionRequirement(_Frozen):
    airport: str
    model: str
    config: str
    count: int


class Unavailability(_Frozen):
    aircraft: str
    start: int
    end: int


class ReducedCapacity(_Frozen):
    airport: str
    window: CapacityWindow  # absolute minutes


ROADEF_MIN_CONNECTION = 30  # minutes; the shortest connection in every 2009 instance's planned itineraries


class CrewPairing(_Frozen):
    """A crew (the members rostered on the same legs of one duty) as a resource of the plan: its legs in order, from
    its report station, and how late each leg may leave with every member's duty still legal (the rules engine's
    FDP, cumulative and rest limits, computed when the instance is built: `recovery.crew_pairings`). The 2009
    challenge has no crews: its instances carry none, and the checker then checks none."""

    id: str
    legs: tuple[DatedFlightRef, ...]
    start_airport: str
    slack: tuple[int, ...]  # per leg: the most minutes it may leave after its planned departure
    connect: int = Field(30, ge=0)  # minutes to change aircraft between two legs (same aircraft: its turn)
    why: str = ""  # the binding limit at the slack, for the refusal's message


class Instance(_Frozen):
    name: str
    day0: date
    config: CostConfig
    airports: dict[str, Airport]
    routes: dict[tuple[str, str], Route]
    flights: dict[int, ScheduledFlight]
    aircraft: dict[str, Aircraft]
    rotations: tuple[tuple[DatedFlightRef, str], ...]  # planned (dated flight, aircraft) in file order
    itineraries: tuple[Itinerary, ...]
    positions: tuple[PositionRequirement, ...]
    imposed_delays: dict[tuple[int, int], int] = Field(default_factory=dict)  # (number, day) -> minutes
    imposed_cancellations: frozenset[tuple[int, int]] = frozenset()
    # (number, day) -> minutes after its schedule a flight may not leave before: a hold on the flight itself (fog at
    # its origin, a crew member out). Unlike an imposed delay (the 2009 disruption: that aircraft, exactly then),
    # any aircraft may fly it then or later, or it may be cancelled. None in the 2009 instances.
    held_until: dict[tuple[int, int], int] = Field(default_factory=dict)
    unavailabilities: tuple[Unavailability, ...] = ()
    reduced_capacities: tuple[ReducedCapacity, ...] = ()
    # The shortest connection a passenger makes (minutes): the challenge's 30 by default; an airline's own
    # minimum connection time when SkyMarshal's tables are adapted (its hub's MCT).
    min_connection: int = Field(ROADEF_MIN_CONNECTION, ge=0)
    crews: tuple[CrewPairing, ...] = ()  # none in the 2009 instances; SkyMarshal's rosters when adapted

    def date_of(self, day: int) -> date:
        return self.day0 + timedelta(days=day)


class SolutionFlight(_Frozen):
    """One line of sol_rotations.csv; aircraft None means cancelled."""

    number: int
    origin: str
    destination: str
    departure: int  # absolute minutes
    arrival: int
    previous: int
    day: int
    aircraft: str | None


class SolutionItinerary(_Frozen):
    """One line of sol_itineraries.csv; legs empty means cancelled."""

    id: int
    kind: ItineraryKind
    price: float
    passengers: int
    legs: tuple[Leg, ...] = ()

    @property
    def cancelled(self) -> bool:
        return not self.legs


ConnectionReading = Literal["strict", "lenient"]


class Rules(_Frozen):
    """How the checker and the solver read what the 2009 texts leave open (the default is the strict one).

    connections:
      - "strict": every connection of an itinerary is at least the minimum, including one between two legs
        flown before the window that the instance's own delays broke (A01: 4225 +43 min, 2657 +19 min at
        BES). The official solution checker reports "Connection time not respected" with no exemption, and
        the passengers are still at the connection airport when the window opens: their fixed part ends
        there, and they are re-accommodated from it on flights after the window opens, or cancelled.
      - "lenient": a connection whose second leg departs before the window is history and not checked
        (the reading the optimizer first shipped with; kept to compare with it and with published figures).
    keep_unbooked: cancelling a planned flight no itinerary books is a last resort. The cost function
      rewards such a cancellation (its operating cost is subtracted), so this separates that gain from the
      recovery's. The solver then ranks plans by how many of them they cancel before their cost, and lets
      those flights wait as long as the window allows; where a reduced airport capacity or a grounded tail
      leaves one no slot it stays cancelled, counted by checker.unbooked_cancellations (not a violation).
    """

    connections: ConnectionReading = "strict"
    keep_unbooked: bool = False


STRICT = Rules()
LENIENT = Rules(connections="lenient")


class Solution(_Frozen):
    flights: tuple[SolutionFlight, ...]
    itineraries: tuple[SolutionItinerary, ...]


# What the cost function, the checker and the writer read of a solution: the pydantic Solution above, or the
# solver's plain rows (solver.SolutionRows), which it costs and checks thousands of times per run.


class LegView(Protocol):
    @property
    def number(self) -> int: ...
    @property
    def day(self) -> int: ...
    @property
    def cabin(self) -> Cabin: ...


class FlightView(Protocol):
    @property
    def number(self) -> int: ...
    @property
    def origin(self) -> str: ...
    @property
    def destination(self) -> str: ...
    @property
    def departure(self) -> int: ...
    @property
    def arrival(self) -> int: ...
    @property
    def previous(self) -> int: ...
    @property
    def day(self) -> int: ...
    @property
    def aircraft(self) -> str | None: ...


class ItineraryView(Protocol):
    @property
    def id(self) -> int: ...
    @property
    def kind(self) -> ItineraryKind: ...
    @property
    def price(self) -> float: ...
    @property
    def passengers(self) -> int: ...
    @property
    def legs(self) -> Sequence[LegView]: ...


class SolutionView(Protocol):
    @property
    def flights(self) -> Sequence[FlightView]: ...
    @property
    def itineraries(self) -> Sequence[ItineraryView]: ...
