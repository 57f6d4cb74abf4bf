"""The business agents' analyses: network (rotation and spares), guest experience (passengers, EU261,
care), cargo (shipments at risk) and finance (cost of each option) — each through its own tables.

A business analysis needs a delay to price. It takes, in order: the delay the caller passes (in the
revision round, e.g. the maintenance agent's estimated release), the flight's own current delay, else
PROBE_DELAY_MINUTES — stated in the facts so nobody mistakes the probe for a forecast.
"""

from __future__ import annotations

from datetime import timedelta

from ..data import queries as q
from ..data import schema as s
from ..data.access import DataHandle
from ..models.agent_response import CargoImpact, FinanceImpact, GuestImpact, NetworkImpact, RecoveryProposal
from ..models.fleet import compatible_types
from ..models.operational import Flight
from ..rules import cargo, finance, guest, network
from .base import Analysis, sources

PROBE_DELAY_MINUTES = 180
ROTATION_AHEAD = timedelta(hours=30)
HIGH_YIELD_USD = 5000.0
NPS_POINTS_PER_DELAY_HOUR = 2.0  # documented heuristic, not a measured model
NPS_POINTS_PER_MISCONNECTION_SHARE = 30.0


def delay_for(flight: Flight, delay_minutes: int | None) -> tuple[int, str]:
    if delay_minutes is not None:
        return delay_minutes, "the delay under assessment"
    if flight.delay_minutes:
        return flight.delay_minutes, "the flight's current delay"
    return PROBE_DELAY_MINUTES, f"a {PROBE_DELAY_MINUTES}-minute probe (no delay known yet)"


def analyse_network(handle: DataHandle, flight: Flight, *, delay_minutes: int | None = None, now=None) -> Analysis:
    delay, basis = delay_for(flight, delay_minutes)
    rotation = q.rotation(
        handle,
        flight.aircraft_registration,
        flight.scheduled_departure - timedelta(hours=1),
        flight.scheduled_departure + ROTATION_AHEAD,
    )
    if not any(f.flight_id == flight.flight_id and f.status != "CANCELLED" for f in rotation):
        rotation = [flight.model_copy(update={"status": "SCHEDULED"})]  # already cancelled: nothing runs down
    spread = network.propagate_delay(rotation, flight.flight_id, delay)
    downstream = [f for f in spread.flights if f.flight_id != flight.flight_id and f.departure_delay_minutes > 0]
    spares = [
        a
        for t in compatible_types(flight.aircraft_type)
        for a in q.fleet_of_type(handle, t, flight.flight_date)
        if a.status == "SPARE" and a.station == flight.origin
    ]
    risk = "high" if len(downstream) >= 3 else "medium" if downstream else "low"
    analysis = Analysis(
        agent="network",
        recommendation="",
        findings=list(spread.findings),
        delay_assumed_minutes=delay,
        inputs_expected=2,
        inputs_present=int(bool(rotation)) + 1,
        impact=NetworkImpact(
            downstream_flights=len(downstream),
            affected_rotations=1 if downstream else 0,
            fleet_utilization_impact=round(sum(f.departure_delay_minutes for f in spread.flights) / 60, 2),
            critical_connections=[f.flight_id for f in downstream if f.origin == "AUH"],
            propagation_risk=risk,
        ),
        facts=[
            f"At {basis} ({delay} min), the delay reaches {len(downstream)} later flight(s) of "
            f"{flight.aircraft_registration}"
            + (
                f", absorbed by {spread.absorbed_by_flight_id}."
                if spread.absorbed_by_flight_id
                else f"; {spread.end_of_day_arrival_delay_minutes} min late at the end of the day."
            ),
            f"{len(spares)} spare aircraft of a compatible type at {flight.origin} on {flight.flight_date}.",
        ],
    )
    for spare in spares:
        analysis.proposals.append(
            RecoveryProposal(
                kind="tail_swap",
                title=f"Swap to spare {spare.aircraft_registration} ({spare.aircraft_type})",
                detail="Protects the rotation: the spare flies this flight, no downstream delay.",
                parameters={"registration": spare.aircraft_registration},
                estimated_delay_minutes=0,
            )
        )
    analysis.proposals.append(
        RecoveryProposal(
            kind="delay",
            title=f"Delay {delay} min",
            detail=f"{len(downstream)} downstream flight(s) delayed.",
            parameters={"delay_minutes": delay},
            estimated_delay_minutes=delay,
        )
    )
    analysis.recommendation = (
        f"Swap to a spare ({spares[0].aircraft_registration}) to keep the rotation whole."
        if spares and downstream
        else f"A {delay}-minute delay is contained ({len(downstream)} downstream flight(s))."
    )
    analysis.data_sources = sources(handle)
    return analysis


def _linked_flights(handle: DataHandle, ids) -> list[Flight]:
    return list(q.flights_by_id(handle, ids).values())


def guest_impact(handle: DataHandle, flight: Flight, delay: int, cause: str | None):
    bookings = q.bookings(handle, flight.flight_id)
    onward = _linked_flights(handle, (b.onward_flight_id for b in bookings))
    inbound = _linked_flights(handle, (b.inbound_flight_id for b in bookings))
    hub = q.airport_profile(handle, "AUH") if handle.allowed(s.AIRPORTS) else None
    return bookings, guest.assess_guest_impact(
        flight,
        bookings,
        "delay",
        delay_minutes=delay,
        cause=cause,
        onward_flights=onward,
        inbound_flights=inbound,
        hub=hub,
    )


def analyse_guest(
    handle: DataHandle, flight: Flight, *, delay_minutes: int | None = None, cause: str | None = None, now=None
) -> Analysis:
    delay, basis = delay_for(flight, delay_minutes)
    bookings, impact = guest_impact(handle, flight, delay, cause)
    bags = q.baggage(handle, flight.flight_id, bookings)
    passengers = impact.passengers
    misconnected = len(impact.misconnections.broken) if impact.misconnections else 0
    vulnerable = len({b for ids in passengers.vulnerable.values() for b in ids})
    elite = sum(passengers.by_tier.get(t, 0) for t in ("GOLD", "PLATINUM"))
    share = misconnected / passengers.total if passengers.total else 0.0
    liability_usd = sum(finance.to_usd(amount, currency) for currency, amount in impact.compensation.totals.items())
    care_usd = finance.to_usd(impact.care.total, impact.care.currency)
    analysis = Analysis(
        agent="guest_experience",
        recommendation="",
        delay_assumed_minutes=delay,
        inputs_expected=2,
        inputs_present=int(bool(bookings)) + int(bool(bags) or not any(b.bag_tags for b in bookings)),
        findings=[
            *passengers.findings,
            *(impact.misconnections.findings if impact.misconnections else ()),
            *impact.compensation.findings,
        ],
        impact=GuestImpact(
            pax_affected=passengers.total,
            misconnections=misconnected,
            elite_pax=elite,
            nps_impact_estimate=-round(
                delay / 60 * NPS_POINTS_PER_DELAY_HOUR + share * NPS_POINTS_PER_MISCONNECTION_SHARE, 1
            ),
            vulnerable_pax=vulnerable,
            compensation_liability_usd=round(liability_usd, 2),
            care_cost_usd=round(care_usd, 2),
        ),
        facts=[
            f"{passengers.total} passengers ({elite} Gold/Platinum, {vulnerable} needing assistance), {len(bags)} bags.",
            f"At {basis} ({delay} min): {misconnected} misconnect at the hub; compensation "
            f"{', '.join(f'{v:,.0f} {k}' for k, v in impact.compensation.totals.items()) or 'none'} "
            f"({impact.compensation.passengers_owed} passengers); care {impact.care.total:,.0f} {impact.care.currency}.",
        ],
    )
    if misconnected:
        analysis.proposals.append(
            RecoveryProposal(
                kind="rebook",
                title=f"Rebook {misconnected} misconnecting passengers",
                detail="Protect onward connections on the next departures, vulnerable and premium passengers first.",
                parameters={"bookings": [b.booking_id for b in impact.misconnections.broken][:50]},
            )
        )
    analysis.proposals.append(
        RecoveryProposal(
            kind="tail_swap",
            title="Keep the schedule: any option without delay protects passengers best",
            detail="Guest impact grows with delay; a same-time departure avoids compensation and care.",
            estimated_delay_minutes=0,
        )
    )
    analysis.recommendation = (
        f"Minimise delay: {passengers.total} passengers, {misconnected} misconnections and "
        f"USD {liability_usd + care_usd:,.0f} of compensation and care at {delay} min."
    )
    analysis.data_sources = sources(handle)
    return analysis


def cargo_impact(handle: DataHandle, flight: Flight, delay: int):
    loads = q.cargo(handle, flight.flight_id)
    return loads, cargo.cargo_impact(flight, [a for a, _ in loads], [sh for _, sh in loads], delay)


def analyse_cargo(handle: DataHandle, flight: Flight, *, delay_minutes: int | None = None, now=None) -> Analysis:
    delay, basis = delay_for(flight, delay_minutes)
    loads, impact = cargo_impact(handle, flight, delay)
    perishable = [sh for _, sh in loads if {"PER", "COL", "FRO", "PIL"} & set(sh.handling_codes)]
    over = [r for r in impact.shipments if r.status != "legal"]
    analysis = Analysis(
        agent="cargo",
        recommendation="",
        delay_assumed_minutes=delay,
        findings=list(impact.findings),
        impact=CargoImpact(
            total_awbs=len(loads),
            high_yield_awbs=sum(sh.revenue_usd >= HIGH_YIELD_USD for _, sh in loads),
            perishable_awbs=len(perishable),
            cold_chain_at_risk=any({"PIL", "COL", "FRO"} & set(r.handling_codes) for r in over),
            revenue_at_risk=round(impact.revenue_at_risk_usd, 2),
        ),
        facts=[
            f"{len(loads)} shipments ({impact.weight_kg:,.0f} kg, USD {impact.revenue_usd:,.0f}); at {basis} ({delay} min) "
            f"USD {impact.revenue_at_risk_usd:,.0f} at risk, {len(over)} shipment(s) over their time limit."
        ],
    )
    if over:
        analysis.proposals.append(
            RecoveryProposal(
                kind="offload",
                title=f"Protect {len(over)} time-critical shipment(s)",
                detail="Re-route or transfer the shipments over their limit to the next suitable flight; keep the cold chain.",
                parameters={"shipments": sorted(r.shipment_id for r in over)},
            )
        )
    analysis.recommendation = (
        f"Cargo: {len(over)} time-critical shipment(s) at risk at {delay} min; "
        f"USD {impact.revenue_at_risk_usd:,.0f} revenue at risk."
        if over
        else f"Cargo tolerates a {delay}-minute delay ({len(loads)} shipments)."
    )
    analysis.data_sources = sources(handle)
    return analysis


def analyse_finance(
    handle: DataHandle, flight: Flight, *, delay_minutes: int | None = None, cause: str | None = None, now=None
) -> Analysis:
    delay, basis = delay_for(flight, delay_minutes)
    bookings = q.bookings(handle, flight.flight_id)
    compensation = guest.compensation_liability(flight, bookings, "delay", arrival_delay_minutes=delay, cause=cause)
    cancel_comp = guest.compensation_liability(flight, bookings, "cancellation", cause=cause)
    care = guest.duty_of_care(flight, bookings, "delay", departure_delay_minutes=delay)
    loads = q.cargo_assignments(handle, flight.flight_id)
    options = {
        "delay": finance.plan_cost(
            finance.PlanCostInput(flight_delays={flight.flight_id: delay}, compensation=(compensation,), care=(care,))
        ),
        "tail_swap": finance.plan_cost(finance.PlanCostInput(tail_swaps=1)),
        "cancel": finance.plan_cost(
            finance.PlanCostInput(compensation=(cancel_comp,), cancelled_bookings=tuple(bookings))
        ),
    }
    cheapest = min(options, key=lambda k: options[k].total_usd)
    chosen = options["delay"]
    comp_usd = sum(line.amount_usd for line in chosen.lines if line.component == "compensation")
    analysis = Analysis(
        agent="finance",
        recommendation="",
        delay_assumed_minutes=delay,
        inputs_expected=2,
        inputs_present=int(bool(bookings)) + int(bool(loads)),
        impact=FinanceImpact(
            direct_costs=round(chosen.total_usd - comp_usd, 2),
            revenue_loss=0.0,
            compensation_liability=round(comp_usd, 2),
            long_term_impact=0.0,
            total_exposure=round(max(o.total_usd for o in options.values()), 2),
        ),
        facts=[
            f"Cost at {basis}: delay {delay} min USD {options['delay'].total_usd:,.0f}; tail swap "
            f"USD {options['tail_swap'].total_usd:,.0f}; cancellation USD {options['cancel'].total_usd:,.0f}."
        ],
    )
    for kind, cost in sorted(options.items(), key=lambda kv: kv[1].total_usd):
        analysis.proposals.append(
            RecoveryProposal(
                kind=kind,
                title=f"{kind.replace('_', ' ')}: USD {cost.total_usd:,.0f}",
                detail="; ".join(f"{line.component} {line.amount_usd:,.0f}" for line in cost.lines if line.amount_usd),
                estimated_cost_usd=round(cost.total_usd, 2),
                estimated_delay_minutes=delay if kind == "delay" else 0,
            )
        )
    analysis.recommendation = f"Cheapest option: {cheapest.replace('_', ' ')} (USD {options[cheapest].total_usd:,.0f})."
    analysis.data_sources = sources(handle)
    return analysis
