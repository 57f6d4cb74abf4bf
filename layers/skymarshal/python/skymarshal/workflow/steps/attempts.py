"""A plan decided again inside one run: when Execute refuses the approved plan because the operation changed since
it was decided (another run took the spare, a row changed, the seats went), the state machine sends the run back to
Arbitrate on the tables as they now are and asks the duty manager again ("Plan still fits the operation?").

Each plan a Step Functions execution carries out is an attempt with its own execution record id (`NAME~n` from the
second), so its claim, change log, rollback and crash recovery are its own, as separate executions' are
(workflow/execution/execute.py: only a rolled-back record lets another attempt execute), and its own report
artifact (`execution-n`), which the audit trail hashes and so must never be rewritten.
"""

from __future__ import annotations

from typing import Any

from ..models import ExecutionSummary

SEPARATOR = "~"
MAX_ATTEMPTS = 3  # a plan refused a third time goes to the duty manager as a failed run, not round again
# what says the operation changed since the decision (workflow/execution/changes.py), not that the plan is wrong
STALE_REASONS = frozenset({"ROTATION_BROKEN", "CONDITION_FAILED", "SEATS_UNAVAILABLE", "ROW_MISSING"})


def attempt_id(execution_name: str, attempt: int) -> str:
    """The execution record id of the execution's `attempt`-th plan: its name for the first."""
    return execution_name if attempt <= 1 else f"{execution_name}{SEPARATOR}{attempt}"


def attempt_of(execution_id: str, execution_name: str) -> int | None:
    """n when `execution_id` is the n-th attempt of `execution_name`; None when it is another execution's."""
    if execution_id == execution_name:
        return 1
    head, sep, n = execution_id.rpartition(SEPARATOR)
    return int(n) if sep and head == execution_name and n.isdigit() else None


def report_artifact(attempt: int) -> str:
    """The run artifact holding the attempt's execution report."""
    return "execution" if attempt <= 1 else f"execution-{attempt}"


def next_attempt(state: dict[str, Any]) -> int:
    """The attempt this Execute carries out: one more than a refused attempt that asked for a re-decision, else the
    first (a retried Execute reads the same state, so it is the same attempt and applies nothing twice)."""
    previous = state.get("execution")
    if previous and previous.get("redecide"):
        return ExecutionSummary.model_validate(previous).attempt + 1
    return 1


def decide_again(status: str, reason_code: str | None, attempt: int) -> bool:
    """Whether a refused attempt goes back to Arbitrate: rolled back whole, because the operation changed."""
    return status == "rolled_back" and reason_code in STALE_REASONS and attempt < MAX_ATTEMPTS
