"""The before/after Gantt of a network decision (an airport closed, a capacity cut, an ATC regulation): one chart
per ranked network plan over the tails its per-flight table touches, and the crews it calls out, with the
restriction's window as a band.

It reads the plan's own rows — the flights the network validation checked one by one, with their scheduled and
new times and tails — so what it draws is what the arbitrator validated and what execution would write.
"""

from __future__ import annotations

from datetime import timedelta

from ..arbitration.models import ArbitratorOutput, RankedScenario
from ..models.network_plan import FlightAction, NetworkDecision, NetworkPlan
from .gantt_models import GanttBand, GanttBar, GanttRow, GanttView, PlanFigures, PlanGantt

MARGIN = timedelta(minutes=30)  # around the earliest and latest bar


def _flight_bars(a: FlightAction) -> list[tuple[str, GanttBar]]:
    """(tail, bar) for one row: the original on its planned tail, the plan where and when it flies."""
    original = GanttBar(
        layer="original",
        change="unchanged",
        label=a.flight_number,
        flight_id=a.flight_id,
        origin=a.origin,
        destination=a.destination,
        start=a.scheduled_departure,
        end=a.scheduled_arrival,
        passengers=a.passengers,
        note=a.reason,
    )
    bars = [(a.registration, original)]
    common = {"label": a.flight_number, "flight_id": a.flight_id, "origin": a.origin, "destination": a.destination}
    if a.new_departure is None or a.new_arrival is None or a.new_registration is None:
        planned = original.model_copy(update={"layer": "plan", "change": "cancelled"})
        return [*bars, (a.registration, planned)]
    times = {"start": a.new_departure, "end": a.new_arrival, "delay_minutes": a.delay_minutes, "note": a.reason}
    if a.new_registration != a.registration:
        moved_off = original.model_copy(update={"layer": "plan", "change": "swapped_out"})
        moved_on = GanttBar(layer="plan", change="swapped_in", passengers=a.passengers, **common, **times)
        return [*bars, (a.registration, moved_off), (a.new_registration, moved_on)]
    change = "delayed" if a.delay_minutes else "unchanged"
    return [*bars, (a.registration, GanttBar(layer="plan", change=change, passengers=a.passengers, **common, **times))]


def _tail_rows(plan: NetworkPlan) -> list[GanttRow]:
    by_tail: dict[str, list[GanttBar]] = {}
    types: dict[str, str] = {}
    for a in plan.actions:
        types.setdefault(a.registration, a.aircraft_type)
        for tail, bar in _flight_bars(a):
            by_tail.setdefault(tail, []).append(bar)
    return [
        GanttRow(
            kind="tail",
            key=tail,
            label=f"{tail} ({types.get(tail, '?')})",
            bars=sorted(bars, key=lambda b: (b.start, b.layer)),
        )
        for tail, bars in sorted(by_tail.items())
    ]


def _crew_rows(plan: NetworkPlan) -> list[GanttRow]:
    """Each crew member a plan replaces (off the flight) and each reserve it calls out (on it)."""
    rows: dict[str, tuple[str, list[GanttBar]]] = {}
    for a in plan.actions:
        if a.new_departure is None or a.new_arrival is None:
            continue
        for c in a.crew_changes:
            flight = {"label": a.flight_number, "flight_id": a.flight_id, "origin": a.origin}
            flight |= {"destination": a.destination, "note": c.reason}
            off = GanttBar(
                layer="plan", change="replaced", start=a.scheduled_departure, end=a.scheduled_arrival, **flight
            )
            on = GanttBar(
                layer="plan",
                change="reserve_call_out",
                start=a.new_departure,
                end=a.new_arrival,
                delay_minutes=a.delay_minutes,
                **flight,
            )
            rows.setdefault(c.replaced, (f"{c.rank} {c.replaced}", []))[1].append(off)
            rows.setdefault(c.reserve, (f"{c.rank} {c.reserve} (reserve)", []))[1].append(on)
    return [
        GanttRow(kind="crew", key=key, label=label, bars=sorted(bars, key=lambda b: b.start))
        for key, (label, bars) in sorted(rows.items())
    ]


def _figures(plan: NetworkPlan, ranked: RankedScenario) -> PlanFigures:
    t = plan.totals
    return PlanFigures(
        delay_minutes=t.max_delay_minutes,
        arrival_delay_minutes=t.max_delay_minutes,
        cancellations=t.cancellations,
        passengers_disrupted=t.passengers_affected,
        misconnections=t.misconnections,
        compensation_usd=t.cost_by_component.get("compensation", 0.0),
        total_cost_usd=t.cost_usd,
        confidence=ranked.confidence,
    )


def build_network_gantt(name: str, decision: ArbitratorOutput) -> GanttView:
    """The Gantt of run `name`'s network decision: its ranked plans, best first."""
    assert decision.network is not None, "a network decision carries its plans' tables"
    network: NetworkDecision = decision.network
    plans = {v.plan.plan_id: v.plan for v in network.plans}
    charts = []
    for r in decision.ranked:
        plan = plans.get(r.scenario.scenario_id)
        if plan is None:
            continue
        charts.append(
            PlanGantt(
                scenario_id=r.scenario.scenario_id,
                rank=r.rank,
                rules_rank=r.rank,
                reordered_by_model=False,
                title=r.scenario.title,
                kind=r.scenario.kind,
                score=r.score,
                figures=_figures(plan, r),
                tails=_tail_rows(plan),
                crew=_crew_rows(plan),
            )
        )
    restriction = network.restriction
    bars = [b for chart in charts for row in chart.tails for b in row.bars]
    start = min([restriction.window.start, *(b.start for b in bars)]) - MARGIN
    end = max([restriction.window.end, *(b.end for b in bars)]) + MARGIN
    band = GanttBand(
        kind="closure" if restriction.kind == "closure" else "slot",
        airport=restriction.airport,
        start=restriction.window.start,
        end=restriction.window.end,
        label=f"held: {', '.join(restriction.flight_numbers)}"
        if restriction.kind == "flights"
        else f"{restriction.kind} {restriction.airport}",
        source="report",
    )
    return GanttView(
        disruption_id=name,
        flight_id=restriction.airport,
        flight_number=restriction.described().capitalize()
        if restriction.kind == "flights"
        else f"{restriction.kind.capitalize()} at {restriction.airport}",
        start=start,
        end=end,
        bands=[band],
        plans=charts,
    )
