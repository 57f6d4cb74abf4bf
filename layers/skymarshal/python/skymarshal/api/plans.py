"""What the console draws about a decision beyond the cards: the before/after Gantt of each ranked plan (with
the compare table's figures) and the run's phases by their names.

The Gantt is built in the library (views.gantt) from the decision's typed actions and the operational rows
read through a DataHandle on the API's own tables; the regulatory agent's time windows come from the run's
revised collation, the record the arbitrator read.
"""

from __future__ import annotations

import json
from datetime import datetime

from pydantic import BaseModel

from ..arbitration.models import ArbitratorOutput
from ..data.access import DataHandle
from ..data.overlay import Overlay
from ..views.gantt import build_gantt
from ..views.gantt_data import gather
from ..views.gantt_models import GanttView
from ..views.gantt_network import build_network_gantt
from ..workflow.payloads import run_key
from ..workflow.runs.client import WorkflowClient


def gantt_view(wf: WorkflowClient, name: str, output: dict) -> GanttView:
    """The Gantt of run `name`'s decision `output` (the arbitrator's full output, as stored)."""
    decision = ArbitratorOutput.model_validate(output)
    if decision.network is not None:  # the plans' own per-flight tables, as the network validation checked them
        return build_network_gantt(name, decision)
    request = json.loads(wf.describe(name).get("input") or "{}")
    disruption_id = request.get("disruption_id", name)
    collation = wf.store.get(run_key(disruption_id, name, "collation-revision"))
    validated = wf.store.get(run_key(disruption_id, name, "request")) or {}
    # The plans were made on the report's what-if (a sick captain, an AOG work order): so is their chart.
    overlay = Overlay.model_validate(validated.get("overlay") or {})
    handle = DataHandle(naming=wf.tables.naming, resource=wf.tables.resource, overlay=overlay)
    return build_gantt(name, decision, gather(decision, handle, collation))


# The run's phases, in the order a run goes through them: (a marker in the state's name, key, label).
# Choice states (the workflow's routing: "Initial round done before?", "Safety gate", "Which agent? (…)",
# "Duty manager's decision", "Any valid plan?", "Plan still fits the operation?", "Plan carried out?") start no
# phase of their own.
PHASES = (
    ("Validate", "validating", "Validate the report"),
    ("Initial round", "initial", "Initial round: seven agents"),
    ("Collate initial", "initial", "Initial round: seven agents"),
    ("(initial)", "initial", "Initial round: seven agents"),
    ("Revision round", "revision", "Revision round: seven agents"),
    ("Collate revision", "revision", "Revision round: seven agents"),
    ("(revision)", "revision", "Revision round: seven agents"),
    ("Debate round", "debate", "Debate: the open conflict stated to the seven agents"),
    ("Collate debate", "debate", "Debate: the open conflict stated to the seven agents"),
    ("(debate)", "debate", "Debate: the open conflict stated to the seven agents"),
    ("Arbitrate", "arbitrating", "Arbitration"),
    ("Escalate", "escalated", "Escalated to a human"),
    ("Await duty manager approval", "awaiting_approval", "Duty manager's decision"),
    ("Execute plan", "executing", "Execution"),
    ("Execution failed", "failed", "Execution failed, data restored"),
    ("Learn", "learning", "Learning and audit"),
    ("Disruption not understood", "failed", "Report not understood"),
    ("Done", "done", "Done"),
)


class PhaseSpan(BaseModel):
    key: str
    label: str
    started_at: datetime
    seconds: float | None  # until the next phase started; None while it runs


def is_choice(state: str) -> bool:
    return (
        state.endswith("?") or state.startswith("Which agent?") or state in ("Safety gate", "Duty manager's decision")
    )


def phase_spans(states: list[tuple[str, datetime]], stopped_at: datetime | None) -> list[PhaseSpan]:
    """The run's phases by name with their durations, from the states it entered (in order); a phase entered
    twice in a row (the Map's agents, the collation) is one span, and a phase entered again later (the
    arbitrator after a request for alternatives) is a new one."""
    spans: list[tuple[str, str, datetime]] = []
    for state, at in states:
        if is_choice(state):
            continue
        found = next(((key, label) for marker, key, label in PHASES if marker in state), None)
        if found and (not spans or spans[-1][0] != found[0]):
            spans.append((found[0], found[1], at))
    out = []
    for i, (key, label, at) in enumerate(spans):
        end = spans[i + 1][2] if i + 1 < len(spans) else stopped_at
        seconds = round((end - at).total_seconds(), 1) if end is not None and key != "done" else None
        out.append(PhaseSpan(key=key, label=label, started_at=at, seconds=seconds))
    return out
