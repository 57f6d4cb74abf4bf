"""A plan's messages and contact list from its typed actions and the flights and rosters before it is carried out.

One message per flight whose schedule or movement the plan changes, by what changes (SSIM Chapter 5, AHM 780):
- cancelled: ASM CNL;
- retimed (a swap with it or not): MVT with the estimated departure, the tail that flies it, and the delay code —
  the disruption's own (AHM 730) on the flights it disrupts, 93 (aircraft rotation, reactionary) on the knock-on
  ones, with the root cause's code said in SI (AHM 731's sub-codes qualify a code by letter; none names a root);
- another tail, same times: ASM EQT whose equipment element is the new aircraft's (type, seats, registration), the
  element a schedule system reads, and the tail it replaces in SI;
- diverted: DIV with the estimated arrival at the alternate;
- added, a network plan's positioning ferry (its own new flight): ASM NEW, service type P, with its equipment and
  its leg, addressed to its origin and destination.
Crew re-plans without a change of time, a rescue aircraft's ferry (a leg of the rescue, not a flight of its own in
the plan's table) and fleet bookkeeping change no scheduled movement: no message, but the crew they call out are
contacts. A crew member whose duty changes (arbitration/crew/contacts.py: called out,
released, or delayed by `CREW_DELAY_NOTICE_MINUTES` or more) is told once per flight.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..arbitration.actions import (
    AddCabinCrew,
    CancelFlight,
    DelayFlight,
    DivertFlight,
    FerryAircraft,
    ReassignCrew,
    SwapAircraft,
)
from ..arbitration.crew.contacts import CrewChangeKind, crew_changes
from ..arbitration.models import Scenario
from ..arbitration.rotation.plan import ferry_leg
from ..data.ssim_schedule import IATA_TYPE
from ..models.disruption import Disruption
from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import CrewDuty, Flight
from . import formats as fmt
from .contacts import passenger_groups
from .models import (
    ContactTotals,
    CrewContact,
    OutboundMessage,
    PlanMessages,
    RefusedMessage,
    StationContact,
)

REACTIONARY_CODE = 93  # AHM 730: aircraft rotation, late arrival from another sector


@dataclass(frozen=True)
class PlanFacts:
    """The rows a plan's messages are written from, as they are before it is carried out."""

    flights: Mapping[str, Flight]  # every flight the plan acts on, and every flight it rebooks onto
    crew: Mapping[str, Sequence[CrewDuty]] = field(default_factory=dict)  # flight id → its rostered sectors


def delay_code_for(flight: Flight, disruption: Disruption | None) -> int:
    """The disruption's AHM 730 code on a flight it disrupts itself, else 93 (aircraft rotation, reactionary).

    The flights it disrupts are its scope's resolved flights; with none resolved, those of its flight numbers, its
    tail, or (an airport or airspace scope) its airport. A station named beside a flight scope ("fog at LHR" for
    EY11) is where the cause is, not a scope: the tail's next flight out of LHR is late because its aircraft is
    (AHM 730: 93), not because of the fog."""
    if disruption is None:
        return REACTIONARY_CODE
    scope = disruption.scope
    if scope.flights:
        touches = flight.flight_id in scope.flights
    elif scope.kind == "flight" or scope.kind == "crew_member":
        touches = flight.flight_number in scope.flight_numbers
    elif scope.kind == "tail":
        touches = scope.registration is not None and flight.aircraft_registration == scope.registration
    else:
        touches = scope.airport is not None and scope.airport in (flight.origin, flight.destination)
    return disruption.iata_delay_code if touches else REACTIONARY_CODE


def root_code_of(code: int, disruption: Disruption | None) -> int | None:
    """A reactionary delay's root cause (the disruption's own code), said beside the 93 it is coded as."""
    if code != REACTIONARY_CODE or disruption is None or disruption.iata_delay_code == REACTIONARY_CODE:
        return None
    return disruption.iata_delay_code


def _by_flight(scenario: Scenario) -> dict[str, list]:
    grouped: dict[str, list] = defaultdict(list)
    for action in scenario.actions:
        grouped[action.flight_id].append(action)
    return grouped


def _equipment(aircraft_type: str, seats_of: Mapping[Any, int]) -> tuple[str, str]:
    """The IATA type code and the configuration (seats by cabin, F J Y) of an aircraft type; `seats_of` when the
    type is not in the fleet table."""
    known = AIRCRAFT_TYPES.get(aircraft_type)
    capacity = known.capacity if known is not None else seats_of
    seats = "".join(f"{c}{n}" for c, n in sorted(capacity.items(), key=lambda x: "FJY".index(x[0])) if n)
    return IATA_TYPE.get(aircraft_type, aircraft_type[-3:]), seats


def _added_flight(actions: list) -> Flight | None:
    """The flight a positioning ferry adds, as its row will be (it is not in the table before the plan runs)."""
    ferry = next((a for a in actions if isinstance(a, FerryAircraft) and a.positioning), None)
    return None if ferry is None or ferry.flight_number is None else ferry_leg(ferry, ferry.flight_number[:2])


def _message(flight: Flight, actions: list, disruption: Disruption | None) -> tuple[str, str, str, str] | None:
    """(standard, action, text, why) of the one message a flight's actions imply, or None."""
    code = delay_code_for(flight, disruption)
    kinds = {a.kind: a for a in actions}
    swap: SwapAircraft | None = kinds.get("swap_aircraft")
    tail = swap.to_registration if swap else flight.aircraft_registration
    ferry: FerryAircraft | None = kinds.get("ferry")
    if ferry is not None and ferry.positioning:  # a flight the plan adds, empty: the disruption is why it flies
        iata, seats = _equipment(ferry.aircraft_type, {})
        reason_code = disruption.iata_delay_code if disruption is not None else REACTIONARY_CODE
        text = fmt.asm_new(
            flight.flight_number, ferry.departure, ferry.arrival, ferry.origin, ferry.destination, reason_code,
            iata, seats, ferry.registration,
        )  # fmt: skip
        return "ASM", "NEW", text, f"empty positioning flight {ferry.origin}-{ferry.destination} on {tail}"
    if "cancel" in kinds:
        return "ASM", "CNL", fmt.asm_cancel(flight.flight_number, flight.scheduled_departure, code), "cancelled"
    if (divert := kinds.get("divert")) is not None:
        text = fmt.mvt_diversion(
            flight.flight_number, flight.scheduled_departure, tail, flight.origin, divert.alternate, divert.new_arrival
        )
        return "MVT", "DIV", text, f"diverted to {divert.alternate}"
    if (delay := kinds.get("delay")) is not None and delay.delay_minutes > 0:
        text = fmt.mvt_delay(
            flight.flight_number,
            flight.scheduled_departure,
            tail,
            flight.origin,
            delay.new_departure,
            code,
            root_code=root_code_of(code, disruption),
        )
        return "MVT", "ED", text, f"delayed {delay.delay_minutes} min" + (f", flown by {tail}" if swap else "")
    if swap is not None:  # the equipment element carries the new aircraft: its type, its seats and its tail
        iata, seats = _equipment(swap.to_aircraft_type, flight.capacity)
        text = fmt.asm_equipment(
            flight.flight_number, flight.scheduled_departure, code, iata, seats, tail, swap.from_registration
        )
        return "ASM", "EQT", text, f"flown by {tail} ({swap.to_aircraft_type})"
    return None


def _crew(flight: Flight, actions: list, rostered: Sequence[CrewDuty]) -> Iterable[tuple[str, CrewChangeKind, str]]:
    """(crew id, change, what they are told) for each crew member whose duty on this flight changes
    (arbitration/crew/contacts.py decides who: the arbitrator counts the same people)."""
    name = f"{flight.flight_number} {flight.origin}-{flight.destination} {flight.scheduled_departure:%d%b %H:%MZ}"
    for crew_id, change, action in crew_changes(actions, [d.crew_id for d in rostered]):
        yield crew_id, change, _told(name, change, action)


def _told(name: str, change: CrewChangeKind, a: object) -> str:
    if isinstance(a, FerryAircraft):
        flown = f" as {a.flight_number}" if a.positioning else ""
        return (
            f"Called out to ferry {a.registration} {a.origin}-{a.destination}{flown}: "
            f"report {a.crew_report_at:%d%b %H:%MZ}."
        )
    if isinstance(a, (ReassignCrew, AddCabinCrew)) and change == "called_out":
        return f"Called out from standby for {name}: report {a.report_at:%d%b %H:%MZ}."
    if isinstance(a, CancelFlight):
        return f"{name} is cancelled: you are released from the sector."
    if isinstance(a, DelayFlight):
        return f"{name} now departs {a.new_departure:%H:%MZ} ({a.delay_minutes} min late): report later."
    return f"You are released from {name}; crew scheduling will confirm your next duty."


def plan_messages(scenario: Scenario, facts: PlanFacts, disruption: Disruption | None = None) -> PlanMessages:
    """The plan's messages (each checked against its format; a failing one is refused, never sent) and contacts."""
    messages: list[OutboundMessage] = []
    refused: list[RefusedMessage] = []
    crew: dict[tuple[str, str], CrewContact] = {}
    stations: dict[str, list[str]] = defaultdict(list)
    for flight_id, actions in _by_flight(scenario).items():
        flight = facts.flights.get(flight_id) or _added_flight(actions)
        if flight is None:  # a plan acts only on flights in the table or adds them; a missing one is said, not guessed
            refused.append(RefusedMessage(flight_id=flight_id, standard="ASM", problem="flight not in the data"))
            continue
        for crew_id, change, text in _crew(flight, actions, facts.crew.get(flight_id, ())):
            crew.setdefault(
                (crew_id, flight_id),
                CrewContact(
                    crew_id=crew_id,
                    flight_id=flight_id,
                    flight_number=flight.flight_number,
                    change=change,
                    notification=text,
                ),
            )
        found = _message(flight, actions, disruption)
        if found is None:
            continue
        standard, action, text, why = found
        problem = fmt.problems_asm(text) if standard == "ASM" else fmt.problems_mvt(text)
        if problem is not None:
            refused.append(RefusedMessage(flight_id=flight_id, standard=standard, problem=problem))
            continue
        divert = next((a for a in actions if isinstance(a, DivertFlight)), None)
        addressed = [flight.origin, flight.destination] + ([divert.alternate] if divert else [])
        for station in addressed:
            stations[station].append(flight.flight_number)
        messages.append(
            OutboundMessage(
                standard=standard,
                action=action,
                flight_id=flight_id,
                flight_number=flight.flight_number,
                stations=addressed,
                text=text,
                why=why,
            )
        )
    groups = passenger_groups(
        scenario, facts.flights, cancelled={a.flight_id for a in scenario.actions if isinstance(a, CancelFlight)}
    )
    station_list = [StationContact(station=s, flights=sorted(set(f))) for s, f in sorted(stations.items())]
    return PlanMessages(
        scenario_id=scenario.scenario_id,
        messages=messages,
        refused=refused,
        crew=list(crew.values()),
        stations=station_list,
        passengers=groups,
        totals=ContactTotals(
            messages=len(messages),
            crew=len({c.crew_id for c in crew.values()}),
            stations=len(station_list),
            passengers=sum(g.passengers for g in groups),
        ),
    )
