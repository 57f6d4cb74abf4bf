"""An agent's analysis of an airport or airspace disruption (or of several flights one report names): its own
analysis of every flight in the window (or named), each at the delay the restriction alone imposes on it, merged into one answer — the safety agents' binding findings
per flight (each prefixed with the flight), the business agents' totals and their worst flights.

The imposed delay is what a flight carries if it simply waits the restriction out: a closure holds a departure
inside the window until it reopens and an arrival inside it until then; an ATC regulation delays a regulated
flight by its slot delay; a capacity cut imposes none any one flight can be said to carry (the network planner
spreads it), so those flights are analysed as scheduled. The plans themselves come from the network planner
(network/validation.py), which validates each flight at its planned times with the same rules.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..analysis.base import Analysis, Impact
from ..data import queries as q
from ..data.access import DataHandle
from ..models.agent_response import CargoImpact, FinanceImpact, GuestImpact, NetworkImpact
from ..models.disruption import Disruption
from ..models.operational import Flight
from .restriction import stated_figure
from .scope import held_for, is_named_set

NETWORK_SCOPES = ("airport", "airspace")
# The measure a business agent's worst flights are ranked by (the worst cases: misconnections and
# stranded passengers, cold-chain cargo, EU261/UK261 exposure, knock-on flights).
WORST_BY = {
    "guest_experience": ("misconnections", "misconnections"),
    "cargo": ("perishable_awbs", "perishable AWBs"),
    "finance": ("compensation_liability", "USD compensation liability"),
    "network": ("downstream_flights", "downstream flights"),
}
RISK_ORDER = ("low", "medium", "high")
SHOWN = 3


def is_network(disruption: Disruption | None) -> bool:
    """An airport or airspace over a window, or several flights one report names: the network planner's."""
    return disruption is not None and (disruption.scope.kind in NETWORK_SCOPES or is_named_set(disruption))


def imposed_delay(disruption: Disruption, flight: Flight) -> int | None:
    """Minutes the restriction alone imposes on the flight (see the module's docstring); None: none it can be
    said to carry."""
    if is_named_set(disruption):
        return held_for(disruption, flight)[0] or None
    window, airport = disruption.window, disruption.scope.airport or disruption.scope.airspace
    if window is None or airport is None:
        return None
    if disruption.remarks == "closed":
        held = [
            (window.end - at).total_seconds() // 60
            for at, iata in (
                (flight.scheduled_departure, flight.origin),
                (flight.scheduled_arrival, flight.destination),
            )
            if iata == airport and window.start <= at < window.end
        ]
        return int(max(held)) if held else None
    slot = stated_figure(disruption, "slot_delay_minutes")
    return int(slot) if slot else None


def window_flights(handle: DataHandle, disruption: Disruption) -> list[Flight]:
    """The flights Validate listed, read as the airport's two GSI queries over the window (not one GetItem each)."""
    wanted = set(disruption.scope.flights)
    window, airport = disruption.window, disruption.scope.airport or disruption.scope.airspace
    found: dict[str, Flight] = {}
    if window is not None and airport is not None:
        found = {f.flight_id: f for f in q.flights_at_airport(handle, airport, window.start, window.end)}
    missing = [fid for fid in disruption.scope.flights if fid not in found]
    for fid in missing:  # listed at Validate but outside the GSI read (a flight of the airspace's scope)
        if (f := q.get_flight(handle, fid)) is not None:
            found[fid] = f
    return sorted((f for fid, f in found.items() if fid in wanted), key=lambda f: (f.scheduled_departure, f.flight_id))


def _total(agent: str, impacts: list[Impact]) -> Impact | None:
    """The set's impact: counts and amounts summed, the worst estimate and risk kept, lists joined."""
    if not impacts:
        return None
    kind = type(impacts[0])
    assert kind in (NetworkImpact, GuestImpact, CargoImpact, FinanceImpact), agent
    values: dict[str, Any] = {}
    for name, field in kind.model_fields.items():
        seen = [getattr(i, name) for i in impacts]
        if name in ("nps_impact_estimate", "fleet_utilization_impact"):
            values[name] = max(seen, key=abs)
        elif name == "propagation_risk":
            values[name] = max(seen, key=RISK_ORDER.index)
        elif field.annotation is bool:  # before the numbers: a bool is an int
            values[name] = any(seen)
        elif isinstance(seen[0], list):
            values[name] = list(dict.fromkeys(x for s in seen for x in s))
        elif isinstance(seen[0], int | float):
            values[name] = round(sum(seen), 2) if isinstance(seen[0], float) else sum(seen)
        else:
            values[name] = seen[0]
    return kind(**values)


def _label(flight: Flight, delay: int | None) -> str:
    return f"{flight.flight_number}" + (f" (held {delay} min)" if delay else "")


def merge(
    agent: str, airport: str, parts: list[tuple[Flight, int | None, Analysis]], where: str | None = None
) -> Analysis:
    """One analysis of the set from each flight's (see the module's docstring). `where`: how the set is named
    ("at AUH in the window" unless given)."""
    where = where or f"at {airport} in the window"
    findings, limits, facts = [], [], []
    for flight, delay, a in parts:
        label = _label(flight, delay)
        findings += [f.model_copy(update={"message": f"{label}: {f.message}"}) for f in a.findings]
        limits += [f"{label}: {limit}" for limit in a.limits]
    bound = [(flight, delay, a) for flight, delay, a in parts if a.binding]
    impacts = [a.impact for _, _, a in parts if a.impact is not None]
    held = [d for _, d, _ in parts if d]
    facts.append(
        f"{len(parts)} flights {where}"
        + (f", {len(held)} held by it (up to {max(held)} min)" if held else "")
        + f"; binding findings on {len(bound)} of them"
    )
    if agent in WORST_BY and impacts:
        field, unit = WORST_BY[agent]
        worst = sorted(
            ((getattr(a.impact, field), f) for f, _, a in parts if a.impact is not None and getattr(a.impact, field)),
            key=lambda x: (-x[0], x[1].flight_id),
        )[:SHOWN]
        if worst:
            facts.append("Worst: " + ", ".join(f"{f.flight_number} {v:,.0f} {unit}" for v, f in worst))
    facts += [f"{_label(f, d)}: {len(a.binding)} binding finding(s)" for f, d, a in bound[:SHOWN]]
    total = _total(agent, impacts)
    recommendation = (
        f"{len(bound)} of {len(parts)} flights {where} carry binding findings if held: every network plan "
        "must respect them at its own times"
        if bound
        else f"{len(parts)} flights {where}: nothing binding at the delays the restriction imposes"
    )
    return Analysis(
        agent=agent,
        recommendation=recommendation,
        facts=facts,
        findings=findings,
        constraints=[c for _, _, a in parts for c in a.constraints],
        impact=total,
        proposals=[],  # the network planner proposes the set's plans (network/validation.py)
        data_sources=sorted({s for _, _, a in parts for s in a.data_sources}),
        inputs_expected=sum(a.inputs_expected for _, _, a in parts) or 1,
        inputs_present=sum(a.inputs_present for _, _, a in parts),
        delay_assumed_minutes=max(held) if held else None,
        limits=limits,
    )


def analyse_set(
    agent: str, analyse, takes_delay: bool, handle: DataHandle, disruption: Disruption, now: datetime
) -> Analysis:
    """The agent's analysis (`analyse`, its single-flight function) of every flight of the disruption, merged."""
    parts = []
    for flight in window_flights(handle, disruption):
        delay = imposed_delay(disruption, flight)
        kwargs = {"delay_minutes": delay} if takes_delay and delay else {}
        parts.append((flight, delay, analyse(handle, flight, now=now, **kwargs)))
    airport = disruption.scope.airport or disruption.scope.airspace or "the airport"
    named = ", ".join(disruption.scope.flight_numbers) if is_named_set(disruption) else None
    return merge(agent, airport, parts, where=f"named ({named})" if named else None)


def reused_set_analysis(agent: str, own: dict) -> dict[str, Any]:
    """A revision round's analysis of the set: the first round's, as it answered. Each flight was analysed at the
    delay the restriction imposes, which no other agent's answer changes, and the data has not changed (nothing is
    executed before approval), so analysing again would find the same; the revision still reads the others'
    answers and keeps every binding constraint (agents/graph.py `_response`)."""
    from ..models.agent_response import AgentResponse

    before = AgentResponse.model_validate(own)
    analysis = Analysis(
        agent=agent,
        recommendation=before.recommendation,
        findings=before.findings,
        constraints=before.constraints,
        impact=before.impact,
        data_sources=before.data_sources,
    )
    return {
        "analysis": analysis.model_dump(mode="json"),
        "narrative": {"recommendation": before.recommendation, "reasoning": before.reasoning},
        "confidence": before.confidence,
        "llm": before.llm,
        "probed": False,
        "basis": "the first round's analysis of every flight, at the delays the restriction imposes",
    }
