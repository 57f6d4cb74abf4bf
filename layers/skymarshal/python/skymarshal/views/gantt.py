"""The before/after Gantt of a decision: a pure function of the arbitrator's output and the operational rows.

`build_gantt` reads only its arguments (the data comes from `gantt_data.gather`, through the DataHandle), so
what the chart shows is exactly what the plans' typed actions do:
- the disrupted flight moves by the plan's own times (`Scenario.departure`/`arrival`), to another tail
  (SwapAircraft), to an alternate (DivertFlight, followed by the ferry to the destination the plan is costed
  with), or is cancelled (CancelFlight);
- when the flight stays on its tail, the delay runs down the rotation as `rules.network.propagate_delay`
  computes it — the same propagation the plan's cost counted — so the later legs move too;
- crews follow their flights; a ReassignCrew takes the rostered member off and calls the reserve out from
  its report time to the flight's arrival.
Nothing here decides legality: the constraints on a bar are the checks the arbitrator made for that plan.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..arbitration.actions import CancelFlight, ContinueFlight, DivertFlight, ReassignCrew, SwapAircraft
from ..arbitration.models import ArbitratorOutput, ConstraintCheck, RankedScenario
from ..arbitration.plans.operate import FERRY_KM_PER_MINUTE
from ..models.airports import great_circle_km
from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import Flight
from ..rules import network
from ..rules.ferry import FERRY_TAXI_MINUTES
from .gantt_crew import check_text, crew_rows
from .gantt_models import (
    BandKind,
    Change,
    GanttBand,
    GanttBar,
    GanttRow,
    GanttView,
    Layer,
    OpsSnapshot,
    PlanFigures,
    PlanGantt,
    PlannedFlight,
)

BEFORE, AFTER, LONGEST = timedelta(hours=3), timedelta(hours=3), timedelta(hours=36)
REGULATORY_BANDS: dict[str, BandKind] = {"weather": "weather", "notam": "closure", "atc": "slot", "curfew": "curfew"}
DEFAULT_TURN_MINUTES = 60


def build_gantt(disruption_id: str, output: ArbitratorOutput, ops: OpsSnapshot) -> GanttView:
    rules_order = sorted(output.ranked, key=lambda r: (-r.score, r.rank))
    plans = [_plan(ranked, rules_order.index(ranked) + 1, ops) for ranked in output.ranked[:3]]
    start, end = _window(ops.flight, plans)
    plans = [_clip(p, start, end) for p in plans]
    return GanttView(
        disruption_id=disruption_id,
        flight_id=ops.flight.flight_id,
        flight_number=ops.flight.flight_number,
        start=start,
        end=end,
        bands=bands(output, ops, start, end),
        plans=plans,
        llm_overrides=[f"{o.requested}: {o.reason}" for o in output.llm_overrides],
    )


def _plan(ranked: RankedScenario, rules_rank: int, ops: OpsSnapshot) -> PlanGantt:
    scenario, f = ranked.scenario, ops.flight
    swap = next((a for a in scenario.actions if isinstance(a, SwapAircraft)), None)
    divert = next((a for a in scenario.actions if isinstance(a, DivertFlight)), None)
    reassign = next((a for a in scenario.actions if isinstance(a, ReassignCrew)), None)
    cancelled = any(isinstance(a, CancelFlight) for a in scenario.actions)
    planned = planned_flights(ranked, ops)
    broken = misconnections(ranked, ops)
    checks, crew_ids = ranked.compliance, {d.crew_id for d in ops.roster}

    def plan_bar(g: Flight, change: Change | None = None, note: str = "") -> GanttBar:
        """Where the plan puts `g` (its own times when the plan leaves it alone, or as `change` says)."""
        p = planned.get(g.flight_id) if change is None else None
        disrupted = g.flight_id == f.flight_id
        start, end = (p.start, p.end) if p else (g.scheduled_departure, g.scheduled_arrival)
        delay = p.delay_minutes if p else 0
        if change == "swapped_in":  # the disrupted flight at the plan's times, a leg it carries at its own
            own = planned[f.flight_id] if disrupted else None
            start, end = (own.start, own.end) if own else (g.departure, g.arrival)
            delay = own.delay_minutes if own else g.delay_minutes
        return _bar(
            "plan",
            change or (p.change if p else "unchanged"),
            g,
            start,
            end,
            destination=p.destination if p else None,
            delay=delay,
            checks=checks,
            at_risk=broken if disrupted and change != "swapped_out" else None,
            note=note,
            disrupted=disrupted,
            crew=crew_ids,
        )

    # every flight a swap moves (the disrupted one and the later legs it carries until the tails swap back)
    moved = {a.flight_id: a for a in scenario.actions if isinstance(a, SwapAircraft)}
    by_id = {g.flight_id: g for rows in ops.rotations.values() for g in rows} | {f.flight_id: f}
    tails: list[GanttRow] = []
    for registration in [f.aircraft_registration] + ([swap.to_registration] if swap else []):
        incoming = swap is not None and registration == swap.to_registration
        flights = sorted(ops.rotations.get(registration, []), key=lambda g: g.scheduled_departure)
        bars = [_bar("original", "unchanged", g, g.scheduled_departure, g.scheduled_arrival) for g in flights]
        for g in flights:
            away = moved.get(g.flight_id)
            bars.append(
                plan_bar(g, "swapped_out", f"moved to {away.to_registration}")
                if away and away.to_registration != registration
                else plan_bar(g)
            )
        here = {g.flight_id for g in flights}
        for flight_id, a in moved.items():  # the disrupted flight at the plan's times, a carried leg at its own
            leg = by_id.get(flight_id)
            if leg is not None and a.to_registration == registration and flight_id not in here:
                bars.append(plan_bar(leg, "swapped_in", f"from {leg.aircraft_registration}"))
        if divert and registration == f.aircraft_registration:
            bars.append(ferry(f, divert.alternate, planned[f.flight_id].end, no_landing(ops)))
        if (onward := _continuation(scenario)) and registration == f.aircraft_registration:
            bars.append(continuation_bar(f, onward))
        aircraft_type = swap.to_aircraft_type if incoming and swap else f.aircraft_type
        label = f"{registration} ({aircraft_type})" + (" — swapped in" if incoming else "")
        tails.append(GanttRow(kind="tail", key=registration, label=label, bars=bars))

    crew = crew_rows(ops, planned, reassign, checks)
    figures = PlanFigures(
        delay_minutes=scenario.delay_minutes,
        arrival_delay_minutes=scenario.arrival_delay_minutes,
        cancellations=int(cancelled),
        passengers_disrupted=scenario.passengers_impacted,
        misconnections=broken,
        compensation_usd=scenario.cost_by_component.get("compensation", 0.0),
        total_cost_usd=scenario.cost_usd,
        confidence=ranked.confidence,
    )
    return PlanGantt(
        scenario_id=scenario.scenario_id,
        rank=ranked.rank,
        rules_rank=rules_rank,
        reordered_by_model=rules_rank != ranked.rank,
        title=scenario.title,
        kind=scenario.kind,
        score=ranked.score,
        figures=figures,
        tails=tails,
        crew=crew,
    )


def planned_flights(ranked: RankedScenario, ops: OpsSnapshot) -> dict[str, PlannedFlight]:
    """Original flight id → where the plan puts it: the disrupted flight, and the later legs of its tail that
    its delay reaches (only while the flight stays on that tail)."""
    scenario, f = ranked.scenario, ops.flight
    if not scenario.operates:
        return {f.flight_id: PlannedFlight(f.scheduled_departure, f.scheduled_arrival, "cancelled", f.destination, 0)}
    departure = scenario.departure or f.scheduled_departure
    arrival = scenario.arrival or f.scheduled_arrival
    divert = next((a for a in scenario.actions if isinstance(a, DivertFlight)), None)
    swap = any(isinstance(a, SwapAircraft) for a in scenario.actions)
    change: Change = "diverted" if divert else "delayed" if scenario.delay_minutes > 0 else "unchanged"
    out = {
        f.flight_id: PlannedFlight(
            departure, arrival, change, divert.alternate if divert else f.destination, scenario.delay_minutes
        )
    }
    onward = _continuation(scenario)
    if onward is not None:  # on the ground at the alternate: the flight as it flew there, then the leg from there
        out = {f.flight_id: PlannedFlight(f.departure, f.arrival, "diverted", onward.origin, f.delay_minutes)}
    rotation = ops.rotations.get(f.aircraft_registration, [])
    if swap or f.flight_id not in {g.flight_id for g in rotation}:
        return out
    # The tail is back at the destination when it lands there (after the ferry, for a diversion).
    back = onward.arrival if onward else ferry(f, divert.alternate, arrival, no_landing(ops)).end if divert else arrival
    late = max(0, int((back - f.scheduled_arrival).total_seconds() // 60))
    by_id = {g.flight_id: g for g in rotation}
    try:
        spread = network.propagate_delay(rotation, f.flight_id, late).flights[1:]
    except ValueError:  # the flight is already cancelled in the data: nothing runs down the rotation
        spread = ()
    for d in spread:
        g = by_id[d.flight_id]
        if d.departure_delay_minutes > 0:
            shift = timedelta(minutes=d.departure_delay_minutes)
            out[g.flight_id] = PlannedFlight(
                g.scheduled_departure + shift,
                g.scheduled_arrival + shift,
                "delayed",
                g.destination,
                d.departure_delay_minutes,
            )
    return out


def misconnections(ranked: RankedScenario, ops: OpsSnapshot) -> int:
    """Connecting passengers of the disrupted flight whose onward flight the plan breaks (MCT at the
    destination, rules.network): at the arrival the plan gives them — by coach after a diversion."""
    scenario, f = ranked.scenario, ops.flight
    inbound = f if scenario.operates else f.model_copy(update={"status": "CANCELLED"})
    reaches = f.scheduled_arrival + timedelta(minutes=scenario.arrival_delay_minutes)
    report = network.misconnections(
        [inbound],
        list(ops.onward.values()),
        ops.bookings,
        hub=ops.profiles.get(f.destination),
        new_arrivals={f.flight_id: reaches},
    )
    return report.passengers


def no_landing(ops: OpsSnapshot) -> list[tuple[datetime, datetime]]:
    """The regulatory agent's windows with no landing at the destination (weather below limits, a closure)."""
    f = ops.flight
    return [
        (w.start, w.end)
        for c in ops.regulatory
        if c.constraint_type in ("weather", "notam") and f.destination in c.affected_airports
        for w in c.time_windows
    ]


def _continuation(scenario) -> ContinueFlight | None:
    return next((a for a in scenario.actions if isinstance(a, ContinueFlight)), None)


def continuation_bar(f: Flight, leg: ContinueFlight) -> GanttBar:
    """A diverted flight's continuation from its alternate, passengers on board (the row execution adds)."""
    return GanttBar(
        layer="plan",
        change="ferry",
        label=f"{f.flight_number}C {leg.origin}-{leg.destination}",
        new_flight=True,
        origin=leg.origin,
        destination=leg.destination,
        start=leg.departure,
        end=leg.arrival,
        passengers=leg.passengers,
        note="continuation from the alternate on the same aircraft, passengers on board",
    )


def ferry(f: Flight, alternate: str, landed: datetime, closed: list[tuple[datetime, datetime]]) -> GanttBar:
    """The positioning flight from the alternate back to the destination that the diversion's cost counts
    (taxi plus distance at the ferry speed). The plan gives it no time: drawn at the earliest, after the
    type's minimum turn and landing after any window in which the destination takes no landings."""
    kind = AIRCRAFT_TYPES.get(f.aircraft_type)
    turn = timedelta(minutes=kind.min_turn_minutes if kind else DEFAULT_TURN_MINUTES)
    block = timedelta(minutes=FERRY_TAXI_MINUTES + int(great_circle_km(alternate, f.destination) / FERRY_KM_PER_MINUTE))
    start = landed + turn
    for s, e in sorted(closed):
        if s < start + block <= e:  # would land inside the window: land as it ends
            start = e - block
    return GanttBar(
        layer="plan",
        change="ferry",
        label=f"FERRY {alternate}-{f.destination}",
        new_flight=True,
        origin=alternate,
        destination=f.destination,
        start=start,
        end=start + block,
        passengers=0,
        note="positioning flight the diversion adds (no passengers); earliest time after the turn and any no-landing window",
    )


def _bar(
    layer: Layer,
    change: Change,
    g: Flight,
    start: datetime,
    end: datetime,
    *,
    destination: str | None = None,
    delay: int = 0,
    checks: list[ConstraintCheck] | None = None,
    at_risk: int | None = None,
    note: str = "",
    disrupted: bool = False,
    crew: set[str] | None = None,
) -> GanttBar:
    return GanttBar(
        layer=layer,
        change=change,
        label=g.flight_number,
        flight_id=g.flight_id,
        origin=g.origin,
        destination=destination or g.destination,
        start=start,
        end=end,
        delay_minutes=delay,
        passengers=sum(g.booked.values()),
        connections_at_risk=at_risk,
        constraints=constraints_for(checks or [], g, disrupted=disrupted, crew=crew or set())
        if layer == "plan"
        else [],
        note=note,
    )


def constraints_for(checks: list[ConstraintCheck], g: Flight, *, disrupted: bool, crew: set[str]) -> list[str]:
    """The plan's checks that apply to this flight's bar: on the disrupted flight every check made for it but
    the per-crew-member ones (the crew view shows those on each member's row); on another flight only those
    naming it or its tail (the others were made for the disrupted flight's times)."""
    names = {g.flight_id, g.flight_number, g.aircraft_registration}
    picked = [c for c in checks if c.subject not in crew] if disrupted else [c for c in checks if c.subject in names]
    return [check_text(c) for c in picked]


def bands(output: ArbitratorOutput, ops: OpsSnapshot, start: datetime, end: datetime) -> list[GanttBand]:
    """The constraining windows inside the chart: the regulatory agent's (weather, NOTAM closures, ATC slots,
    curfews), the curfews of the airports the plans use (airport profiles) and the reported window."""
    from ..rules.curfew import window_instants

    found: list[GanttBand] = []
    for c in ops.regulatory:
        kind = REGULATORY_BANDS.get(c.constraint_type)
        if kind is None:  # passenger rights: no time window to shade
            continue
        what = c.restrictions[0] if c.restrictions else c.reasoning[:90]
        places: list[str | None] = list(c.affected_airports) or [None]
        for tw in c.time_windows:
            for airport in places:
                label = f"{airport or ''} {kind}: {what}".strip()
                found.append(
                    GanttBand(
                        kind=kind, airport=airport, start=tw.start, end=tw.end, label=label, source="regulatory agent"
                    )
                )
    airports = [ops.flight.origin, ops.flight.destination]
    for ranked in output.ranked[:3]:
        airports += [a.alternate for a in ranked.scenario.actions if isinstance(a, DivertFlight)]
    for iata in dict.fromkeys(airports):
        profile = ops.profiles.get(iata)
        if profile is None:
            continue
        for cw in profile.curfews:
            for s, e in window_instants(cw, profile.tz, ops.flight.scheduled_departure):
                label = f"{iata} {cw.kind.replace('_', ' ')} {cw.start_local}-{cw.end_local} local ({cw.applies_to})"
                source = f"airport profile: {cw.source}"
                found.append(GanttBand(kind="curfew", airport=iata, start=s, end=e, label=label, source=source))
    d = output.disruption
    if d is not None and d.window is not None:
        found.append(
            GanttBand(
                kind="disruption",
                airport=d.scope.airport,
                start=d.window.start,
                end=d.window.end,
                label=f"reported: {d.cause}",
                source="report",
            )
        )
    inside = [b for b in found if b.end > start and b.start < end]
    return list({(b.kind, b.airport, b.start, b.end): b for b in inside}.values())


def _window(f: Flight, plans: list[PlanGantt]) -> tuple[datetime, datetime]:
    """From before the disrupted flight's schedule to after the latest moved bar, at most LONGEST long."""
    moved = [
        b.end
        for p in plans
        for row in p.tails + p.crew
        for b in row.bars
        if b.layer == "plan" and b.change != "unchanged"
    ]
    start = f.scheduled_departure - BEFORE
    end = max([f.scheduled_arrival, *moved]) + AFTER
    return start, min(end, start + LONGEST)


def _clip(plan: PlanGantt, start: datetime, end: datetime) -> PlanGantt:
    """Only the bars that show in the window (they keep their true times; the console clips the drawing)."""

    def keep(row: GanttRow) -> GanttRow:
        return row.model_copy(update={"bars": [b for b in row.bars if b.end > start and b.start < end]})

    return plan.model_copy(update={"tails": [keep(r) for r in plan.tails], "crew": [keep(r) for r in plan.crew]})
