"""The Learn step: the run's outcome, the audit document, and the learning record — one DisruptionRecord per run, which the arbitrator reads back as precedent
(`queries.past_disruptions`, by disruption type: the type of the disruption's AHM 730 code, `history_type`, the
same the arbitrator searches by).

Ids are `SM-<execution id>`, apart from the generator's seeded `H-YYYY-NNNN`; the put is conditional, so a
retried Learn step writes the record once. What the record says:

- `recommended_action`: the rank-1 scenario's kind; `chosen_action`: the kind of the scenario the duty
  manager approved or selected — when nothing was chosen (reject, timeout, escalation) the recommended kind,
  and the summary says nothing was chosen.
- `overridden`: a reject, or a chosen scenario that is not rank 1 (approving or selecting rank 1 is not an
  override: the duty manager agreed with the arbitrator). A timeout or escalation overrides nothing.
- `outcome`: executed → on_plan; rolled back, compensation failed, or approved but no report → failed;
  rejected, timed out or escalated → not_executed.
- The flight's route, type and initial delay come from the row as it was before execution (the report's
  `flight_before`), since the Learn step reads the flight after the plan changed it.
"""

from __future__ import annotations

from datetime import datetime

from ...arbitration.models import ArbitratorOutput, Scenario
from ...data import queries as q
from ...data.loader import item_of
from ...models.disruption import history_type
from ...models.history import DisruptionRecord, DisruptionType
from ...models.operational import Flight
from ..alerts import AlertChannel, raise_alert
from ..audit.document import audit_document, run_status
from ..aws.errors import ClientError
from ..deployment import ALERT_FAILED_METRIC, escalation_metric
from ..execution.records import ExecutionReport, recorded_report, run_record
from ..models import ApprovalDecision, Escalation, ExecutionSummary, ValidatedRequest
from ..models import Outcome as RunOutcome
from ..payloads import ArtifactStore, run_key
from ..steps.attempts import report_artifact
from ..tables import WorkflowTables
from .history_record import ID_PREFIX, VERB, ApprovalOutcome, NothingToLearn, RunAnswer, outcome_of
from .network import network_records


def learning_record(
    *,
    execution_id: str,
    disruption_type: DisruptionType,
    decision: ArbitratorOutput | dict,
    chosen_scenario_id: str | None,
    decided_by: str | None,
    approval_action: ApprovalOutcome,
    report: ExecutionReport | None,
    occurred_at: datetime,
    flight: Flight | None,
) -> DisruptionRecord:
    output = decision if isinstance(decision, ArbitratorOutput) else ArbitratorOutput.model_validate(decision)
    if not output.ranked:
        raise NothingToLearn(f"execution {execution_id}: the arbitrator ranked no plan, so there is nothing to record")
    ranked: dict[str, Scenario] = {r.scenario.scenario_id: r.scenario for r in output.ranked}
    top = output.ranked[0].scenario
    chosen = None
    if chosen_scenario_id is not None and approval_action in ("approve", "select"):
        chosen = ranked.get(chosen_scenario_id)
        if chosen is None:
            raise NothingToLearn(
                f"execution {execution_id}: {chosen_scenario_id} is not one of the ranked plans ({', '.join(ranked)})"
            )
    elif approval_action == "approve":
        chosen = top  # approve without an id means rank 1
    base = report.flight_before if report is not None and report.flight_before is not None else flight
    if base is None:
        raise NothingToLearn(
            f"execution {execution_id}: flight {output.flight_id} is not in the flights table; "
            "a history record needs its route and aircraft type"
        )
    outcome = outcome_of(approval_action, report)
    executed = outcome == "on_plan"
    plan = chosen or top
    return DisruptionRecord(
        disruption_id=f"{ID_PREFIX}{execution_id}",
        disruption_type=disruption_type,
        occurred_at=occurred_at,
        flight_number=base.flight_number,
        origin=base.origin,
        destination=base.destination,
        aircraft_type=base.aircraft_type,
        initial_delay_minutes=base.delay_minutes,
        recommended_action=top.kind,
        chosen_action=plan.kind,
        overridden=approval_action == "reject" or (chosen is not None and chosen.scenario_id != top.scenario_id),
        outcome=outcome,
        actual_delay_minutes=plan.arrival_delay_minutes if executed else base.delay_minutes,
        passengers_affected=plan.passengers_impacted,
        cost_usd=round(plan.cost_usd, 2) if executed else 0.0,
        summary=_summary(base, top, chosen, approval_action, decided_by, report),
        decided_by=decided_by,
        execution_id=execution_id,
        scenario_ids=list(ranked),
    )


def _summary(
    flight: Flight,
    top: Scenario,
    chosen: Scenario | None,
    action: str,
    decided_by: str | None,
    report: ExecutionReport | None,
) -> str:
    who = decided_by or "nobody"
    head = f"{flight.flight_number} {flight.origin}-{flight.destination}: recommended {top.title} ({top.scenario_id})"
    if chosen is None:
        decided = f"{who} {VERB.get(action, action)}; nothing was chosen, recorded as the recommended {top.kind}"
    elif chosen.scenario_id == top.scenario_id:
        decided = f"{who} {VERB.get(action, action)} it"
    else:
        decided = f"{who} chose {chosen.title} ({chosen.scenario_id}) instead"
    if report is None:
        done = "nothing was executed" if action not in ("approve", "select") else "the execution left no report"
    elif report.status == "executed":
        done = f"executed as planned ({len(report.actions)} action(s))"
    else:
        done = f"execution failed ({report.reason_code}: {report.error}) and {report.status.replace('_', ' ')}"
    return f"{head}; {decided}; {done}."


def record_learning(record: DisruptionRecord, *, tables: WorkflowTables) -> bool:
    """Write the record once: False when a retried Learn step finds it already there."""
    table = tables.history
    try:
        table.put_item(Item=item_of(record), ConditionExpression="attribute_not_exists(disruption_id)")
        return True
    except ClientError as exc:
        if exc.response["Error"]["Code"] == "ConditionalCheckFailedException":
            return False
        raise


def run_answer(
    request: ValidatedRequest,
    approval: ApprovalDecision | None,
    execution: ExecutionSummary | None,
    escalation: Escalation | None,
    executed: ExecutionReport | None,
) -> RunAnswer:
    """How the run ended, filed under the disruption's own type: its AHM 730 code's (`history_type`), the type the
    arbitrator searches precedents by — never the prompt's words read again."""
    return {
        # the execution that applied the plan names the record: a resumed run that found it applied adds none
        "execution_id": executed.execution_id if executed else request.execution_name,
        "disruption_type": history_type(request.disruption.iata_delay_code),
        "chosen_scenario_id": execution.scenario_id if execution else (executed.scenario_id if executed else None),
        "decided_by": approval.decided_by if approval else None,
        "approval_action": approval.action
        if approval
        else ("timeout" if escalation and escalation.reason == "APPROVAL_TIMEOUT" else "escalated"),
        "report": executed,
        "occurred_at": request.reported_at,
    }


def applied_report(request: ValidatedRequest, *, tables: WorkflowTables) -> ExecutionReport | None:
    """The report of a plan this run's Execute finished although the run failed after it (its answer lost: a
    timeout, a crash once the transactions had committed) — read from its execution record, the truth — so Learn
    records what happened to the airline, not the failure of a step; None when this run applied nothing."""
    record = run_record(request.disruption_id, tables=tables)
    if record is None or record.get("execution_name", request.disruption_id) != request.execution_name:
        return None
    return recorded_report(tables.checkpoints, record) if record.get("status") != "running" else None


def learn_step(
    state: dict,
    *,
    store: ArtifactStore,
    handle,
    tables: WorkflowTables,
    registry=None,
    metrics=None,
    trail=None,
    alerts: AlertChannel | None = None,
    execution_arn: str | None = None,
) -> RunOutcome:
    """Record the run in DisruptionHistory (once), count acceptance and overrides, alert the duty manager of an
    escalation (`alerts`: the topic and console link; None: no alert), write the audit document."""
    from ..steps.decision import close_arbitration

    request = ValidatedRequest.model_validate(state["request"])
    status = run_status(state)
    approval = ApprovalDecision.model_validate(state["approval"]) if state.get("approval") else None
    decision_state = state.get("decision")
    output = ArbitratorOutput.model_validate(store.resolve(decision_state["output"])) if decision_state else None
    execution = ExecutionSummary.model_validate(state["execution"]) if state.get("execution") else None
    escalation = Escalation.model_validate(state["escalation"]) if state.get("escalation") else None
    report = (
        store.get(run_key(request.disruption_id, request.execution_name, report_artifact(execution.attempt)))
        if execution
        else None
    )
    if registry is not None:
        close_arbitration(state, registry)
    history_id = None
    executed = ExecutionReport.model_validate(report) if report else None
    if execution is None:  # failed (or escalated) before Execute answered: the tables say whether it applied the plan
        executed = applied_report(request, tables=tables)
    if output is not None and output.ranked:  # nothing to learn from a run that never had a plan
        answer = run_answer(request, approval, execution, escalation, executed)
        if output.network is not None:  # a row per flight of the network plan (workflow/learning/network.py)
            records = network_records(output=output, **answer)
        else:
            flight = q.get_flight(handle, request.flight_id) if request.flight_id else None
            records = [learning_record(decision=output, flight=flight, **answer)]
        for record in records:
            record_learning(record, tables=tables)
        history_id = records[0].disruption_id if records else None  # a network run's: its first flight's row
        overridden = any(r.overridden for r in records)
        if metrics is not None:
            from aws_lambda_powertools.metrics import MetricUnit

            metrics.add_metric(
                name="PlanAccepted" if not overridden else "PlanOverridden", unit=MetricUnit.Count, value=1
            )
    if metrics is not None:
        from aws_lambda_powertools.metrics import MetricUnit

        metrics.add_metric(name=f"Run{status.title()}", unit=MetricUnit.Count, value=1)
        if escalation is not None:  # one metric per escalation code, each with its alarm (infra/alarms.py)
            metrics.add_metric(name=escalation_metric(escalation.reason), unit=MetricUnit.Count, value=1)
    alert = raise_alert(state, tables=tables, channel=alerts, execution_arn=execution_arn) if alerts else None
    if alert is not None and alert.delivery == "failed" and metrics is not None:
        from aws_lambda_powertools.metrics import MetricUnit

        metrics.add_metric(name=ALERT_FAILED_METRIC, unit=MetricUnit.Count, value=1)
    message = {
        "executed": f"executed {execution.scenario_id}: {len(execution.actions)} action(s)" if execution else "",
        "rejected": f"rejected by {approval.decided_by if approval else '?'}; nothing changed",
        "escalated": f"escalated ({escalation.reason if escalation else '?'}): {escalation.message if escalation else ''}",
        "failed": f"execution of {execution.scenario_id if execution else '?'} failed and was rolled back: "
        f"{execution.error if execution else ''}",
    }[status]
    outcome = RunOutcome(
        status=status,
        history_id=history_id,
        message=message.strip(),
        alert=alert.model_dump(mode="json") if alert else None,
    )
    from ..runs import flight_claims as flight_claims

    if flight_claims.enabled() and request.flight_id:  # an executed plan holds the flight; any other ending frees it
        flight_claims.release(
            flight_id=request.flight_id,
            disruption_id=request.disruption_id,
            recovered=status == "executed" or (executed is not None and executed.status == "executed"),
            tables=tables,
            execution_name=request.execution_name,
        )
    if trail is not None:
        trail.append(
            request.disruption_id,
            "outcome",
            f"outcome:{request.execution_name}",
            {
                **outcome.model_dump(mode="json", exclude={"audit"}),
                "escalation": escalation.model_dump(mode="json") if escalation else None,
            },
            actor="learn",
            execution_name=request.execution_name,
        )
    document = audit_document(
        request.disruption_id,
        [request.execution_name],
        store=store,
        tables=tables,
        state={**state, "outcome": outcome.model_dump(mode="json")},
    )
    export = run_key(request.disruption_id, request.execution_name, "audit")
    audit = store.save(export, document, inline_limit=0)
    anchor = None
    if trail is not None:  # the export is an artifact like any other: hashed, so an edited export fails verify
        trail.append(
            request.disruption_id,
            "export",
            f"export:{request.execution_name}",
            {"artifact": trail.artifact(store.bucket, export)},
            actor="learn",
            execution_name=request.execution_name,
        )
        from ..audit.anchor import anchor_head

        anchor = anchor_head(trail, request.disruption_id, objects=store.objects)
    return outcome.model_copy(update={"audit": audit, "anchor": anchor})
