"""Alternatives with an instruction, through the synthesized state machine on EY123: the instruction's constraints
remove plans and say which, the cancellation baseline stays, and "no valid plan" names the instruction."""

from __future__ import annotations

from workflow_helpers import to_approval

from skymarshal.workflow.models import ApprovalDecision


def _alternatives(wf, name: str, instruction: str) -> dict:
    wf.decide(
        name, ApprovalDecision(action="alternatives", instruction=instruction, decided_by="Dana Duty", comment="r")
    )
    progress = wf.follow(name, timeout_s=600)
    decision = wf.decision(name)
    assert decision is not None and decision["instruction"]["text"].endswith(instruction), progress
    return decision


def test_no_tail_swap_keeps_the_baseline_and_says_what_it_removed(wf):
    name = to_approval(wf, "alt-noswap")
    first = wf.decision(name)
    swaps = [r["scenario"]["scenario_id"] for r in first["ranked"] if "tail_swap" in r["scenario"]["kinds"]]
    assert swaps, "EY123's first answer is a tail swap"

    again = _alternatives(wf, name, "no tail swap")
    assert again["ranked"], again["escalations"]
    assert all("tail_swap" not in r["scenario"]["kinds"] for r in again["ranked"])
    shown = [r["scenario"]["scenario_id"] for r in again["ranked"]] + again["also_valid"]
    assert "cancel" in shown  # the baseline is kept
    removed = {r["scenario_id"]: r["constraint"] for r in again["removed_by_instruction"]}
    assert set(swaps) <= set(removed) and all("no tail swap" in c for c in removed.values())
    assert [c["kind"] for c in again["instruction"]["constraints"]] == ["forbid_kind"]

    # A second instruction adds to the first: nothing without a swap arrives within 10 minutes, and the
    # escalation says the instruction removed the plans, not that a safety constraint is broken.
    last = _alternatives(wf, name, "at most 10 minutes late")
    assert not last["ranked"] and last["status"] == "escalated"
    (escalation,) = [e for e in last["escalations"] if e["code"] == "NO_VALID_SCENARIO"]
    assert "instruction removed every valid plan" in escalation["message"] and "cancel" in escalation["message"]
    assert wf.follow(name, timeout_s=600).status == "SUCCEEDED"
    assert wf.output(name)["outcome"]["status"] == "escalated"


def test_at_most_60_minutes_late_removes_every_later_plan(wf):
    name = to_approval(wf, "alt-60")
    decision = _alternatives(wf, name, "at most 60 minutes late")
    assert decision["ranked"]
    assert all(r["scenario"]["arrival_delay_minutes"] <= 60 for r in decision["ranked"])
    removed = {r["scenario_id"] for r in decision["removed_by_instruction"]}
    assert "cancel" in removed  # its passengers arrive when re-accommodated, hours later
    wf.decide(name, ApprovalDecision(action="reject", decided_by="Dana Duty", comment="test over"))
    assert wf.follow(name, timeout_s=600).status == "SUCCEEDED"
