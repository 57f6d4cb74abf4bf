"""Shared by the workflow tests: the demo prompt and failure injection around local Lambda calls."""

from __future__ import annotations

import uuid

from skymarshal.local import workflow as local_workflow

DEMO = "Flight EY123 on January 20th had a mechanical failure"


def fail(calls_list, when):
    """Make the functions matching `when(name, event)` raise, recording every call in `calls_list`."""
    registry = local_workflow.registry()

    def wrapped(name, handler, event):
        calls_list.append((name, event.get("phase")))
        if when(name, event):
            raise RuntimeError(f"injected failure in {name}")
        return handler(event, local_workflow._Context(name))

    registry.wrap = wrapped


def run_id(tag: str) -> str:
    return f"t-{tag}-{uuid.uuid4().hex[:6]}"


def to_approval(wf, tag: str, prompt: str = DEMO) -> str:
    """Start a run and follow it until it waits for the duty manager (asserted)."""
    name = wf.start(prompt, disruption_id=run_id(tag))["execution_name"]
    progress = wf.follow(name, timeout_s=600)
    assert progress.awaiting_approval, (progress.status, progress.current, wf.describe(name).get("cause"))
    return name
