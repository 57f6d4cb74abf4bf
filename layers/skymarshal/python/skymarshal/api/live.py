"""Live progress of a run as a stream of events: what the console shows while the agents work.

Events (name, JSON data): `phase` when the run enters a phase, `agent` when an agent finishes or fails,
`scenarios` when the plans are ready for a decision, `execution` for each execution event (an action
started, completed or failed), and `done` when the run ends. Derived from the execution history and the
execution events — the record itself — by polling, so a console that reconnects misses nothing.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from ..workflow.runs.client import WorkflowClient
from ..workflow.runs.progress import TERMINAL
from .views import decision_view, run_progress

Event = tuple[str, dict[str, Any]]


def progress_events(
    wf: WorkflowClient, disruption_id: str, *, poll_s: float = 0.5, timeout_s: float = 3600
) -> Iterator[Event]:
    """Yield events until the run ends (or `timeout_s`); raises RunNotFound for an unknown id."""
    from ..workflow.execution.records import execution_events

    seen_agents: dict[tuple[str, str], str] = {}
    seen_phase, seen_events, scenarios_for = None, 0, None
    deadline = time.monotonic() + timeout_s
    while True:
        progress = run_progress(wf, disruption_id)
        if progress.phase != seen_phase:
            seen_phase = progress.phase
            yield "phase", {"phase": progress.phase, "current_state": progress.current_state, "status": progress.status}
        for agent in progress.agents:
            key = (agent.phase, agent.agent)
            if agent.seconds is not None and seen_agents.get(key) != agent.status:
                seen_agents[key] = agent.status
                yield "agent", agent.model_dump(mode="json")
        if progress.awaiting_approval:
            pending = wf.pending(disruption_id)
            attempt = json.loads(pending["decision"]).get("attempt") if pending else None
            output = wf.decision(disruption_id) if pending and attempt != scenarios_for else None
            if output is not None:  # None only when the decision was taken between the two reads
                scenarios_for = attempt
                view = decision_view(disruption_id, output, awaiting_approval=True, attempt=attempt)
                yield "scenarios", view.model_dump(mode="json")
        events = execution_events(disruption_id, tables=wf.tables)
        for event in events[seen_events:]:
            yield "execution", event.model_dump(mode="json")
        seen_events = len(events)
        if progress.status in TERMINAL:
            yield "done", {"status": progress.status, "outcome": progress.outcome}
            return
        if time.monotonic() > deadline:
            yield "timeout", {"message": f"still {progress.phase} after {timeout_s:.0f} s; reconnect to keep following"}
            return
        time.sleep(poll_s)


# The board follows every open run on one connection: a browser keeps six per host over HTTP/1.1, and a bad day's
# eight open runs each on a stream of its own left nothing for the console's other requests.
MAX_FOLLOWED_RUNS = 100
NEW_RUNS_EVERY_S = 5.0  # how often a board's stream looks for runs reported on other pages (one ListExecutions)
NEWEST_RUNS = 20


def runs_ended_events(
    wf: WorkflowClient,
    run_ids: list[str],
    *,
    poll_s: float = 1.0,
    timeout_s: float = 3600,
    watch_new: bool = False,
    new_every_s: float = NEW_RUNS_EVERY_S,
) -> Iterator[Event]:
    """`done` ({"run", "status"}) as each of `run_ids` ends (an id no longer known ends as NOT_FOUND), until all have
    ended (or `timeout_s`, then `timeout`). With `watch_new`, also `started` ({"run"}) for each run begun after the
    stream opened, and the stream lasts until `timeout_s`: a board follows what other pages report."""
    from ..workflow.runs.client import RunNotFound

    open_runs = list(dict.fromkeys(run_ids))
    known = set(open_runs) | ({e["name"] for e in wf.executions(limit=NEWEST_RUNS)} if watch_new else set())
    look_for_new = time.monotonic() + new_every_s
    deadline = time.monotonic() + timeout_s
    while open_runs or watch_new:
        for run_id in list(open_runs):
            try:
                status = wf.describe(run_id)["status"]
            except RunNotFound:
                status = "NOT_FOUND"
            if status == "NOT_FOUND" or status in TERMINAL:
                open_runs.remove(run_id)
                yield "done", {"run": run_id, "status": status}
        if watch_new and time.monotonic() >= look_for_new:
            for execution in reversed(wf.executions(limit=NEWEST_RUNS, status="RUNNING")):  # oldest first
                if execution["name"] not in known:
                    known.add(execution["name"])
                    yield "started", {"run": execution["name"]}
            look_for_new = time.monotonic() + new_every_s
        if not open_runs and not watch_new:
            return
        if time.monotonic() > deadline:
            yield "timeout", {"message": f"{len(open_runs)} runs still open after {timeout_s:.0f} s; reconnect"}
            return
        time.sleep(poll_s)
