"""The Arbitrate and Execute steps, free of Lambda, and the arbitration thread's close with the run's human outcome
(what Learn records): the ranked decision, the approved scenario carried out, the thread marked."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from ...checkpoint.threads import BaseThreadRegistry, IllegalTransition, thread_id
from ...data.access import DataHandle
from ...models.debate import DebateState
from ..audit.trail import AuditTrail
from ..execution.publish import MessageBus
from ..models import ApprovalDecision, DecisionSummary, Escalation, ExecutionSummary, RankedSummary, ValidatedRequest
from ..payloads import ArtifactStore, run_key
from ..tables import WorkflowTables

log = logging.getLogger("skymarshal.workflow")
ARBITRATOR_THREAD = ("arbitrator", "arbitration")
REFUSAL_CHARS = 400  # the refusal quoted in a re-decision's first line (it rides in the state: kept small)


# ------------------------------------------------------------------------------------------ Arbitrate


def alternatives_request(previous: DecisionSummary, approval: ApprovalDecision) -> tuple[list[str], str | None]:
    """What a request for alternatives sets aside, and the instruction the arbitrator reads (every earlier one too).

    An instruction the grammar reads as constraints says what to remove: nothing more is set aside. Without
    one ("something else"), the plans shown are set aside — except the cancellation baseline, which is always
    kept unless an instruction forbids it, so "no valid plan" is never the request's own doing."""
    from ...arbitration.instructions.grammar import read_instruction

    instruction = "; ".join(t for t in (previous.instruction, approval.instruction) if t) or None
    read = read_instruction(approval.instruction or "")
    shown = [r.scenario_id for r in previous.ranked if r.kind != "cancel"]
    return previous.excluded + ([] if read.constraints else shown), instruction


def is_network(disruption) -> bool:
    """An airport or airspace over a window, or several flights named: the network planner's (imported here:
    the network package is read only by a run that needs it)."""
    from ...network.window_analysis import is_network as network

    return network(disruption)


def arbitrate_step(
    state: dict,
    *,
    handle: DataHandle,
    store: ArtifactStore,
    registry: BaseThreadRegistry,
    now: datetime | None = None,
    trail: AuditTrail | None = None,
    **arbitrate_kwargs,
) -> DecisionSummary:
    from ...arbitration.arbitrator import arbitrate

    request = ValidatedRequest.model_validate(state["request"])
    # the report's moment, as Validate read it: a replayed day's (or a re-decision's) clock, not the machine's
    now = now or request.reported_at
    attempt, excluded, instruction = next_attempt(state)
    registry.start(request.execution_name, *ARBITRATOR_THREAD, detail={"attempt": attempt, "excluded": excluded})
    if is_network(request.disruption):  # an airport or airspace over a window, or several flights named
        from .network import network_arbitration

        output = network_arbitration(
            state, request, handle=handle, store=store, now=now, excluded=excluded, **arbitrate_kwargs
        )
    else:
        # After a debate, the arbitrator reads the last debate round's collation and records the debate.
        debate = DebateState.model_validate(state["debate"]) if state.get("debate") else None
        last = debate.collation if debate is not None and debate.collation else state["phase2"]["collation"]
        output = arbitrate(
            store.resolve(last),
            request.prompt,
            # one read cache for this arbitration: every scenario's validation re-reads the same rosters
            handle=handle.with_overlay(request.overlay).with_read_cache(),
            now=now,
            exclude=frozenset(excluded),
            disruption=request.disruption,
            instruction=instruction,
            debate=debate.record() if debate is not None else None,
            **arbitrate_kwargs,
        )
    why = redecided_after(state)
    if why:  # the duty manager is asked again: the decision says first why
        output = output.model_copy(update={"final_decision": f"Decided again: {why}.\n{output.final_decision}"})
    summary = _record_decision(
        output,
        request,
        attempt=attempt,
        excluded=excluded,
        instruction=instruction,
        store=store,
        registry=registry,
        trail=trail,
    )
    return summary.model_copy(update={"redecided_after": why})


def next_attempt(state: dict) -> tuple[int, list[str], str | None]:
    """This arbitration's attempt, the plans set aside and the instruction: after a request for alternatives (or a
    network plan's exclusions) the next attempt, else the first."""
    previous = DecisionSummary.model_validate(state["decision"]) if state.get("decision") else None
    approval = ApprovalDecision.model_validate(state["approval"]) if state.get("approval") else None
    if previous and approval and approval.action == "alternatives":
        excluded, instruction = alternatives_request(previous, approval)
        return previous.attempt + 1, excluded, instruction
    if previous and approval and approval.action == "exclude":
        return previous.attempt + 1, previous.excluded, previous.instruction
    refused = ExecutionSummary.model_validate(state["execution"]) if state.get("execution") else None
    if previous and refused and refused.redecide:  # the approved plan no longer fits: never offered again
        return previous.attempt + 1, [*previous.excluded, refused.scenario_id], previous.instruction
    return 1, [], None


def redecided_after(state: dict) -> str | None:
    """Why this arbitration is a re-decision, in one line (None: it is not one)."""
    refused = ExecutionSummary.model_validate(state["execution"]) if state.get("execution") else None
    if refused is None or not refused.redecide:
        return None
    error = refused.error or ""  # one line as written; bounded here, the decision is shown whole
    error = error if len(error) <= REFUSAL_CHARS else error[: REFUSAL_CHARS - 1] + "…"
    return (
        f"the plan approved ({refused.scenario_id}) could not be carried out — {refused.reason_code}: "
        f"{error}; decided again on the operation as it now is"
    )


def _record_decision(
    output,
    request: ValidatedRequest,
    *,
    attempt: int,
    excluded: list[str],
    instruction: str | None,
    store: ArtifactStore,
    registry: BaseThreadRegistry,
    trail: AuditTrail | None,
) -> DecisionSummary:
    """Save the arbitrator's output (S3, by key), record it on the thread and in the audit trail, and summarise it
    for the state."""
    ref = store.save(
        run_key(request.disruption_id, request.execution_name, f"decision-{attempt}"),
        output.model_dump(mode="json"),
        inline_limit=0,
    )
    ranked = [
        RankedSummary(
            rank=r.rank,
            scenario_id=r.scenario.scenario_id,
            title=r.scenario.title,
            kind=r.scenario.kind,
            kinds=list(r.scenario.kinds),
            score=round(r.score, 4),
            confidence=round(r.confidence, 4),
            delay_minutes=r.scenario.delay_minutes,
            cost_usd=round(r.scenario.cost_usd, 2),
        )
        for r in output.ranked
    ]
    registry.record(
        thread_id(request.execution_name, *ARBITRATOR_THREAD),
        "decision",
        confidence=output.confidence,
        detail={"status": output.status, "ranked": [r.scenario_id for r in ranked]},
    )
    if trail is not None:
        trail.append(
            request.disruption_id,
            "decision",
            f"decision:{request.execution_name}:{attempt}",
            {
                "attempt": attempt,
                "status": output.status,
                "confidence": round(output.confidence, 4),
                "ranked": [r.model_dump(mode="json") for r in ranked],
                "excluded": excluded,
                "instruction": instruction,
                "artifact": trail.artifact(
                    store.bucket, run_key(request.disruption_id, request.execution_name, f"decision-{attempt}")
                ),
            },
            actor="arbitrator",
            execution_name=request.execution_name,
        )
    return DecisionSummary(
        status=output.status,
        has_plan=bool(ranked),
        final_decision=output.final_decision,
        confidence=round(output.confidence, 4),
        ranked=ranked,
        escalations=[e.code for e in output.escalations],
        attempt=attempt,
        excluded=excluded,
        instruction=instruction,
        output=ref,
        llm=output.llm,
        debate=output.debate.agreement if output.debate else None,
        debate_rounds=output.debate.rounds_run if output.debate else 2,
        scope="network" if is_network(request.disruption) else "flight",
    )


# -------------------------------------------------------------------------------------------- Execute


def chosen_scenario(state: dict, store: ArtifactStore):
    """The scenario the duty manager approved or selected, from the arbitrator's full output."""
    from ...arbitration.models import ArbitratorOutput

    decision = DecisionSummary.model_validate(state["decision"])
    approval = ApprovalDecision.model_validate(state["approval"])
    wanted = approval.scenario_id or (decision.ranked[0].scenario_id if decision.ranked else None)
    output = ArbitratorOutput.model_validate(store.resolve(decision.output))
    for ranked in output.ranked:
        if ranked.scenario.scenario_id == wanted:
            return ranked.scenario
    raise ValueError(
        f"scenario {wanted!r} is not one of the ranked plans: "
        + ", ".join(r.scenario.scenario_id for r in output.ranked)
    )


def execute_step(
    state: dict,
    *,
    store: ArtifactStore,
    tables: WorkflowTables,
    registry: BaseThreadRegistry | None = None,
    trail: AuditTrail | None = None,
    bus: MessageBus | None = None,
) -> ExecutionSummary:
    from ..execution import outbox
    from ..execution.execute import execute
    from . import attempts

    request = ValidatedRequest.model_validate(state["request"])
    scenario = chosen_scenario(state, store)
    where: dict[str, Any] = {
        "store": store,
        "disruption_id": request.disruption_id,
        "execution_name": request.execution_name,
    }
    outgoing = outbox.prepare(scenario, request.disruption, tables=tables, **where)  # read before the plan writes
    # Once per run: a resumed run whose execution already happened gets that execution's report, and applies nothing;
    # a plan decided again after a refusal is an attempt of its own (attempts.py).
    attempt = attempts.next_attempt(state)
    report = execute(
        scenario,
        execution_id=attempts.attempt_id(request.execution_name, attempt),
        tables=tables,
        run_id=request.disruption_id,
    )
    key = attempts.report_artifact(attempt)
    store.put(run_key(request.disruption_id, request.execution_name, key), report.model_dump(mode="json"))
    executed = report.status == "executed"  # a retry of an executed plan publishes what an earlier attempt stored
    noted = publication_noted(trail, store) if trail is not None else None
    sent = outbox.write(outgoing if executed else None, bus=bus, resend=executed, noted=noted, **where)
    if trail is not None:
        record_execution(trail, store, request.disruption_id, request.execution_name, report, sent)
    if registry is not None:
        approval = ApprovalDecision.model_validate(state["approval"])
        answer = {
            "action": approval.action,
            "scenario_id": scenario.scenario_id,
            "decided_by": approval.decided_by,
            "comment": approval.comment,
        }
        # The answer may have come through a client that has no registry (the API, the CLI): the thread
        # records it here, with the approver, before what the execution did.
        _close_arbitration(registry, request.execution_name, "approved", answer)
        _close_arbitration(
            registry,
            request.execution_name,
            "executed" if report.status == "executed" else "failed",
            {**answer, "execution": report.status},
        )
    return ExecutionSummary(
        status=report.status,
        scenario_id=scenario.scenario_id,
        actions=report.actions,
        error=report.error,
        reason_code=report.reason_code,
        messages_not_published=len(sent.get("publication", {}).get("failed", [])),
        attempt=attempt,
        redecide=attempts.decide_again(report.status, report.reason_code, attempt),
    )


def publication_noted(trail: AuditTrail, store: ArtifactStore):
    """outbox.Noted for this trail: a publication that rewrote a run's stored messages (a retried Execute, the sweep
    at local start) is an audit record naming them as they now are, so the chain still verifies them."""

    def noted(disruption_id: str, execution_name: str, key: str, published: int) -> None:
        artifact = trail.artifact(store.bucket, key)  # keyed by what it now holds: each rewrite named once
        trail.append(
            disruption_id,
            "messages_published",
            f"messages_published:{execution_name}:{artifact['sha256'][:16]}",
            {"published": published, "messages_artifact": artifact},
            actor="outbox",
            execution_name=execution_name,
        )

    return noted


def record_execution(
    trail: AuditTrail, store: ArtifactStore, disruption_id: str, execution_name: str, report, sent: dict | None = None
) -> None:
    """The audit record of what Execute did (once: keyed by the execution that applied the plan, whoever asks again),
    with the messages it sent (`sent`: their counts, and the artifact holding them)."""
    from .attempts import attempt_of, report_artifact

    attempt = attempt_of(report.execution_id, execution_name) or 1
    messages = (
        {**sent, "messages_artifact": trail.artifact(store.bucket, run_key(disruption_id, execution_name, "messages"))}
        if sent
        else {}
    )
    trail.append(
        disruption_id,
        "execution",
        f"execution:{report.execution_id}",
        {
            "status": report.status,
            "scenario_id": report.scenario_id,
            "actions": report.actions,
            "error": report.error,
            "artifact": trail.artifact(store.bucket, run_key(disruption_id, execution_name, report_artifact(attempt))),
            **messages,
        },
        actor="execute",
        execution_name=execution_name,
    )


def _close_arbitration(registry: BaseThreadRegistry, execution_name: str, status: str, detail: dict) -> None:
    """Mark the arbitration thread with the run's human outcome (approved, executed, rejected, escalated,
    failed), the approver as the status's actor."""
    tid = thread_id(execution_name, *ARBITRATOR_THREAD)
    if registry.get(tid) is None:  # escalated before arbitration: the thread never started
        registry.start(execution_name, *ARBITRATOR_THREAD, detail={"escalated_before_arbitration": True})
    try:
        current = registry.status(tid)
        if status == current:
            return  # a retried step, or decide() already recorded it
        if status == "failed":
            registry.fail(tid, detail.get("execution", "failed"), detail=detail)
        else:
            registry.set_status(tid, status, actor=detail.get("decided_by"), detail=detail)
    except IllegalTransition as exc:  # a retried step finds the thread already closed
        log.info("arbitration thread already closed: %s", exc)


def close_arbitration(state: dict, registry: BaseThreadRegistry) -> None:
    """Learn's view of the human outcome for the arbitration thread (execution closes its own)."""
    request = ValidatedRequest.model_validate(state["request"])
    approval = state.get("approval") or {}
    if state.get("escalation"):
        reason = Escalation.model_validate(state["escalation"]).reason
        _close_arbitration(registry, request.execution_name, "escalated", {"reason": reason})
    elif approval.get("action") == "reject":
        _close_arbitration(
            registry,
            request.execution_name,
            "rejected",
            {"decided_by": approval.get("decided_by"), "comment": approval.get("comment")},
        )
