"""A run again with the duty manager's corrected facts: `ID--correct-N`, a run of the same disruption (its audit
chain, its flight's claim), whose Validate checks the corrections against the data and whose agents analyse the
corrected facts.

A run waiting for a decision is rejected first, with the corrections as the reason, so the plans of the misread
report can never be approved beside the corrected ones; a run still analysing is refused (correct it once it asks).
Corrections add up: the new run keeps the earlier run's corrections and the new ones replace the same keys.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ...models.corrections import checked_facts
from ..models import CORRECT_SUFFIX, ApprovalDecision, DisruptionRequest

if TYPE_CHECKING:
    from .client import WorkflowClient


class RunStillAnalysing(ValueError):
    """The run has not asked for a decision yet: its facts are corrected once it does (or once it has ended)."""


def corrected_name(base: str, taken: set[str]) -> str:
    """`ID--correct-N`, the first N no execution holds."""
    return f"{base}{CORRECT_SUFFIX}{next(i for i in range(1, 1000) if f'{base}{CORRECT_SUFFIX}{i}' not in taken)}"


def correct_run(client: WorkflowClient, name: str, facts: dict[str, Any], by: str) -> dict:
    """Start the run of `name`'s report with `facts` corrected, by `by`. Raises CorrectionRefused (a bad value),
    RunNotFound, RunStillAnalysing."""
    from .trigger import start

    checked = checked_facts(facts)
    described = client.describe(name)
    previous = json.loads(described.get("input") or "{}")
    disruption_id = str(previous.get("disruption_id") or name)
    new_name = corrected_name(disruption_id, {e["name"] for e in client.executions(limit=1000)})
    said = ", ".join(f"{key}={value}" for key, value in checked.items())
    if described["status"] == "RUNNING":
        if client.pending(name) is None:
            raise RunStillAnalysing(
                f"run {name} is still analysing the report: correct its facts when it asks for a decision"
            )
        client.decide(
            name,
            ApprovalDecision(
                action="reject", decided_by=by, comment=f"facts corrected ({said}): analysed again as {new_name}"
            ),
        )
    request = DisruptionRequest.model_validate(
        {
            **previous,
            "facts": {**(previous.get("facts") or {}), **checked},
            "corrects": name,
            "requested_by": by,
            "resume": False,
            "retry": False,
            "resumes": None,
            "reuse_through": None,
        }
    )
    return start(request, executions=client.execution_port, state_machine_arn=client.arn, name=new_name)
