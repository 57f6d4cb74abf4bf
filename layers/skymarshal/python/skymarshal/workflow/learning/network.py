"""Learn for a network disruption: one DisruptionHistory row per flight of the plan's table, each naming the
event (its execution id and the shared id prefix), so the precedent search finds how each route and type fared.

Delays are measured from the schedule, as the per-flight table measures them: the restriction is the event that
delays a flight, so a flight's initial delay is what it carried before the event (0 for a flight on time)."""

from __future__ import annotations

from datetime import datetime

from ...arbitration.models import ArbitratorOutput, RankedScenario
from ...models.history import ActionKind, DisruptionRecord, DisruptionType
from ...models.network_plan import FlightAction
from ..execution.records import ExecutionReport
from .history_record import ID_PREFIX, VERB, ApprovalOutcome, NothingToLearn, outcome_of

ROW_KIND: dict[str, ActionKind] = {
    "retime": "delay",
    "tail_swap": "tail_swap",
    "cancel": "cancel",
    "ferry": "rescue_aircraft",  # a positioning ferry: a flight the plan added (its own row), an aircraft flown in empty
}


def _kind(a: FlightAction) -> ActionKind:
    if a.crew_changes and a.action in ("operate", "retime"):
        return "crew_swap"
    return ROW_KIND.get(a.action, "delay")


def network_records(
    *,
    execution_id: str,
    disruption_type: DisruptionType,
    output: ArbitratorOutput,
    chosen_scenario_id: str | None,
    decided_by: str | None,
    approval_action: ApprovalOutcome,
    report: ExecutionReport | None,
    occurred_at: datetime,
) -> list[DisruptionRecord]:
    """A row per flight of the chosen plan (rank 1 when nothing was chosen): what the plan did to it and how the
    run ended."""
    decision = output.network
    if decision is None or not output.ranked:
        raise NothingToLearn(f"execution {execution_id}: no network plan was ranked, so there is nothing to record")
    top: RankedScenario = output.ranked[0]
    wanted = chosen_scenario_id if approval_action in ("approve", "select") and chosen_scenario_id else None
    plan_id = wanted or top.scenario.scenario_id
    plans = {v.plan.plan_id: v.plan for v in decision.plans}
    if plan_id not in plans:
        raise NothingToLearn(f"execution {execution_id}: {plan_id} is not one of the network plans")
    plan, recommended = plans[plan_id], plans[top.scenario.scenario_id]
    recommended_kind = {a.flight_id: _kind(a) for a in recommended.actions}
    outcome = outcome_of(approval_action, report)
    executed = outcome == "on_plan"
    who = decided_by or "nobody"
    records = []
    for a in plan.actions:
        done = "executed" if executed else (report.status.replace("_", " ") if report else "not executed")
        records.append(
            DisruptionRecord(
                disruption_id=f"{ID_PREFIX}{execution_id}#{a.flight_id}",
                disruption_type=disruption_type,
                occurred_at=occurred_at,
                flight_number=a.flight_number,
                origin=a.origin,
                destination=a.destination,
                aircraft_type=a.aircraft_type,
                initial_delay_minutes=0,
                recommended_action=recommended_kind.get(a.flight_id, "delay"),
                chosen_action=_kind(a),
                overridden=approval_action == "reject" or plan_id != top.scenario.scenario_id,
                outcome=outcome,
                actual_delay_minutes=a.delay_minutes if executed else 0,
                passengers_affected=a.passengers,
                cost_usd=0.0,
                summary=(
                    f"{a.flight_number} {a.origin}-{a.destination} in the network disruption {execution_id}: "
                    f"{plan.title} ({a.action}{f', {a.delay_minutes} min' if a.delay_minutes else ''}); "
                    f"{who} {VERB.get(approval_action, approval_action)} it; {done}."
                ),
                decided_by=decided_by,
                execution_id=execution_id,
                scenario_ids=list(plans),
            )
        )
    return records
