"""A network disruption's recovery plans as data: the restriction (closure, capacity cut, ATC regulation), each
plan's per-flight actions with their crew changes and passengers, the plan's totals, and the typed reasons a plan
or a report is refused.

Shaped for a per-flight table (action, new times, tail, crew changes, passengers affected) and for the
state's size limit: every field is a plain value, no rows of the operational tables.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .common import UtcDatetime
from .disruption import Window

# "flights": the flights a report names, hit by one cause (a runway closure, a regulation, a tail's defect)
RestrictionKind = Literal["closure", "capacity", "regulation", "flights"]
Objective = Literal["min_delay", "min_cancellations", "protect_connections", "hold", "baseline"]
FlightActionKind = Literal["operate", "retime", "tail_swap", "cancel", "ferry"]
# Why a report about an airport cannot become network plans (one line each; intake/airport_facts.py refuses the rest).
NetworkInputCode = Literal[
    "WINDOW_BEYOND_DATA", "CAPACITY_ABOVE_NORMAL", "NO_AFFECTED_FLIGHT", "TOO_MANY_FLIGHTS", "FLIGHT_NOT_PLANNABLE"
]
# Why one flight makes a plan illegal (zero tolerance: one is enough to reject the plan).
FlightRejectionCode = Literal[
    "CLOSED_AIRPORT",  # departs or lands at a closed airport inside the closure
    "CAPACITY_EXCEEDED",  # more movements in an hour than the restriction allows
    "BEFORE_SLOT",  # a regulated flight leaves before its ATC slot
    "CREW_ILLEGAL",  # a crew member (rostered or reserve) fails the FTL rules at the new times
    "CREW_NOT_IN_POSITION",  # the crew's previous sector lands elsewhere or too late
    "RESERVE_REUSED",  # one reserve called out for two duties of the same plan
    "AIRCRAFT_NOT_AIRWORTHY",
    "ROTATION_BROKEN",  # the tail is not at the origin, or the turn is shorter than the type's minimum
    "TAIL_SWAP_INELIGIBLE",  # another rating group, or the route beyond the type's range
    "CURFEW",
    "WEATHER_BELOW_LIMITS",
    "NOT_CANCELLABLE",  # already departed or arrived
    "DATA_MISSING",  # what cannot be shown legal is not
]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Reason(Frozen):
    """A typed reason (the shape of rules._reasons.Reason; models import nothing above them)."""

    code: str
    message: str


class NetworkInputError(Reason):
    code: NetworkInputCode


class NetworkRestriction(Frozen):
    """What the disruption does: to an airport, closed (no movement), a capacity per hour, or an ATC regulation
    (a slot delay on every flight through it, or a rate); or to the flights a report names (`flights`), each held
    for its minutes (`held_minutes`; none where the cause is the aircraft's or the crew's: the grounded tail or the
    unfit member is the constraint). `airport` is then the station they share, else the first one's origin."""

    kind: RestrictionKind
    airport: str
    window: Window
    departures_per_hour: int | None = None  # capacity or regulation rate; 0 for a closure
    arrivals_per_hour: int | None = None
    slot_delay_minutes: int | None = None  # regulation: no regulated flight leaves before schedule + this
    normal_departures_per_hour: int = 0  # the airline's own busiest hour there (the schedule's peak)
    normal_arrivals_per_hour: int = 0
    basis: str = ""  # the words or the rule the figures come from
    flight_numbers: list[str] = Field(default_factory=list)  # kind "flights": the flights named, in order
    held_minutes: dict[str, int] = Field(default_factory=dict)  # kind "flights": flight id -> earliest leave, minutes

    def described(self) -> str:
        """What it is, and where and when, in a few words (a decision's line)."""
        if self.kind == "flights":
            return f"named flights {', '.join(self.flight_numbers)} ({self.basis})"
        return f"{self.kind} at {self.airport} {self.window.start:%d %b %H:%M}–{self.window.end:%H:%M}Z"


class CrewChange(Frozen):
    """A rostered crew member replaced by a reserve called out from standby for this flight's duty."""

    rank: str
    replaced: str
    reserve: str
    report_at: UtcDatetime
    reason: str  # the rostered member's binding finding at the new times


class FlightAction(Frozen):
    """One row of the per-flight table."""

    flight_id: str
    flight_number: str
    origin: str
    destination: str
    action: FlightActionKind
    scheduled_departure: UtcDatetime
    scheduled_arrival: UtcDatetime
    new_departure: UtcDatetime | None = None  # None: cancelled
    new_arrival: UtcDatetime | None = None
    delay_minutes: int = 0
    registration: str  # planned tail
    new_registration: str | None = None  # the tail that flies it (None: cancelled)
    aircraft_type: str
    crew_changes: list[CrewChange] = Field(default_factory=list)
    # crew id → the later report a re-timed duty's crew is told of at rest (CS FTL.1.205(d) delayed reporting)
    moved_reports: dict[str, UtcDatetime] = Field(default_factory=dict)
    passengers: int = 0  # booked on the flight
    passengers_reaccommodated: int = 0  # moved to another flight (cancelled here, or a missed connection)
    passengers_stranded_overnight: int = 0  # no seat the same local day at the origin
    rebooked_onto: dict[str, int] = Field(default_factory=dict)  # cancelled: flight id → passengers given a seat there
    reason: str = ""  # why the plan touches it (in the closure, inherits a delay, crew re-plan)

    @property
    def operates(self) -> bool:
        return self.action != "cancel"


class Replanning(Frozen):
    """A change crewability made to the optimizer's plan, for the audit."""

    flight_id: str
    change: str  # "cancelled", "reserve"
    reason: str


class PlanTotals(Frozen):
    flights: int  # in the plan's table
    operated: int
    delay_minutes: int  # sum of departure delays of operated flights
    max_delay_minutes: int
    cancellations: int
    tail_swaps: int
    ferries: int
    reserves_called: int
    crew_to_contact: int = 0  # distinct crew members its execution must call (set when it is ranked)
    passengers_affected: int
    passengers_reaccommodated: int
    passengers_stranded_overnight: int
    misconnections: int  # passengers whose onward connection breaks at the new times
    passenger_minutes: int = 0  # delay at arrival of every passenger the plan moves, re-accommodation included
    eu261_exposure: dict[str, float] = Field(default_factory=dict)  # currency → Art. 7 amounts, before the defence
    eu261_extraordinary: bool = False  # the cause is an extraordinary circumstance (weather, ATC): likely not owed
    cost_usd: float
    cost_by_component: dict[str, float] = Field(default_factory=dict)
    optimizer_cost: float | None = None  # ROADEF 2009 measure under the neutral weights (optimizer plans)


class NetworkPlan(Frozen):
    plan_id: str  # "network:min_delay", "network:baseline"
    objective: Objective
    title: str
    actions: list[FlightAction]
    totals: PlanTotals
    replanned: list[Replanning] = Field(default_factory=list)
    optimizer_seconds: float = 0.0
    notes: list[str] = Field(default_factory=list)


class FlightRejection(Reason):
    code: FlightRejectionCode
    flight_id: str


class ValidatedNetworkPlan(Frozen):
    plan: NetworkPlan
    flights_checked: int
    checks: int
    rejections: list[FlightRejection]

    @property
    def valid(self) -> bool:
        return not self.rejections


class NetworkDecision(Frozen):
    """The network planner's answer for one disruption: the restriction, the flights touched, every plan validated
    (valid ones first, by cost), and the seconds each step took."""

    restriction: NetworkRestriction
    flights_affected: int
    flights_inheriting: int
    decision_at: UtcDatetime
    plans: list[ValidatedNetworkPlan]
    seconds: dict[str, float] = Field(default_factory=dict)
    # the duty manager's exclusions (flight id → reason): those flights are left as scheduled in every plan
    excluded: dict[str, str] = Field(default_factory=dict)
    exclusion_refused: str | None = None  # an exclusion that left no valid plan: said, and the plans kept as they were

    @property
    def valid(self) -> list[ValidatedNetworkPlan]:
        return [p for p in self.plans if p.valid]
