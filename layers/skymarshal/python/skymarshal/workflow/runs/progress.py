"""A run's progress read from its Step Functions execution history (state entered/exited events), so what the
terminal and the console show is what the Step Functions console shows; the console's phase of a run."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime

from ...data.schema import AGENTS

APPROVAL_STATE = "Await duty manager approval"
TERMINAL = ("SUCCEEDED", "FAILED", "TIMED_OUT", "ABORTED")
_AGENT_BY_TITLE = {agent.replace("_", " ").capitalize(): agent for agent in AGENTS}


@dataclass
class AgentProgress:
    agent: str
    phase: str
    status: str = "running"
    seconds: float | None = None


@dataclass
class Progress:
    status: str  # the execution's: RUNNING, SUCCEEDED, FAILED, ...
    current: str | None  # the last state entered
    states: list[tuple[str, datetime]] = field(default_factory=list)  # every state entered, in order
    agents: dict[tuple[str, str], AgentProgress] = field(default_factory=dict)  # (phase, agent)

    @property
    def awaiting_approval(self) -> bool:
        return self.status == "RUNNING" and self.current == APPROVAL_STATE


def _agent_state(name: str) -> tuple[str, str] | None:
    """("initial", "crew_compliance") for "Crew compliance agent (initial)"."""
    if not name.endswith(")") or " agent (" not in name:
        return None
    title, phase = name[:-1].split(" agent (")
    agent = _AGENT_BY_TITLE.get(title)
    return (phase, agent) if agent else None


def parse_history(events: list[dict], status: str) -> Progress:
    progress = Progress(status=status, current=None)
    entered: dict[tuple[str, str], datetime] = {}
    for event in events:
        kind = event["type"]
        if kind.endswith("StateEntered"):
            name = event["stateEnteredEventDetails"]["name"]
            progress.states.append((name, event["timestamp"]))
            progress.current = name
            key = _agent_state(name)
            if key:
                entered[key] = event["timestamp"]
                progress.agents.setdefault(key, AgentProgress(agent=key[1], phase=key[0]))
        elif kind.endswith("StateExited"):
            details = event.get("stateExitedEventDetails", {})
            name = details.get("name", "")
            key = _agent_state(name)
            if key is None and name.startswith("Agent failed ("):
                output = json.loads(details.get("output") or "{}")
                key = (name[len("Agent failed (") : -1], output.get("agent_name"))
            if key and key[1]:
                output = json.loads(details.get("output") or "{}")
                item = progress.agents.setdefault(key, AgentProgress(agent=key[1], phase=key[0]))
                item.status = output.get("status", "ok")
                if key in entered:
                    item.seconds = round((event["timestamp"] - entered[key]).total_seconds(), 1)
    return progress


# The console's phases, by the state the run is in (the state names of infra/workflow_stack.py).
_PHASE_OF_STATE = (
    ("Validate", "validating"),
    ("Initial round", "initial"),
    ("(initial)", "initial"),
    ("Collate initial", "initial"),
    ("Revision round", "revision"),
    ("(revision)", "revision"),
    ("Collate revision", "revision"),
    ("Debate", "debate"),  # "Debate round: conflict stated", "Debate again?", "Debate or arbitrate?"
    ("(debate)", "debate"),
    ("Collate debate", "debate"),
    ("Safety gate", "arbitrating"),
    ("Arbitrate", "arbitrating"),
    ("Any valid plan", "arbitrating"),
    (APPROVAL_STATE, "awaiting_approval"),
    ("Duty manager's decision", "executing"),
    ("Execute", "executing"),
    ("Plan still fits", "executing"),  # then back to Arbitrate when it does not
    ("Escalate", "learning"),
    ("Learn", "learning"),
    ("Plan carried out", "learning"),
)


def phase_of(progress: Progress) -> str:
    if progress.status == "SUCCEEDED":
        return "done"
    if progress.status in TERMINAL:
        return "failed"
    current = progress.current or ""
    return next((phase for marker, phase in _PHASE_OF_STATE if marker in current), "validating")
