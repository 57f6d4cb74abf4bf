"""The typed actions a recovery scenario is made of; the workflow's Execute step applies them.

Each action names exactly what changes in the operational tables, so the plan a duty manager approves
is the plan that is executed, and the audit trail can say what each step did.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, model_validator

from ..models.common import FlightNumber, Iata, UtcDatetime


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    flight_id: str


class SwapAircraft(_Action):
    kind: Literal["swap_aircraft"] = "swap_aircraft"
    from_registration: str
    to_registration: str
    to_aircraft_type: str


class ReassignCrew(_Action):
    kind: Literal["reassign_crew"] = "reassign_crew"
    replacements: dict[str, str]  # rostered crew id → reserve crew id
    report_at: UtcDatetime
    positioning_flight_id: str | None = None  # reserves from another station travel on this flight (FDP from report)
    positioning_ferry: Iata | None = None  # ...or on the plan's rescue ferry from this station (FDP from report)


class StandDownCrew(_Action):
    """Rostered cabin crew the report makes unavailable (sick, unfit) do not fly: their sectors of this flight and the
    rest of its duty are released and the flight operates with the cabin crew left, at or above the certified
    minimum (ORO.CC.100(b); arbitration/crew/short.py)."""

    kind: Literal["stand_down_crew"] = "stand_down_crew"
    crew_ids: list[str]
    cabin_left: NonNegativeInt
    minimum: NonNegativeInt


class AddCabinCrew(_Action):
    """Cabin crew called out from standby because the aircraft the plan gives the flight needs more of them (the
    operator's complement per type, ORO.CC.100): they fly `flights` (the swap's) with the rostered crew."""

    kind: Literal["add_cabin_crew"] = "add_cabin_crew"
    crew_ids: list[str]
    position: str = "CA"
    report_at: UtcDatetime
    flights: list[str]


class DelayFlight(_Action):
    kind: Literal["delay"] = "delay"
    delay_minutes: NonNegativeInt  # from the scheduled departure
    new_departure: UtcDatetime
    new_arrival: UtcDatetime


class RestCrew(_Action):
    """The rostered crew stand down at `stood_down_at` and report again for the flight at `reports` (crew id → report)
    after the minimum rest (ORO.FTL.235): their duty's report moves; its sectors move with the flight's DelayFlight."""

    kind: Literal["rest_crew"] = "rest_crew"
    reports: dict[str, UtcDatetime]
    stood_down_at: UtcDatetime


class CancelFlight(_Action):
    kind: Literal["cancel"] = "cancel"
    reason: str


class RebookJourney(BaseModel):
    """`passengers` of one party (``rules.reaccommodation.party_key``: final destination, cabin, onward flight,
    protection) on `flights` in order, home at `arrival` (the earliest way home, issue 46 item 2)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    party: str
    flights: list[str] = Field(min_length=1)
    passengers: NonNegativeInt
    arrival: UtcDatetime
    delay_minutes: NonNegativeInt  # at the final destination
    overnight: bool = False


class RebookPassengers(_Action):
    kind: Literal["rebook"] = "rebook"
    passengers: NonNegativeInt
    onto: dict[str, NonNegativeInt] = Field(default_factory=dict)  # flight id → passengers moved there (first legs)
    journeys: list[RebookJourney] = Field(default_factory=list)  # each party's way home; execution writes these
    interline: NonNegativeInt = 0  # passengers placed on other carriers
    ground_transport_to: Iata | None = None  # after a diversion: coach to the original destination


class DivertFlight(_Action):
    kind: Literal["divert"] = "divert"
    alternate: Iata
    new_arrival: UtcDatetime


class FerryAircraft(_Action):
    """An aircraft flown empty by a ferry crew called out from standby at its origin ({rank: crew id}). `positioning`
    says which of two ferries it is:
    - False, a rescue ferry (arbitration.plans.rescue): it brings a spare to the station where `flight_id`, a flight
      in the table, waits for it; executed as the new row `ferry_id` (`{flight_id}-FERRY`) numbered after the rescued
      flight, the spare's day still SPARE;
    - True, a positioning ferry (a network plan's empty flight: it brings the tail where the plan needs it):
      `flight_id` is its own new flight, the row execution writes, and `flight_number` its number (network.ferry);
      the tail's day in service or spare."""

    kind: Literal["ferry"] = "ferry"
    registration: str
    aircraft_type: str
    origin: Iata
    destination: Iata
    departure: UtcDatetime
    arrival: UtcDatetime
    crew: dict[str, str]
    crew_report_at: UtcDatetime
    positioning: bool = False
    flight_number: FlightNumber | None = None  # a positioning ferry's own; a rescue ferry's follows the rescued flight

    @model_validator(mode="after")
    def _numbered(self) -> FerryAircraft:
        if self.positioning != (self.flight_number is not None):
            raise ValueError("a positioning ferry carries its own flight number, a rescue ferry none")
        return self

    @property
    def ferry_id(self) -> str:
        """The Flights row the ferry becomes."""
        return self.flight_id if self.positioning else f"{self.flight_id}-FERRY"


class ContinueFlight(_Action):
    """A diverted flight flown on from the alternate it is on the ground at to its destination, on the same aircraft
    with its passengers on board: a new Flights row (`{flight_id}-CONT`, like a rescue's ferry). `crew` (crew id →
    position) fly it, reporting at `reports`: those in `in_duty` in the duty they are on, one sector more; the
    others report anew at the alternate (the rostered crew after the minimum rest, or reserves on standby there,
    `called_out`)."""

    kind: Literal["continue"] = "continue"
    registration: str
    aircraft_type: str
    origin: Iata  # the alternate
    destination: Iata
    departure: UtcDatetime
    arrival: UtcDatetime
    crew: dict[str, str]
    reports: dict[str, UtcDatetime]
    in_duty: list[str] = Field(default_factory=list)
    called_out: dict[str, str] = Field(default_factory=dict)  # reserve → the rostered member whose seat it takes
    passengers: NonNegativeInt = 0


class GroundAircraft(_Action):
    """The grounding the report stated, recorded as the maintenance work order the analysis assumed, so the next
    disruption plans from it (the tail is not airworthy until maintenance closes the order)."""

    kind: Literal["ground_aircraft"] = "ground_aircraft"
    registration: str
    work_order: dict[str, Any]  # a MaintenanceWorkOrders row (models.operational.WorkOrder, JSON)


class RepositionFleet(_Action):
    """Each touched tail's AircraftAvailability rows rewritten from its flights after the plan: where it is at
    00:00Z of each day, its first departure and last arrival, and a spare that now flies in service."""

    kind: Literal["reposition"] = "reposition"
    registrations: list[str]


Action = Annotated[
    SwapAircraft
    | ReassignCrew
    | AddCabinCrew
    | StandDownCrew
    | DelayFlight
    | RestCrew
    | CancelFlight
    | RebookPassengers
    | DivertFlight
    | FerryAircraft
    | ContinueFlight
    | GroundAircraft
    | RepositionFleet,
    Field(discriminator="kind"),
]


def describe(action: BaseModel) -> str:
    """One line a duty manager reads on the scenario card."""
    a = action
    if isinstance(a, SwapAircraft):
        return f"Swap {a.flight_id} from {a.from_registration} to {a.to_registration} ({a.to_aircraft_type})"
    if isinstance(a, ReassignCrew):
        return f"Replace {len(a.replacements)} crew on {a.flight_id} with reserves reporting {a.report_at:%H:%MZ}" + (
            f", positioned on {a.positioning_flight_id}"
            if a.positioning_flight_id
            else f", positioned from {a.positioning_ferry} on the rescue ferry"
            if a.positioning_ferry
            else ""
        )
    if isinstance(a, AddCabinCrew):
        return (
            f"Add {len(a.crew_ids)} cabin crew ({', '.join(a.crew_ids)}) from standby to {', '.join(a.flights)}, "
            f"reporting {a.report_at:%H:%MZ}"
        )
    if isinstance(a, StandDownCrew):
        return (
            f"Stand down {', '.join(a.crew_ids)} from {a.flight_id}: it operates with {a.cabin_left} cabin crew "
            f"(certified minimum {a.minimum})"
        )
    if isinstance(a, DelayFlight):
        return f"Delay {a.flight_id} by {a.delay_minutes} min: off blocks {a.new_departure:%H:%MZ}, on blocks {a.new_arrival:%H:%MZ}"
    if isinstance(a, RestCrew):
        return (
            f"The crew of {a.flight_id} ({', '.join(sorted(a.reports))}) stand down at {a.stood_down_at:%H:%MZ} and "
            f"report again from {min(a.reports.values()):%d %b %H:%MZ} after the minimum rest"
        )
    if isinstance(a, CancelFlight):
        return f"Cancel {a.flight_id} ({a.reason})"
    if isinstance(a, RebookPassengers):
        onto = (
            ", ".join(f"{j.passengers} on {'-'.join(j.flights)}" for j in a.journeys)
            if a.journeys
            else ", ".join(f"{n} on {f}" for f, n in a.onto.items())
        )
        parts = [
            p
            for p in (
                onto,
                f"{a.interline} interline" if a.interline else "",
                f"coach to {a.ground_transport_to}" if a.ground_transport_to else "",
            )
            if p
        ]
        return f"Rebook {a.passengers} passengers of {a.flight_id}" + (f": {'; '.join(parts)}" if parts else "")
    if isinstance(a, DivertFlight):
        return f"Divert {a.flight_id} to {a.alternate}, on blocks {a.new_arrival:%H:%MZ}"
    if isinstance(a, FerryAircraft):
        crew = " and ".join(f"{rank} {crew_id}" for rank, crew_id in sorted(a.crew.items()))
        why = f"as {a.flight_number} to position the tail" if a.positioning else f"for {a.flight_id}"
        return (
            f"Ferry {a.registration} ({a.aircraft_type}) {a.origin}-{a.destination} empty {why}, "
            f"off blocks {a.departure:%H:%MZ}, on blocks {a.arrival:%H:%MZ}, flown by {crew}"
        )
    if isinstance(a, ContinueFlight):
        how = (
            f"{len(a.called_out)} reserve(s) called out there"
            if a.called_out
            else "the crew in their duty"
            if len(a.in_duty) == len(a.crew)
            else "the crew after their minimum rest"
        )
        return (
            f"Continue {a.flight_id} from {a.origin} to {a.destination} on {a.registration} with its "
            f"{a.passengers} passengers, off blocks {a.departure:%d %b %H:%MZ}, on blocks {a.arrival:%H:%MZ}, {how}"
        )
    if isinstance(a, GroundAircraft):
        order = a.work_order
        return (
            f"Record {a.registration} on ground at {order.get('station')}: work order {order.get('work_order_id')} "
            f"(ATA {order.get('ata_chapter')}), open until maintenance releases it"
        )
    if isinstance(a, RepositionFleet):
        return f"Update where {', '.join(a.registrations)} are and when they are free (AircraftAvailability)"
    raise TypeError(f"not an action: {type(action).__name__}")
