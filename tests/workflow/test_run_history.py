"""A run's history (its checkpointed rounds and threads) and a new run continued from one of its rounds."""

from __future__ import annotations

import pytest
from workflow_helpers import to_approval

from skymarshal.views.run_history import run_history
from skymarshal.workflow.models import ApprovalDecision


def test_the_history_lists_rounds_and_threads_and_a_run_continues_from_its_revision_round(wf, calls):
    name = to_approval(wf, "history")
    with pytest.raises(ValueError, match="still running"):
        wf.continue_from(name, "revision")
    wf.decide(name, ApprovalDecision(action="reject", decided_by="Dana Duty", comment="serviceable again"))
    assert wf.follow(name, timeout_s=600).status == "SUCCEEDED"

    history = run_history(wf, name)
    assert [r.phase for r in history.rounds] == ["initial", "revision"] and all(r.can_continue for r in history.rounds)
    threads = {(t.agent, t.phase): t for t in history.threads}
    assert len(threads) == 15  # seven agents in two rounds, and the arbitrator
    crew = threads[("crew_compliance", "initial")]
    assert [r.seq for r in crew.records] == sorted(r.seq for r in crew.records) and crew.records[0].event == "start"
    assert threads[("arbitrator", "arbitration")].status == "rejected"

    calls.clear()
    started = wf.continue_from(name, "revision", requested_by="Dana Duty")
    assert started["execution_name"] == f"{name}--resume-1"
    assert wf.follow(started["execution_name"], timeout_s=600).awaiting_approval
    assert not [c for c in calls if c[0].startswith("FunctionsAgent")]  # both rounds reused, only arbitration again
    again = run_history(wf, started["execution_name"])
    assert [r.reused_from for r in again.rounds] == [name, name]
    wf.decide(started["execution_name"], ApprovalDecision(action="reject", decided_by="Dana Duty", comment="done"))
    # followed to its end, so its learning record is written before module_learning forgets the module's records
    assert wf.follow(started["execution_name"], timeout_s=600).status == "SUCCEEDED"
