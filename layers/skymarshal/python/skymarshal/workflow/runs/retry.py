"""Retrying an escalated run: a new execution of the same disruption that re-runs only the agents that did not
answer "ok", and reuses the checkpointed results of the others.

Each round's collation and its `PhaseResult` are checkpointed in S3 under `runs/<disruption id>/<execution>/` (Collate,
workflow/steps/collate.py); `resume` reuses whole rounds of a failed run, a retry goes one agent finer:

- initial round: reused as it was when every agent answered ok; else only its failed agents run again, and
  Collate merges their new results into the saved collation;
- revision round: the agents that failed it run again, and so does every agent re-run in the initial round (its
  own first answer changed); reused when there are none;
- nothing to re-run (an approval that timed out, no valid plan): both rounds are reused and the run goes
  straight to the safety gate, a new arbitration and a new approval window.

The others' revision answers were given against the earlier initial collation; that is the price of not
re-running them, and what "only the failed agents" means.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ...data.schema import AGENTS
from ..models import RETRY_SUFFIX, DisruptionRequest, PhaseResult
from ..payloads import ArtifactStore, run_key

RETRYABLE_OUTCOME = "escalated"


class NotRetryable(ValueError):
    """The run cannot be retried; the message says why and what to do instead."""

    code = "CONFLICT"


@dataclass(frozen=True)
class RetryPlan:
    """Which rounds a retry reuses (as saved) and which agents each round runs again."""

    phase1: PhaseResult | None  # reused as it was: the initial round is skipped
    phase2: PhaseResult | None
    initial: list[str] = field(default_factory=list)
    revision: list[str] = field(default_factory=list)


def _saved(store: ArtifactStore, disruption_id: str, execution: str, phase: str) -> PhaseResult | None:
    saved = store.get(run_key(disruption_id, execution, f"phase-{phase}"))
    return PhaseResult.model_validate({**saved, "reused": True}) if saved else None


def retry_plan(disruption_id: str, retried: str, store: ArtifactStore) -> RetryPlan:
    """From the checkpointed rounds of the run `retried` (its execution name): what a retry runs again."""
    first, second = _saved(store, disruption_id, retried, "initial"), _saved(store, disruption_id, retried, "revision")
    initial = list(AGENTS) if first is None else [a for a in AGENTS if a in first.failed]
    phase1 = first if first is not None and not initial else None
    again = set(initial) | (set(AGENTS) if second is None else set(second.failed))
    revision = [a for a in AGENTS if a in again]
    phase2 = second if phase1 is not None and not revision else None
    return RetryPlan(phase1=phase1, phase2=phase2, initial=initial, revision=revision)


def retry_request(described: dict[str, Any], taken: set[str]) -> tuple[DisruptionRequest, str]:
    """The request and the execution name of a retry of the run `described` (DescribeExecution's answer);
    NotRetryable unless the run ended escalated."""
    name = described.get("name") or described["executionArn"].rsplit(":", 1)[-1]
    output = json.loads(described.get("output") or "{}") or {}
    outcome = (output.get("outcome") or {}).get("status")
    status = described["status"]
    if status in ("FAILED", "TIMED_OUT", "ABORTED"):
        raise NotRetryable(f"run {name} is {status}: `resume` runs a failed run again, reusing its finished rounds")
    if status != "SUCCEEDED":
        raise NotRetryable(f"run {name} is {status}: only a run that ended escalated is retried")
    if outcome != RETRYABLE_OUTCOME:
        raise NotRetryable(f"run {name} ended {outcome or 'without an outcome'}: only an escalated run is retried")
    request = DisruptionRequest.model_validate(
        {**json.loads(described["input"]), "retry": True, "resume": False, "resumes": name}
    )
    base = request.disruption_id
    number = next(i for i in range(1, 1000) if f"{base}{RETRY_SUFFIX}{i}" not in taken)
    return request, f"{base}{RETRY_SUFFIX}{number}"
