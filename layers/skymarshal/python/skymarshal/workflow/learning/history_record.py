"""The vocabulary of a run's history record, shared by Learn for one flight (learning.py) and for a network's
flights (network_learning.py): how the run ended (`RunAnswer`), the record id's prefix, the words for the duty
manager's answer and the outcome it leads to."""

from __future__ import annotations

from datetime import datetime
from typing import Literal, TypedDict

from ...models.history import DisruptionType, Outcome
from ..execution.records import ExecutionReport

ApprovalOutcome = Literal["approve", "select", "alternatives", "reject", "exclude", "timeout", "escalated"]
ID_PREFIX = "SM-"


class RunAnswer(TypedDict):
    """How a run ended, as every history record of it says: the same for one flight's record and a network's rows."""

    execution_id: str
    disruption_type: DisruptionType  # the disruption's AHM 730 code's, as the arbitrator searches precedents
    chosen_scenario_id: str | None
    decided_by: str | None
    approval_action: ApprovalOutcome
    report: ExecutionReport | None
    occurred_at: datetime


VERB = {
    "approve": "approved",
    "select": "selected",
    "reject": "rejected every plan",
    "timeout": "did not answer in time",
    "escalated": "the run was escalated to a human",
}


class NothingToLearn(ValueError):
    """The run has no ranked plan, or not the facts a history record needs."""


def outcome_of(approval_action: str, report: ExecutionReport | None) -> Outcome:
    if report is not None:
        return "on_plan" if report.status == "executed" else "failed"
    return "failed" if approval_action in ("approve", "select") else "not_executed"
