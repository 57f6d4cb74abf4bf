"""Retrying an escalated run (workflow/runs/retry.py) and its bookkeeping, without AWS: which agents run again, how
Collate merges their answers into the saved collation, which runs are refused, and the arbitration thread
recording the duty manager's answer with the approver."""

from __future__ import annotations

import json
from typing import get_args

import pytest
from memory_ports import MemoryObjects

from skymarshal.agents.graph import failure_response
from skymarshal.checkpoint.registry_memory import InMemoryThreadRegistry
from skymarshal.checkpoint.threads import thread_id
from skymarshal.data.schema import AGENTS
from skymarshal.workflow.deployment import ESCALATION_REASONS, escalation_metric
from skymarshal.workflow.models import EscalationReason, PhaseResult, base_name, is_run_of
from skymarshal.workflow.payloads import ArtifactStore, run_key
from skymarshal.workflow.runs.retry import NotRetryable, retry_plan, retry_request
from skymarshal.workflow.steps.collate import collate
from skymarshal.workflow.steps.decision import ARBITRATOR_THREAD, _close_arbitration

ID = "dis-1"


@pytest.fixture
def store() -> ArtifactStore:
    return ArtifactStore("artifacts", MemoryObjects())  # the ObjectStore port in memory: no AWS


RETRY = f"{ID}--retry-1"  # the retry's execution: its own checkpoints, the retried run's kept answers


def _answer(agent: str, phase: str, status: str = "ok", note: str = "first run") -> dict:
    return failure_response(agent, phase, {}, note, status=status).model_dump(mode="json")


def _saved_round(store: ArtifactStore, phase: str, failed: list[str]) -> None:
    """A finished round as Collate checkpoints it: the collation and its PhaseResult."""
    results = [_answer(a, phase, "error" if a in failed else "ok") for a in AGENTS]
    collate(phase, results, disruption_id=ID, store=store)


def test_nothing_saved_runs_every_agent_in_both_rounds(store):
    plan = retry_plan(ID, ID, store)
    assert (plan.phase1, plan.phase2) == (None, None)
    assert plan.initial == list(AGENTS) and plan.revision == list(AGENTS)


def test_only_the_failed_agents_run_again(store):
    _saved_round(store, "initial", ["crew_compliance"])
    _saved_round(store, "revision", ["crew_compliance", "cargo"])
    plan = retry_plan(ID, ID, store)
    assert plan.phase1 is None and plan.initial == ["crew_compliance"]
    assert plan.phase2 is None and plan.revision == ["crew_compliance", "cargo"]


def test_an_initial_round_all_ok_is_reused_and_a_revision_failure_alone_runs_again(store):
    _saved_round(store, "initial", [])
    _saved_round(store, "revision", ["maintenance"])
    plan = retry_plan(ID, ID, store)
    assert plan.phase1 is not None and plan.phase1.reused and plan.initial == []
    assert plan.phase2 is None and plan.revision == ["maintenance"]


def test_an_agent_rerun_in_the_initial_round_runs_its_revision_again(store):
    _saved_round(store, "initial", ["network"])
    _saved_round(store, "revision", [])
    plan = retry_plan(ID, ID, store)
    assert plan.initial == ["network"] and plan.revision == ["network"] and plan.phase2 is None


def test_no_failed_agent_reuses_both_rounds(store):
    """An approval that timed out: the retry goes straight to a new arbitration and approval window."""
    _saved_round(store, "initial", [])
    _saved_round(store, "revision", [])
    plan = retry_plan(ID, ID, store)
    assert plan.phase1 is not None and plan.phase2 is not None and plan.initial == plan.revision == []


def test_collate_keeps_the_saved_answers_of_the_agents_that_did_not_run(store):
    _saved_round(store, "revision", ["crew_compliance", "cargo"])
    rerun = [_answer("crew_compliance", "revision", "ok", note="second run")]
    result = collate(
        "revision",
        rerun,
        disruption_id=ID,
        store=store,
        execution_name=RETRY,
        ran=["crew_compliance", "cargo"],
        retries=ID,
    )
    collation = store.resolve(result.collation)
    assert collation["crew_compliance"]["message"] == "second run"
    assert collation["maintenance"]["message"] == "first run" and result.statuses["maintenance"] == "ok"
    # cargo was to run again and gave no answer: failed, never its old answer silently kept
    assert result.failed == ["cargo"] and not result.safety_failed
    assert PhaseResult.model_validate(store.get(run_key(ID, RETRY, "phase-revision"))).failed == ["cargo"]


def test_collate_without_ran_marks_every_missing_agent_failed(store):
    _saved_round(store, "initial", [])
    result = collate("initial", [_answer("finance", "initial")], disruption_id=ID, store=store)
    assert result.failed == [a for a in AGENTS if a != "finance"] and result.safety_failed


def _described(status: str, outcome: str | None, name: str = ID) -> dict:
    output = {"outcome": {"status": outcome}} if outcome else None
    return {
        "name": name,
        "status": status,
        "input": json.dumps({"disruption_id": ID, "prompt": "EY123 on 20 Jan 2027 mechanical failure"}),
        "output": json.dumps(output) if output else None,
    }


def test_a_retry_of_an_escalated_run_is_the_same_disruption_under_the_next_free_name():
    request, name = retry_request(_described("SUCCEEDED", "escalated"), {ID, f"{ID}--retry-1"})
    assert request.retry and not request.resume and request.disruption_id == ID
    assert name == f"{ID}--retry-2" and base_name(name) == ID and is_run_of(name, ID)
    assert not is_run_of(f"{ID}x--retry-1", ID)


@pytest.mark.parametrize(
    "status,outcome,why",
    [
        ("SUCCEEDED", "executed", "ended executed"),
        ("SUCCEEDED", "rejected", "ended rejected"),
        ("RUNNING", None, "is RUNNING"),
        ("FAILED", None, "`resume`"),
    ],
)
def test_only_an_escalated_run_is_retried(status, outcome, why):
    with pytest.raises(NotRetryable, match=why):
        retry_request(_described(status, outcome), set())


def test_the_arbitration_thread_records_approved_then_executed_with_the_approver():
    registry = InMemoryThreadRegistry()
    registry.start("run-1", *ARBITRATOR_THREAD)
    registry.set_status(thread_id("run-1", *ARBITRATOR_THREAD), "awaiting_approval")
    answer = {"action": "approve", "scenario_id": "swap:A6-BLT", "decided_by": "Dana Duty", "comment": "go"}
    _close_arbitration(registry, "run-1", "approved", answer)
    _close_arbitration(registry, "run-1", "approved", answer)  # decide() got there first: no error, no change
    info = registry.get(thread_id("run-1", *ARBITRATOR_THREAD))
    assert info is not None and (info.status, info.status_actor) == ("approved", "Dana Duty")
    _close_arbitration(registry, "run-1", "executed", {**answer, "execution": "executed"})
    info = registry.get(thread_id("run-1", *ARBITRATOR_THREAD))
    assert info is not None and (info.status, info.status_actor) == ("executed", "Dana Duty")
    assert info.status_detail["scenario_id"] == "swap:A6-BLT"


def test_a_rolled_back_plan_leaves_the_thread_failed_with_the_approval_in_its_detail():
    registry = InMemoryThreadRegistry()
    registry.start("run-2", *ARBITRATOR_THREAD)
    registry.set_status(thread_id("run-2", *ARBITRATOR_THREAD), "awaiting_approval")
    answer = {"action": "select", "scenario_id": "cancel", "decided_by": "Dana Duty", "comment": None}
    _close_arbitration(registry, "run-2", "approved", answer)
    _close_arbitration(registry, "run-2", "failed", {**answer, "execution": "rolled_back"})
    info = registry.get(thread_id("run-2", *ARBITRATOR_THREAD))
    assert info is not None and info.status == "failed" and info.status_detail["decided_by"] == "Dana Duty"


def test_one_metric_per_escalation_code_and_the_codes_agree():
    assert get_args(EscalationReason) == ESCALATION_REASONS
    assert escalation_metric("SAFETY_AGENT_FAILED") == "EscalationSafetyAgentFailed"
    assert len({escalation_metric(r) for r in ESCALATION_REASONS}) == len(ESCALATION_REASONS)
