"""Payloads that fit (issue 48 item 4): every state's input and output of the largest runs we have stays under Step
Functions' 256 KB limit, read from the execution history as the service would measure it (UTF-8 bytes).

The runs checked are the largest the suite already makes, so no run is made twice for it: the AUH fog closure (a
network disruption: every flight of the window analysed in both rounds, an exclusion sent back to Arbitrate, the
network planner's plans) through approval and execution (test_network_runs.py), and EY101's crew conflict, which
opens a debate round (test_debate_runs.py). Large results (agents' analyses, collations, debate rounds, the
arbitrator's output, network plans) travel as references to the artifact store (workflow/payloads.py); this is what
says they do.
"""

from __future__ import annotations

import json

STATE_LIMIT = 256 * 1024  # bytes, input or output of one state (the service's quota, also in AWS)
MARGIN = 0.5  # what a run of these may use: room for a larger airline's day and more debate rounds


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


def assert_every_state_fits(wf, name: str) -> None:
    """The finished run entered Learn, and no state's input or output used more than MARGIN of the limit."""
    sizes = state_payloads(wf, name)
    entered = {state for state, _, _ in sizes}
    assert "Learn and record outcome" in entered and len(sizes) > 20, sorted(entered)
    over = [(state, what, size) for state, what, size in sizes if size > STATE_LIMIT * MARGIN]
    assert not over, f"states over {MARGIN:.0%} of 256 KB: {over}; largest {_largest(sizes)}"
    print(f"{name}: largest {_largest(sizes)}")
