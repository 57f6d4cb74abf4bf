"""The API's read views of a run: its progress (phases, agents, states) and its decision (the top three plans and
everything shown above them, and a network decision's per-flight tables), from the execution's description and
the arbitrator's stored output."""

from __future__ import annotations

import json

from ..models.airports import UnknownAirport, airport
from ..models.network_plan import NetworkDecision, NetworkRestriction
from ..workflow.runs.client import WorkflowClient
from ..workflow.runs.progress import phase_of
from . import models as m
from .plans import phase_spans
from .why import escalation_banners, finding_rows, network_refusals, refused_groups, run_escalation


def run_progress(wf: WorkflowClient, disruption_id: str) -> m.RunProgress:
    described = wf.describe(disruption_id)
    progress = wf.progress(disruption_id)
    output = json.loads(described["output"]) if described.get("output") else None
    request = json.loads(described.get("input") or "{}")
    return m.RunProgress(
        disruption_id=disruption_id,
        status=progress.status,
        phase=phase_of(progress),
        current_state=progress.current,
        awaiting_approval=progress.awaiting_approval,
        prompt=request.get("prompt"),
        agents=[
            m.AgentStatus(phase=p, agent=a, status=v.status, seconds=v.seconds)
            for (p, a), v in sorted(progress.agents.items())
        ],
        states=[m.StateEntered(name=n, at=t) for n, t in progress.states],
        phases=phase_spans(progress.states, described.get("stopDate")),
        outcome=(output or {}).get("outcome"),
        escalation=run_escalation((output or {}).get("escalation")),
        started_at=described["startDate"],
        stopped_at=described.get("stopDate"),
    )


def decision_view(disruption_id: str, output: dict, *, awaiting_approval: bool, attempt: int | None) -> m.DecisionView:
    cards = []
    for ranked in output.get("ranked", [])[:3]:
        scenario = ranked["scenario"]
        cards.append(
            m.ScenarioCard(
                rank=ranked["rank"],
                scenario_id=scenario["scenario_id"],
                title=scenario["title"],
                kind=scenario["kind"],
                score=ranked["score"],
                confidence=ranked["confidence"],
                delay_minutes=scenario["delay_minutes"],
                cost_usd=scenario["cost_usd"],
                passengers_impacted=scenario["passengers_impacted"],
                rationale=ranked["rationale"],
                pros=ranked["pros"],
                cons=ranked["cons"],
                compliance=ranked["compliance"],
                findings=finding_rows(ranked["compliance"]),
                precedent=ranked.get("precedent", ""),
                sensitivity=ranked.get("sensitivity") or {},
                actions=scenario["actions"],
            )
        )
    return m.DecisionView(
        disruption_id=disruption_id,
        status=output.get("status", "decided"),
        final_decision=output["final_decision"],
        confidence=output["confidence"],
        justification=output.get("justification", ""),
        awaiting_approval=awaiting_approval,
        attempt=attempt,
        top=cards,
        escalations=output.get("escalations", []),
        escalation_banners=escalation_banners(output.get("escalations", [])),
        refused=refused_groups(output.get("rejected", []) + network_refusals(output.get("network"))),
        citations=output.get("citations", []),
        disruption=output.get("disruption"),
        llm_overrides=output.get("llm_overrides", []),
        instruction=output.get("instruction"),
        removed_by_instruction=output.get("removed_by_instruction", []),
        debate=output.get("debate"),
        network=network_view(output["network"], output.get("ranked", [])) if output.get("network") else None,
        station=decision_station(output),
    )


def decision_station(output: dict) -> m.Station | None:
    """The airport the decision is about: the disruption's scope, else the airport its report states, else the
    network restriction's; with its zone from the world reference (no table read)."""
    disruption = output.get("disruption") or {}
    stated = next((f.get("value") for f in disruption.get("facts", []) if f.get("name") == "airport"), None)
    restriction = (output.get("network") or {}).get("restriction") or {}
    code = (disruption.get("scope") or {}).get("airport") or stated or restriction.get("airport")
    if not isinstance(code, str):
        return None
    try:
        info = airport(code)
    except UnknownAirport:
        return None
    return m.Station(iata=info.iata, tz=info.tz)


def restriction_summary(r: NetworkRestriction) -> str:
    """One line: what, where, when, and the figures a capacity cut or a regulation sets."""
    start, end = r.window.start, r.window.end
    ends = end.strftime("%H:%M" if end.date() == start.date() else "%d %b %H:%M")
    if r.kind == "flights":  # the flights a report names: from the first departure to the last held one
        return f"{r.described()}, {start:%d %b %H:%M}–{ends}Z"
    line = f"{r.kind} at {r.airport} {start:%d %b %H:%M}–{ends}Z"
    if r.kind != "closure" and (r.departures_per_hour is not None or r.arrivals_per_hour is not None):
        line += f", {r.departures_per_hour if r.departures_per_hour is not None else '–'} departures"
        line += f" and {r.arrivals_per_hour if r.arrivals_per_hour is not None else '–'} arrivals an hour"
    if r.slot_delay_minutes:
        line += f", slots {r.slot_delay_minutes} min after schedule"
    return line


def network_view(network: dict, ranked: list[dict]) -> m.NetworkView:
    """Every plan's per-flight table: valid plans by rank (a valid plan set aside by alternatives has none), then
    the rejected ones, each with its first rejection first."""
    decision = NetworkDecision.model_validate(network)
    ranks = {r["scenario"]["scenario_id"]: r["rank"] for r in ranked}
    plans = []
    for v in decision.plans:
        p = v.plan
        rows = [
            m.FlightRow(
                **a.model_dump(exclude={"crew_changes", "rebooked_onto"}),
                crew_changes=[m.CrewChangeRow(**c.model_dump(exclude={"report_at"})) for c in a.crew_changes],
                excluded=decision.excluded.get(a.flight_id),
            )
            for a in p.actions
        ]
        plans.append(
            m.NetworkPlanView(
                plan_id=p.plan_id,
                title=p.title,
                objective=p.objective,
                valid=v.valid,
                rank=ranks.get(p.plan_id) if v.valid else None,
                totals=p.totals,
                rejections=v.rejections,
                notes=p.notes,
                rows=rows,
            )
        )
    # valid and ranked first by rank, then valid but set aside, then rejected (the planner's order within each)
    plans.sort(key=lambda x: (not x.valid, x.rank is None, x.rank or 0))
    return m.NetworkView(
        summary=restriction_summary(decision.restriction),
        restriction=decision.restriction,
        flights_affected=decision.flights_affected,
        flights_inheriting=decision.flights_inheriting,
        recommended=next((r["scenario"]["scenario_id"] for r in ranked if r["rank"] == 1), None),
        excluded=decision.excluded,
        exclusion_refused=decision.exclusion_refused,
        plans=plans,
    )


def exclusion_ids(network: dict | None, wanted: dict[str, str]) -> dict[str, str]:
    """The duty manager's exclusions keyed by flight id: each key a flight id of the plans' tables, or a flight
    number only one flight of them has. Raises ValueError, in one line, for a flight not in any table."""
    if not network:
        raise ValueError("exclude applies to a network decision (an airport or airspace disruption); this is not one")
    decision = NetworkDecision.model_validate(network)
    by_number: dict[str, set[str]] = {}
    for v in decision.plans:
        for a in v.plan.actions:
            by_number.setdefault(a.flight_number.upper(), set()).add(a.flight_id)
    ids = set().union(*by_number.values()) if by_number else set()
    out, problems = {}, []
    for key, reason in wanted.items():
        name = key.strip()
        found = {name} if name in ids else by_number.get(name.upper(), set())
        if len(found) == 1:
            out[found.pop()] = reason
        elif found:
            problems.append(f"{name} is {len(found)} flights ({', '.join(sorted(found))}): name one by its id")
        else:
            problems.append(f"{name} is in no plan's table")
    if problems:
        raise ValueError("; ".join(problems))
    return out
