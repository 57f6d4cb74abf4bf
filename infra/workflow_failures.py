"""Where a failed step of the state machine goes (issue 48): a run never ends holding its flight.

Every step after Validate that can fail past its retries — the agent rounds and their Collates, the debate
rounds, the approval, Execute — has a Catch (States.ALL, the error and cause kept at `$.failure`) to one path:
"Escalate: run failed" (escalation RUN_FAILED) → "Record failed run" (the Learn function: the outcome, the
duty managers' alert, the audit document, and the flight claim released) → Fail "Run failed, flight released".
The execution still ends FAILED — nothing ends SUCCEEDED with work missing — but its flight is free at once.

What no Catch can see — StopExecution (ABORTED), a timed-out execution, States.DataLimitExceeded and
States.Runtime (which States.ALL does not catch), a Learn that fails itself — is swept by the next claim on the
flight: a holder no longer RUNNING gives way (workflow/runs/flight_claims.py), and local start frees the claims of
the runs it brings back ABORTED (local/runs.py). Validate is left uncaught: its failure is the refusal of a report
(InvalidDisruption) the caller reads from the execution, and it claims the flight only as its last step.
"""

from __future__ import annotations

from collections.abc import Iterable

from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_stepfunctions as sfn
from aws_cdk import aws_stepfunctions_tasks as tasks
from constructs import Construct

from .workflow_rounds import Invoke

ESCALATE_TITLE = "Escalate: run failed"
RECORD_TITLE = "Record failed run"
FAILED_TITLE = "Run failed, flight released"
UNRECORDED_TITLE = "Run failed, outcome not recorded"
FAILURE_PATH = "$.failure"  # the caught error: {"Error": ..., "Cause": ...}


def failure_path(scope: Construct, learn: lambda_.IFunction, invoke: Invoke) -> tuple[sfn.Pass, sfn.Fail]:
    """The states a caught failure runs: the first (the steps' Catch target), and the end of a run whose Learn
    failed (the Catch target of Learn itself)."""
    escalate = sfn.Pass(
        scope,
        ESCALATE_TITLE,
        parameters={
            "reason": "RUN_FAILED",
            # the error's name: its cause (a traceback, a size) stays at $.failure for the audit
            "message": sfn.JsonPath.format(
                "a step of the run failed past its retries ({}); its flight is released and a duty manager decides",
                sfn.JsonPath.string_at(f"{FAILURE_PATH}.Error"),
            ),
        },
        result_path="$.escalation",
    )
    record = invoke(
        RECORD_TITLE,
        learn,
        {"state": sfn.JsonPath.entire_payload, "execution_arn": sfn.JsonPath.string_at("$$.Execution.Id")},
        "$.outcome",
    )
    # Learn failing too: the run still ends; the next report of the flight frees the claim (the sweep).
    unrecorded = sfn.Fail(
        scope,
        UNRECORDED_TITLE,
        error="RunFailed",
        cause="Learn could not record the run's outcome; the next report of the flight frees its claim",
    )
    record.add_catch(unrecorded, errors=["States.ALL"], result_path="$.record_failure")
    failed = sfn.Fail(
        scope,
        FAILED_TITLE,
        error="RunFailed",
        cause="a step failed past its retries; Learn recorded it, alerted the duty managers and released the flight",
    )
    escalate.next(record).next(failed)
    return escalate, unrecorded


def catch_failures(states: Iterable[tasks.LambdaInvoke | sfn.Map], handler: sfn.IChainable) -> None:
    """A Catch of every error on each state to `handler`, the caught error at `$.failure`."""
    for state in states:
        state.add_catch(handler, errors=["States.ALL"], result_path=FAILURE_PATH)
