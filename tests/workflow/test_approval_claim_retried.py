"""The duty manager's answer claims the approval in one conditional write; botocore retries that write when its
reply is lost (a timeout after DynamoDB applied it — issue 48's fault bench met it at 20 %), and the retry finds the
claim already made. The claim is the same answer's: it goes on to the execution, not AlreadyDecided. A claim made by
another answer still is AlreadyDecided."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from botocore.exceptions import ClientError

from skymarshal.workflow import approvals
from skymarshal.workflow.models import ApprovalDecision, DecisionSummary, RankedSummary


class Tokens:
    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    def succeed(self, token: str, output: str) -> None:
        self.sent.append((token, output))


def _pending(tables, name: str) -> None:
    decision = DecisionSummary(
        status="decided",
        has_plan=True,
        final_decision="Swap EY123 to A6-BLT",
        confidence=0.8,
        ranked=[
            RankedSummary(
                rank=1,
                scenario_id="tail_swap:A6-BLT",
                title="Swap",
                kind="tail_swap",
                score=0.8,
                confidence=0.8,
                delay_minutes=0,
                cost_usd=5000.0,
            )
        ],
        escalations=[],
        output={"key": "runs/x/y/decision.json"},
    )
    approvals.request_approval(
        task_token="token-1", execution_name=name, decision=decision, timeout_seconds=3600, tables=tables
    )


def _applied_then_lost(tables, monkeypatch, claimed_by_other: bool = False) -> None:
    """update_item applies (ours, or another answer's first), then answers as botocore's retry would."""
    real = tables.checkpoints.update_item

    def update_item(**kwargs):
        if claimed_by_other:
            other = ApprovalDecision(action="approve", decided_by="Other Manager").model_dump_json()
            kwargs["ExpressionAttributeValues"] = {**kwargs["ExpressionAttributeValues"], ":answer": other}
        real(**kwargs)
        raise ClientError({"Error": {"Code": "ConditionalCheckFailedException", "Message": "retried"}}, "UpdateItem")

    monkeypatch.setattr(tables.checkpoints, "update_item", update_item)


def test_a_retried_claim_that_finds_its_own_write_goes_on(blank_account, monkeypatch):
    tables, tokens = blank_account.tables(), Tokens()
    _pending(tables, "claim-retried")
    _applied_then_lost(tables, monkeypatch)
    answer = ApprovalDecision(
        action="approve", decided_by="Duty Manager", decided_at=datetime(2027, 1, 20, 7, tzinfo=UTC)
    )
    decided = approvals.decide("claim-retried", answer, tables=tables, tokens=tokens)
    assert decided["scenario_id"] == "tail_swap:A6-BLT" and len(tokens.sent) == 1  # the execution is told, once


def test_a_claim_made_by_another_answer_is_already_decided(blank_account, monkeypatch):
    tables, tokens = blank_account.tables(), Tokens()
    _pending(tables, "claim-taken")
    _applied_then_lost(tables, monkeypatch, claimed_by_other=True)
    with pytest.raises(approvals.AlreadyDecided, match="someone else"):
        approvals.decide(
            "claim-taken", ApprovalDecision(action="approve", decided_by="Me"), tables=tables, tokens=tokens
        )
    assert tokens.sent == []
