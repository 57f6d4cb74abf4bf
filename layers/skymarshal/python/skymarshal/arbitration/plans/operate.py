"""One operating plan as a scenario: the flight flies `delay` minutes late, on its own tail or another (brought by
a ferry when elsewhere), with reserves for rostered crew, or to an alternate — its actions, the knock-on down the
tail's rotation, the crew chain it breaks, and its cost by the rules engine (rules.finance). Every generator of
operating plans builds on it (scenarios, crew positioning, crew rest, rescue, sensitivity).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from ...data import queries as q
from ...models.airports import great_circle_km
from ...models.operational import Flight
from ...rules import finance, guest, network
from ...rules.ferry import FERRY_TAXI_MINUTES
from ..actions import DelayFlight, DivertFlight, FerryAircraft, ReassignCrew, RebookPassengers, SwapAircraft
from ..context import DisruptionContext
from ..crew.cabin import add_cabin_crew, extra_cabin_crew
from ..crew.chain import chain_recrews, chain_shortfalls
from ..crew.moved_reports import knock_on_reports
from ..crew.next_duty_cancel import DroppedDuties, cancelled_duties, cancelled_ids
from ..crew.next_duty_retime import retimed_next_duties
from ..memo_keys import FlightRead
from ..models import Scenario
from ..rotation import plan as rotation_plan
from ..rotation.handed import HandOver
from .text import pros_cons, title

RESERVE_CALL_OUT_HOURS = 3.0  # company policy: paid call-out per reserve crew member
COACH_KMH, COACH_HANDLING_MINUTES = 70, 60  # after a diversion: coach to the destination
FERRY_KM_PER_MINUTE = 12.0  # a diverted flight's ferry onward, at its cruise (the rescue's: `rules.ferry`)


def operate(
    ctx: DisruptionContext,
    kind: str,
    delay: int,
    *,
    sources: list[str],
    registration: str | None = None,
    aircraft_type: str | None = None,
    replacements: dict | None = None,
    report: datetime | None = None,
    alternate: str | None = None,
    moved: int = 0,
    notes: list[str] | None = None,
    ferry: FerryAircraft | None = None,
    carried: Sequence[Flight] = (),
    exchanged: Sequence[SwapAircraft | DelayFlight] = (),
    handed: HandOver | None = None,
    cancel_next_duties: bool = False,
) -> Scenario:
    """A scenario in which the flight operates: `delay` minutes late, on `registration` (brought by `ferry` when
    it is elsewhere; it also flies the flight's tail's later flights `carried`, until the tails swap back), with
    `replacements` for rostered crew, to `alternate` instead of the destination. On its own tail, the delay's
    knock-on moves the tail's later flights. `exchanged`: the other tail's flights the flight's own tail takes over
    once released, and the flights that exchange re-times (plans/exchange.py). `handed`: the tail's later flights
    another aircraft takes over instead of the knock-on (plans/hand_over.py). `cancel_next_duties`: a next duty the
    delays leave short of rest and no reserve takes is cancelled, not re-timed (crew/next_duty_cancel.py)."""
    f = ctx.flight
    departure = f.scheduled_departure + timedelta(minutes=delay)
    arrival = departure + (f.scheduled_arrival - f.scheduled_departure)
    tail = registration or f.aircraft_registration
    actions: list = [ferry] if ferry else []
    if registration:
        actions.append(
            SwapAircraft(
                flight_id=f.flight_id,
                from_registration=f.aircraft_registration,
                to_registration=registration,
                to_aircraft_type=aircraft_type,
            )
        )
        for later in carried:
            actions.append(
                SwapAircraft(
                    flight_id=later.flight_id,
                    from_registration=later.aircraft_registration,
                    to_registration=registration,
                    to_aircraft_type=aircraft_type or later.aircraft_type,
                )
            )
    actions += exchanged
    actions += handed.actions if handed else ()
    if replacements:
        actions.append(ReassignCrew(flight_id=f.flight_id, replacements=replacements, report_at=report))
    if registration and extra_cabin_crew(f.aircraft_type, aircraft_type):
        cabin = add_cabin_crew(
            ctx, aircraft_type or f.aircraft_type, delay, [f.flight_id, *(x.flight_id for x in carried)]
        )
        actions += [cabin] if cabin else []
    if delay != f.delay_minutes or not actions:
        actions.append(
            DelayFlight(flight_id=f.flight_id, delay_minutes=delay, new_departure=departure, new_arrival=arrival)
        )
    arrival_delay = delay
    ferried = int((ferry.arrival - ferry.departure).total_seconds() // 60) if ferry else 0
    if alternate:
        km = great_circle_km(alternate, f.destination)
        coach = COACH_HANDLING_MINUTES + int(km / COACH_KMH * 60)
        arrival_delay, ferried = delay + coach, FERRY_TAXI_MINUTES + int(km / FERRY_KM_PER_MINUTE)
        actions.append(DivertFlight(flight_id=f.flight_id, alternate=alternate, new_arrival=arrival))
        actions.append(RebookPassengers(flight_id=f.flight_id, passengers=_pax(ctx), ground_transport_to=f.destination))
    same_tail = registration is None
    if handed is None:
        actions += rotation_plan.knock_on(ctx, delay, None if same_tail else [x.flight_id for x in carried])
    dropped = None
    if not alternate:  # the crew who fly it late still reach their next duty, or a reserve takes that duty
        chained, dropped = _chain(ctx, actions, delay, replacements or {}, cancel_next_duties)
        actions = rotation_plan.latest_delays([*actions, *chained])
        gone = cancelled_ids(actions)  # a next duty cancelled is not also re-timed (its knock-on, a write-back)
        actions = [a for a in actions if not (isinstance(a, DelayFlight) and a.flight_id in gone)]
    actions += knock_on_reports(ctx, actions)  # crews of re-timed later flights, still at rest, report later
    # a flight the data already cancelled has no rotation left to run down (its report is answered on its own)
    flies = (
        same_tail
        and handed is None
        and any(x.flight_id == f.flight_id and x.status != "CANCELLED" for x in ctx.rotation)
    )
    spread = network.propagate_delay(ctx.rotation, f.flight_id, delay) if flies else None
    delays = spread.delays() if spread else {f.flight_id: delay}
    # flights of other tails the plan re-times (an exchange's, a crew's next duty's) at their own delays
    delays |= {
        a.flight_id: a.delay_minutes for a in actions if isinstance(a, DelayFlight) and a.flight_id not in delays
    }
    downstream = sum(1 for k, v in delays.items() if k != f.flight_id and v > 0)
    cost = finance.plan_cost(
        finance.PlanCostInput(
            flight_delays=delays,
            compensation=(
                guest.compensation_liability(
                    f,
                    ctx.bookings,
                    "delay",
                    arrival_delay_minutes=arrival_delay,
                    departure_delay_minutes=delay,
                    cause=ctx.cause,
                ),
            ),
            care=(guest.duty_of_care(f, ctx.bookings, "delay", departure_delay_minutes=delay),),
            crew_overtime_member_hours=len(replacements or {}) * RESERVE_CALL_OUT_HOURS,
            tail_swaps=int(not same_tail) + (handed.swaps if handed else 0),
            ferry_block_minutes=ferried,
        )
    )
    parts = [
        kind,
        registration,
        alternate,
        f"{delay}" if kind == "delay" or delay != f.delay_minutes else None,
        "crew" if replacements and kind != "crew_swap" else None,
        "exchange" if exchanged else None,
        f"handover:{handed.tail}" if handed else None,
        "next-duty-cancelled" if dropped else None,
    ]
    if handed:
        notes = [*(notes or []), handed.note(f.aircraft_registration)]
    if carried:
        back = carried[-1]
        notes = [
            *(notes or []),
            f"{tail} also flies {', '.join(x.flight_number for x in carried)}"
            + (
                f" and the tails swap back at {back.destination} after {back.flight_number}"
                if back.destination == f.origin
                else f": the rest of {f.aircraft_registration}'s flights in the plan's horizon"
            ),
        ]
    scenario = Scenario(
        scenario_id=":".join(p for p in parts if p),
        kind=kind,
        title=title(kind, delay, registration, alternate, replacements),
        sources=sources,
        actions=actions,
        operates=True,
        registration=tail,
        aircraft_type=aircraft_type or f.aircraft_type,
        crew_replacements=dict(replacements or {}),
        departure=departure,
        arrival=arrival,
        arrival_airport=alternate or f.destination,
        delay_minutes=delay,
        arrival_delay_minutes=arrival_delay,
        passengers_impacted=_pax(ctx) if arrival_delay > 0 or alternate else moved,
        cost_usd=round(cost.total_usd, 2),
        cost_by_component={k: round(v, 2) for k, v in cost.by_component().items() if v},
        downstream_flights_delayed=downstream,
        execution_notes=list(notes or []),
    )
    if dropped:
        scenario = scenario.model_copy(
            update={**dropped.costed(scenario), "execution_notes": [*scenario.execution_notes, dropped.note]}
        )
    return scenario.model_copy(update=pros_cons(ctx, scenario, moved))


def _chain(
    ctx: DisruptionContext, actions: list, delay: int, replacements: dict, cancel_next: bool = False
) -> tuple[list, DroppedDuties | None]:
    """Reserves for the next rostered duties the plan's delays make illegal (the flight's and its knock-on's), one
    per member; a duty no reserve can take reports once its crew is rested, by the most any of the member's re-timed
    flights leaves them short (validation judges each of those flights: crew/next_duty_retime.py) — or, with
    `cancel_next`, is cancelled (crew/next_duty_cancel.py, returned beside the actions for its costing)."""
    taken = set(replacements.values())
    delayed = [(ctx.flight, delay)]
    for a in actions:
        if isinstance(a, DelayFlight) and a.flight_id != ctx.flight.flight_id:
            later = ctx.memo(FlightRead(a.flight_id), lambda a=a: q.get_flight(ctx.handle, a.flight_id))
            if later is not None:
                delayed.append((later, a.delay_minutes))
    out: list = []
    relieved = set(replacements)
    short: dict[str, int] = {}
    after: dict[str, Flight] = {}
    for flight, minutes in delayed:
        recrews = chain_recrews(ctx, flight, minutes, relieved, taken)
        out += recrews
        relieved |= {c for r in recrews for c in r.replacements}
        for crew_id, by in chain_shortfalls(ctx, flight, minutes, relieved, ()).items():
            short[crew_id], after[crew_id] = max(by, short.get(crew_id, 0)), after.get(crew_id, flight)
    left = {c: by for c, by in short.items() if c not in relieved}
    dropped = cancelled_duties(ctx, left, after) if cancel_next and left else None
    if dropped is not None:
        return out + dropped.actions, dropped
    return out + retimed_next_duties(ctx, left, after), None


def _pax(ctx: DisruptionContext) -> int:
    return len(guest.active(ctx.bookings, ctx.flight.flight_id))
