"""The attempts of one run's execution (workflow/execution/attempts.py): ids that name their execution and never
another's, the attempt a retried Execute carries out, and when a refusal goes back to Arbitrate."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skymarshal.workflow.models import ExecutionSummary
from skymarshal.workflow.steps.attempts import (
    MAX_ATTEMPTS,
    STALE_REASONS,
    attempt_id,
    attempt_of,
    decide_again,
    next_attempt,
    report_artifact,
)

NAMES = st.from_regex(r"[A-Za-z0-9_-]{1,40}", fullmatch=True)


@given(name=NAMES, other=NAMES, n=st.integers(1, 9))
def test_an_attempt_id_names_its_execution_and_no_other(name, other, n):
    assert attempt_of(attempt_id(name, n), name) == n
    if other != name:
        assert attempt_of(attempt_id(name, n), other) is None


def test_the_first_attempt_keeps_the_executions_name_and_artifact():
    assert (attempt_id("d-1", 1), report_artifact(1)) == ("d-1", "execution")
    assert (attempt_id("d-1", 2), report_artifact(2)) == ("d-1~2", "execution-2")


def _summary(**kw) -> dict:
    return ExecutionSummary(status="rolled_back", scenario_id="tail_swap:A6-BLT", actions=[], **kw).model_dump()


def test_a_retried_execute_is_the_same_attempt_and_a_re_decision_the_next():
    assert next_attempt({"execution": None}) == 1
    assert next_attempt({"execution": _summary(attempt=1, redecide=False)}) == 1  # nothing asked to decide again
    assert next_attempt({"execution": _summary(attempt=2, redecide=True)}) == 3


@given(
    reason=st.sampled_from([None, *sorted(STALE_REASONS | {"INVALID_ROW", "TRANSACTION_ERROR"})]), n=st.integers(1, 6)
)
def test_only_a_whole_rollback_because_the_operation_changed_decides_again_and_not_for_ever(reason, n):
    assert decide_again("rolled_back", reason, n) == (reason in STALE_REASONS and n < MAX_ATTEMPTS)
    assert not decide_again("compensation_failed", reason, n)  # rows left changed: a person reconciles first
    assert not decide_again("executed", reason, n)


def test_the_refusal_a_re_decision_quotes_is_bounded_and_names_the_plan():
    from skymarshal.workflow.steps.decision import REFUSAL_CHARS, redecided_after

    long = _summary(attempt=1, redecide=True, reason_code="CONDITION_FAILED", error="x" * 5000)
    line = redecided_after({"execution": long})
    assert line is not None and "tail_swap:A6-BLT" in line and "CONDITION_FAILED" in line
    assert len(line) < REFUSAL_CHARS + 200
    assert redecided_after({"execution": _summary(attempt=1, redecide=False)}) is None
