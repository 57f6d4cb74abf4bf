"""Payloads that fit (issue 48 item 4): every state's input and output of the largest runs we have stays under Step
Functions' 256 KB limit, read from the execution history as the service would measure it (UTF-8 bytes).

The runs: the AUH fog closure (a network disruption: every flight of the window analysed in both rounds, the
network planner's plans) through approval and execution, and EY101's crew conflict, which opens a debate round.
Large results (agents' analyses, collations, debate rounds, the arbitrator's output, network plans) travel as
references to the artifact store (workflow/payloads.py); this test is what says they do.
"""

from __future__ import annotations

import json
import uuid

import pytest

from skymarshal.workflow.models import ApprovalDecision

STATE_LIMIT = 256 * 1024  # bytes, input or output of one state (the service's quota, also in AWS)
MARGIN = 0.5  # what a run of these may use: room for a larger airline's day and more debate rounds
CLOSURE = "Abu Dhabi airport is closed by fog from 14:00 to 17:00 UTC on January 22nd"
DEBATE = "EY101 on 21 January 2027 is delayed over four hours and the crew will run out of duty time"


def state_payloads(wf, name: str) -> list[tuple[str, str, int]]:
    """(state, input|output, bytes) for every state the run entered or left, from its execution history."""
    pages = wf.sfn.get_paginator("get_execution_history").paginate(executionArn=wf.execution_arn(name))
    sizes: list[tuple[str, str, int]] = []
    for event in (e for page in pages for e in page["events"]):
        for key, what in (("stateEnteredEventDetails", "input"), ("stateExitedEventDetails", "output")):
            details = event.get(key)
            if details and details.get(what) is not None:
                sizes.append((details["name"], what, len(details[what].encode())))
    return sizes


def _largest(sizes: list[tuple[str, str, int]]) -> str:
    top = sorted(sizes, key=lambda s: -s[2])[:5]
    return json.dumps([f"{state} {what}: {size:,} B" for state, what, size in top])


@pytest.mark.parametrize(("prompt", "decide"), [(CLOSURE, "approve"), (DEBATE, "reject")], ids=["auh-fog", "debate"])
def test_every_state_of_the_largest_runs_fits_step_functions(wf, restore, prompt, decide):
    name = wf.start(prompt, disruption_id=f"size-{uuid.uuid4().hex[:6]}")["execution_name"]
    progress = wf.follow(name, timeout_s=1200)
    assert progress.awaiting_approval, (progress.status, wf.describe(name).get("cause"))
    wf.decide(name, ApprovalDecision(action=decide, decided_by="Dana Duty", comment="state sizes"))
    if decide == "approve":
        restore.append(name)
    ended = wf.follow(name, timeout_s=1200)
    assert ended.status == "SUCCEEDED", wf.describe(name)
    sizes = state_payloads(wf, name)
    entered = {state for state, _, _ in sizes}
    assert "Learn and record outcome" in entered and len(sizes) > 20
    over = [(state, what, size) for state, what, size in sizes if size > STATE_LIMIT * MARGIN]
    assert not over, f"states over {MARGIN:.0%} of 256 KB: {over}; largest {_largest(sizes)}"
    print(f"{prompt[:40]}…: largest {_largest(sizes)}")
