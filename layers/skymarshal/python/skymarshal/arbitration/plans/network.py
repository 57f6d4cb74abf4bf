"""A network decision as the arbitrator's output: each valid network plan becomes one ranked scenario whose
typed actions (delay, tail swap, reserve call-out, cancellation with its re-accommodation) are what Execute
applies as one grouped, compensated execution — the same execution, approval and learning path as one flight.

The ranking is the single-flight one (ranking.normalise and ranking.score over the same four criteria), each
criterion measured on the whole plan from the per-flight table:
- passenger satisfaction: what the day scorecard counts (issue 46 item 3) — passenger-hours late at arrival, a
  re-accommodated passenger at the arrival of the flight that takes them and one with no seat a day late, plus
  rules.finance.OVERNIGHT_HOURS for each one stranded overnight (network.totals measures both), as for one flight;
- cost: the plan's cost (network.totals: operating cost, EU261/UK261 by cause and Art. 9 care);
- network stability: flights the plan changes (retimed, swapped, ferried), a cancellation counting double;
- execution reliability: 1 less 0.02 per reserve called out and 0.01 per tail swap (moves that can go wrong), and
  0.005 per crew member its execution must call (at most 0.1, as for one flight: contacts.py).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from ...models.disruption import Disruption
from ...models.history import ActionKind
from ...models.network_plan import FlightAction, NetworkDecision, NetworkPlan, ValidatedNetworkPlan
from ...network.continuity import touched_tails
from ...rules.finance import OVERNIGHT_HOURS
from ..actions import (
    Action,
    CancelFlight,
    DelayFlight,
    FerryAircraft,
    ReassignCrew,
    RebookPassengers,
    RepositionFleet,
    RestCrew,
    SwapAircraft,
)
from ..crew.contacts import crew_to_contact, moved_flights
from ..models import KIND_OF_ACTION, ArbitratorOutput, Escalation, RankedScenario, Scenario, Sensitivity
from ..ranking import (
    CONTACT_RISK,
    CONTACT_RISK_CAP,
    CRITERIA,
    Precedent,
    RankingWeights,
    normalise,
    score,
)

CREW_REPORT_BEFORE_FERRY = timedelta(minutes=60)  # the ferry's crew reports as for any departure (ORO.FTL.105)


def flight_actions(a: FlightAction) -> list[Action]:
    """The typed actions that carry out one row of the per-flight table (an unchanged row has none)."""
    out: list[Action] = []
    if a.action == "cancel":
        moved = sum(a.rebooked_onto.values())
        out.append(CancelFlight(flight_id=a.flight_id, reason=a.reason or "network plan"))
        if a.passengers:
            out.append(
                RebookPassengers(
                    flight_id=a.flight_id,
                    passengers=a.passengers,
                    onto=dict(a.rebooked_onto),
                    interline=max(0, a.passengers - moved),
                )
            )
        return out
    if a.action == "ferry":
        assert a.new_departure is not None and a.new_arrival is not None
        crew = {c.rank: c.reserve for c in a.crew_changes}
        return [  # the optimizer's empty positioning flight: its own new flight, with its own number (network.ferry)
            FerryAircraft(
                flight_id=a.flight_id,
                positioning=True,
                flight_number=a.flight_number,
                registration=a.registration,
                aircraft_type=a.aircraft_type,
                origin=a.origin,
                destination=a.destination,
                departure=a.new_departure,
                arrival=a.new_arrival,
                crew=crew,
                crew_report_at=a.new_departure - CREW_REPORT_BEFORE_FERRY,
            )
        ]
    if a.new_registration and a.new_registration != a.registration:
        out.append(
            SwapAircraft(
                flight_id=a.flight_id,
                from_registration=a.registration,
                to_registration=a.new_registration,
                to_aircraft_type=a.aircraft_type,
            )
        )
    if a.delay_minutes > 0 and a.new_departure is not None and a.new_arrival is not None:
        out.append(
            DelayFlight(
                flight_id=a.flight_id,
                delay_minutes=a.delay_minutes,
                new_departure=a.new_departure,
                new_arrival=a.new_arrival,
            )
        )
    if a.moved_reports:  # after the DelayFlight that moves their sectors (execution applies them in order)
        out.append(
            RestCrew(
                flight_id=a.flight_id,
                reports=dict(a.moved_reports),
                stood_down_at=min(a.moved_reports.values()) - timedelta(minutes=a.delay_minutes),
            )
        )
    if a.crew_changes:
        out.append(
            ReassignCrew(
                flight_id=a.flight_id,
                replacements={c.replaced: c.reserve for c in a.crew_changes},
                report_at=min(c.report_at for c in a.crew_changes),
            )
        )
    return out


def _kind(plan: NetworkPlan, kinds: list[ActionKind]) -> ActionKind:
    """What the plan mostly does: a plan that cancels more flights than it keeps moving is a cancellation."""
    t = plan.totals
    changed = sum(a.action in ("retime", "tail_swap", "ferry") for a in plan.actions)
    if t.cancellations and t.cancellations >= changed:
        return "cancel"
    return "delay" if "delay" in kinds or not kinds else kinds[0]


def network_scenario(plan: NetworkPlan) -> Scenario:
    actions = [x for a in plan.actions for x in flight_actions(a)]
    tails = sorted(touched_tails(plan.actions))
    if tails:  # where each tail it touches ends up (AircraftAvailability), as for a single-flight plan
        actions.append(RepositionFleet(flight_id=plan.actions[0].flight_id, registrations=tails))
    kinds: list[ActionKind] = sorted({KIND_OF_ACTION[x.kind] for x in actions if x.kind in KIND_OF_ACTION})
    t = plan.totals
    operated = [a for a in plan.actions if a.operates and a.action != "ferry"]
    delays = [a.delay_minutes for a in operated]
    return Scenario(
        scenario_id=plan.plan_id,
        kind=_kind(plan, kinds),
        kinds=kinds,
        title=plan.title,
        sources=["network"],
        actions=actions,
        operates=t.operated > 0,
        registration=None,
        aircraft_type=None,
        crew_replacements={c.replaced: c.reserve for a in plan.actions for c in a.crew_changes},
        departure=None,
        arrival=None,
        arrival_airport=None,
        delay_minutes=t.max_delay_minutes,
        arrival_delay_minutes=round(sum(delays) / len(delays)) if delays else 0,
        passengers_impacted=t.passengers_affected,
        cost_usd=t.cost_usd,
        cost_by_component=dict(t.cost_by_component),
        downstream_flights_delayed=sum(a.delay_minutes > 0 for a in operated),
        crew_to_contact=t.crew_to_contact,
        execution_notes=[*plan.notes, *(f"{r.flight_id}: {r.change} ({r.reason})" for r in plan.replanned)],
    )


def raw_criteria(plan: NetworkPlan) -> dict[str, float]:
    """The four ranking criteria of a whole plan (the module's docstring says how each is measured)."""
    t = plan.totals
    contacts = min(CONTACT_RISK_CAP, CONTACT_RISK * t.crew_to_contact)
    return {
        "passenger_satisfaction": t.passenger_minutes / 60 + OVERNIGHT_HOURS * t.passengers_stranded_overnight,
        "cost": t.cost_usd,
        "network_stability": sum(a.action != "operate" for a in plan.actions) + t.cancellations,
        "execution_reliability": max(0.0, 1.0 - 0.02 * t.reserves_called - 0.01 * t.tail_swaps - contacts),
    }


def _sensitivity(plan: NetworkPlan) -> Sensitivity:
    t = plan.totals
    return Sensitivity(
        delay_plus_30="every retimed flight 30 min later: re-validated only by a new run (slots and crews move)",
        delay_minus_30="not available: the restriction's window sets the earliest times",
        one_spare_fewer="no spare aircraft used" if not t.tail_swaps else f"{t.tail_swaps} tail swap(s) depend on it",
        one_reserve_more="no reserve needed" if not t.reserves_called else f"{t.reserves_called} reserve(s) called",
    )


def _summary(plan: NetworkPlan) -> str:
    t = plan.totals
    return (
        f"{t.flights} flights in the table, {t.operated} operated ({t.delay_minutes} min of delay in all, at most "
        f"{t.max_delay_minutes}), {t.cancellations} cancelled, {t.tail_swaps} tail swap(s), {t.reserves_called} "
        f"reserve(s); {t.passengers_reaccommodated} passengers re-accommodated, {t.passengers_stranded_overnight} "
        f"overnight; USD {t.cost_usd:,.0f}"
    )


def with_contacts(plan: NetworkPlan, rostered: Callable[[str], list[str]]) -> NetworkPlan:
    """The plan with the crew its execution must call in its totals (contacts.py; `rostered`: a flight's crew)."""
    scenario = network_scenario(plan)
    crew = crew_to_contact(scenario, {fid: rostered(fid) for fid in moved_flights(scenario)})
    return plan.model_copy(update={"totals": plan.totals.model_copy(update={"crew_to_contact": crew})})


def _tie(plan: NetworkPlan) -> int:
    """Between plans that score alike, waiting first and the conservative baseline last: a plan that changes
    nothing the others change is the one a duty manager reads as "hold", not "cancel the rotations"."""
    return {"hold": 0, "baseline": 2}.get(plan.objective, 1)


def rank_network(valid: list[ValidatedNetworkPlan], weights: RankingWeights) -> list[RankedScenario]:
    """The valid plans best first by the arbitrator's weighted criteria; confidence as ranking.confidence weighs
    it: every flight shown legal by the rules (zero tolerance, so 1.0 for a valid plan), the plan's execution
    reliability, and how clearly it beats the next plan."""
    if not valid:
        return []
    raw = [raw_criteria(v.plan) for v in valid]
    norm = normalise(raw)
    neutral = Precedent(0.5, 0, "no network disruption of this kind on record")
    scores = [score(n, weights, neutral) for n in norm]
    order = sorted(range(len(valid)), key=lambda i: (-scores[i], _tie(valid[i].plan), valid[i].plan.plan_id))
    ranked = []
    for rank, i in enumerate(order, start=1):
        rival = max((scores[j] for j in order if j != i), default=None)
        gap = 1.0 if rival is None else min(1.0, max(0.0, scores[i] - rival) * 5)
        reliability = raw[i]["execution_reliability"]
        plan = valid[i].plan
        ranked.append(
            RankedScenario(
                rank=rank,
                scenario=network_scenario(plan),
                score=scores[i],
                criteria={c: round(norm[i][c], 4) for c in CRITERIA},
                confidence=round(min(1.0, 0.5 + 0.3 * reliability + 0.2 * gap), 3),
                rationale=f"{plan.title}: {_summary(plan)}",
                pros=[f"{valid[i].flights_checked} flights validated, none illegal ({valid[i].checks} checks)"],
                cons=list(plan.notes),
                compliance=[],
                precedent=neutral.text,
                sensitivity=_sensitivity(plan),
            )
        )
    return ranked


def network_output(
    decision: NetworkDecision,
    disruption: Disruption,
    weights: RankingWeights,
    exclude: frozenset[str] = frozenset(),
    rostered: Callable[[str], list[str]] | None = None,
) -> ArbitratorOutput:
    """The arbitrator's output for a network disruption: the valid plans ranked (less those set aside), the
    decision with every plan's table, and an escalation when none is valid. `rostered` (a flight's crew ids):
    each plan's totals count the crew its execution must call, which its execution risk weighs."""
    if rostered is not None:
        plans = [v.model_copy(update={"plan": with_contacts(v.plan, rostered)}) for v in decision.plans]
        decision = decision.model_copy(update={"plans": plans})
    valid = [v for v in decision.valid if v.plan.plan_id not in exclude]
    ranked = rank_network(valid, weights)
    r = decision.restriction
    what = r.described()
    rejected = [v for v in decision.plans if not v.valid]
    refused = "; ".join(
        f"{v.plan.title}: {v.rejections[0].flight_id} {v.rejections[0].code} ({v.rejections[0].message})"
        + (f" and {len(v.rejections) - 1} more" if len(v.rejections) > 1 else "")
        for v in rejected
    )
    if ranked:
        top = ranked[0]
        (best,) = [v.plan for v in valid if v.plan.plan_id == top.scenario.scenario_id]
        final = f"{top.scenario.title} for the {what}: {_summary(best)}"
        status = "decided"
    else:
        final = f"No network plan for the {what} is legal: a duty manager re-plans the flights"
        status = "escalated"
    return ArbitratorOutput(
        final_decision=final,
        recommendations=[x.rationale for x in ranked],
        conflicts_identified=[],
        conflict_resolutions=[],
        safety_overrides=[],
        justification=(
            f"{decision.flights_affected} flights {'named' if r.kind == 'flights' else 'in the window'} and "
            f"{decision.flights_inheriting} inheriting a delay; "
            f"{len(decision.plans)} plans, each flight validated with zero tolerance"
            + (f"; rejected — {refused}" if refused else "")
        ),
        reasoning="ranked by the arbitrator's weights over passenger delay, cost, network stability and reliability",
        confidence=ranked[0].confidence if ranked else 0.0,
        status=status,
        disruption=disruption,
        ranked=ranked,
        weights=weights.as_dict(),
        scenarios_considered=len(decision.plans),
        escalations=[] if ranked else [Escalation(code="NO_VALID_SCENARIO", message=final)],
        network=decision,
    )


def refused_output(reason: str, disruption: Disruption) -> ArbitratorOutput:
    """The report cannot be planned (a window past the data, more flights than the limit): its one line, for the
    duty manager the run escalates to."""
    return ArbitratorOutput(
        final_decision=reason,
        recommendations=[],
        conflicts_identified=[],
        conflict_resolutions=[],
        safety_overrides=[],
        justification=reason,
        reasoning="the network planner refused the report before making any plan",
        confidence=0.0,
        status="escalated",
        disruption=disruption,
        escalations=[Escalation(code="INPUT_ERROR", message=reason)],
    )
