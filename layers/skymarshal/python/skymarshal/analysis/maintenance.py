"""Maintenance: airworthiness of the flight's tail, its estimated release, and tail-swap candidates
(MaintenanceWorkOrders, MaintenanceStaff/Roster, AircraftAvailability and flights via the data handle)."""

from __future__ import annotations

from datetime import datetime, timedelta

from ..data import queries as q
from ..data.access import DataHandle
from ..models.agent_response import MaintenanceConstraint, MelItemSummary, RecoveryProposal
from ..models.fleet import compatible_types
from ..models.operational import AircraftDay, Flight
from ..rules.maintenance_release import estimate_release
from ..rules.mel import aircraft_airworthiness, rectification_deadline
from ..rules.tail_swap import rank_tail_swaps, tail_swap_eligibility
from .base import Analysis, decision_time, sources

ROTATION_LOOKAROUND = timedelta(hours=36)
RELEASE_HORIZON = timedelta(hours=72)


def _summaries(orders, at: datetime) -> list[MelItemSummary]:
    items = []
    for order in orders:
        if order.mel and order.status != "CLOSED":
            deadline = rectification_deadline(order.mel)
            items.append(
                MelItemSummary(
                    reference=order.mel.reference,
                    category=order.mel.category,
                    expires_at=deadline,
                    expired=at >= deadline,
                    restrictions=list(order.mel.restrictions),
                )
            )
    return items


def analyse_maintenance(handle: DataHandle, flight: Flight, *, now: datetime | None = None) -> Analysis:
    at = decision_time(flight, now)
    departure = flight.departure
    orders = q.work_orders_for_aircraft(handle, flight.aircraft_registration)
    state = aircraft_airworthiness(orders, departure, registration=flight.aircraft_registration)
    # A grounded tail's day is in the fleet the tail swap search reads anyway; else its own rows say it is known.
    fleet = _fleet(handle, flight) if not state.airworthy else []
    known = any(d.aircraft_registration == flight.aircraft_registration for d in fleet) or bool(
        q.aircraft_days(handle, flight.aircraft_registration)
    )
    analysis = Analysis(
        agent="maintenance",
        recommendation="",
        findings=list(state.findings),
        inputs_expected=2,
        inputs_present=1 + int(known),
    )
    release_at, actions = None, []
    if not state.airworthy:
        # Work starts no earlier than the defects grounding the aircraft were reported.
        start = max([at, *(o.opened_at for o in orders if o.status != "CLOSED" and o.opened_at <= departure)])
        shifts = q.engineers_on_shift(handle, flight.origin, start, start + RELEASE_HORIZON)
        estimate = estimate_release(
            flight.aircraft_registration,
            orders,
            [e for _, e in shifts],
            [s for s, _ in shifts],
            start,
            needed_by=departure,
        )
        analysis.findings.extend(f for f in estimate.findings if f not in analysis.findings)
        release_at = estimate.release_at
        actions = [
            f"rectify {t.work_order_id} ({t.labour_hours:.1f} h, {t.required_authorisation}) "
            f"{t.start:%H:%MZ}–{t.end:%H:%MZ}"
            for t in estimate.tasks
        ]
        if release_at:
            late = max(0, int((release_at - flight.scheduled_departure).total_seconds() // 60))
            analysis.delay_assumed_minutes = late
            analysis.facts.append(
                f"{flight.aircraft_registration} is grounded; estimated release {release_at:%Y-%m-%d %H:%MZ}"
                f" ({late} min after the scheduled departure)."
            )
            analysis.proposals.append(
                RecoveryProposal(
                    kind="delay",
                    title=f"Delay {flight.flight_number} until the aircraft is released",
                    detail=f"Estimated release {release_at:%H:%MZ} from parts, labour and the engineers on shift.",
                    parameters={"delay_minutes": late, "registration": flight.aircraft_registration},
                    estimated_delay_minutes=late,
                )
            )
        else:
            analysis.facts.append(
                f"{flight.aircraft_registration} is grounded and no release can be estimated: "
                f"{estimate.blocker.message if estimate.blocker else 'unknown'}."
            )
    analysis.constraints.append(
        MaintenanceConstraint(
            aircraft_id=flight.aircraft_registration,
            mel_items=_summaries(orders, departure),
            airworthy=state.airworthy,
            restrictions=list(state.restrictions),
            required_actions=actions,
            estimated_release=release_at,
            reasoning="; ".join(f.message for f in state.findings if f.status != "legal")
            or "no open defect or expired item",
        )
    )
    swaps = _tail_swaps(handle, flight, at, analysis, fleet) if not state.airworthy else []
    if state.airworthy:
        analysis.recommendation = f"{flight.aircraft_registration} is airworthy for {flight.flight_number}."
    elif swaps:
        best = swaps[0]
        analysis.recommendation = (
            f"Tail swap: {flight.aircraft_registration} is grounded; {best.registration} "
            f"({best.aircraft_type}) is airworthy and at {best.station} in time."
        )
    else:
        analysis.recommendation = (
            f"{flight.aircraft_registration} is grounded and no airworthy aircraft can take "
            f"{flight.flight_number}: delay until release or cancel."
        )
    analysis.data_sources = sources(handle)
    return analysis


def _fleet(handle: DataHandle, flight: Flight) -> list[AircraftDay]:
    """The day's aircraft of every type the flight's crew may operate (the tail swap candidates and its own)."""
    return [d for t in compatible_types(flight.aircraft_type) for d in q.fleet_of_type(handle, t, flight.flight_date)]


def _tail_swaps(handle: DataHandle, flight: Flight, at: datetime, analysis: Analysis, fleet: list[AircraftDay]):
    candidates = [c for c in fleet if c.aircraft_registration != flight.aircraft_registration]
    # Every candidate's rotation with one Query per type; its work orders only when nothing else refuses it
    # (airworthiness adds a refusal and findings, and a candidate refused otherwise reports neither).
    rotations = q.tail_rotations(
        handle,
        compatible_types(flight.aircraft_type),
        [c.aircraft_registration for c in candidates],
        flight.departure - ROTATION_LOOKAROUND,
        flight.departure + ROTATION_LOOKAROUND,
    )
    results = []
    for candidate in candidates:
        rotation = rotations[candidate.aircraft_registration]
        result = tail_swap_eligibility(candidate, (), rotation, flight, at)
        if result.eligible:
            orders = q.work_orders_for_aircraft(handle, candidate.aircraft_registration)
            result = tail_swap_eligibility(candidate, orders, rotation, flight, at)
        results.append(result)
        if result.refusals and all(r.code == "NOT_AIRWORTHY" for r in result.refusals):  # otherwise usable
            analysis.findings.extend(f for f in result.findings if f.binding)
    ranked = rank_tail_swaps(results)
    refused = [r for r in results if not r.eligible]
    analysis.facts.append(
        f"{len(results)} aircraft of a compatible type checked for a tail swap: {len(ranked)} eligible"
        + (f" ({', '.join(r.registration for r in ranked[:3])})" if ranked else "")
        + f", {len(refused)} refused."
    )
    for result in ranked[:3]:
        moved = result.cabin_plan.offloaded + sum(result.cabin_plan.downgraded.values())
        analysis.proposals.append(
            RecoveryProposal(
                kind="tail_swap",
                title=f"Swap to {result.registration} ({result.aircraft_type})",
                detail=f"Airworthy, at {result.station}, ready {result.ready_at:%H:%MZ}"
                if result.ready_at
                else f"Airworthy, on the ground at {result.station}",
                parameters={
                    "registration": result.registration,
                    "aircraft_type": result.aircraft_type,
                    "passengers_moved": moved,
                    "notes": [n.message for n in result.notes],
                },
                estimated_delay_minutes=flight.delay_minutes,
            )
        )
    return ranked
