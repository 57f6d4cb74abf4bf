"""Issue 32's crash-after-approval sequence through the real local server: a run approved, then the server killed
with SIGKILL a moment later (while Execute may be applying the plan, or just after), then `local start`. Whatever
the kill interrupted, recovery settles the run from the tables: executed exactly once (a resume is refused and
changes nothing) or not at all (the resume is approved and executes once) — one history record for the run.
"""

from __future__ import annotations

import time

import pytest
from boto3.dynamodb.conditions import Attr
from local_helpers import kill_hard, start

from skymarshal.local import control
from skymarshal.local.emulator import REGION, LocalAccount
from skymarshal.local.workflow import local_client
from skymarshal.workflow.execution.records import execution_events, run_record
from skymarshal.workflow.execution.recovery import NothingToResume
from skymarshal.workflow.models import ApprovalDecision

pytestmark = pytest.mark.system

# (report, seconds between the approval and the kill): one flight per case (a recovered flight is held).
CASES = (
    ("Flight EY123 on January 20th had a mechanical failure", 0.0),
    ("EY45 on 21 January 2027: the first officer called in sick", 0.3),
    ("EY101 on 21 January 2027 is delayed over four hours and the crew will run out of duty time", 2.0),
)


def _client(account: LocalAccount):
    return local_client(account, echo=lambda m: None)


def _await_approval(client, name: str, timeout_s: float = 600) -> None:
    deadline = time.monotonic() + timeout_s
    while not client.pending(name):
        assert time.monotonic() < deadline, f"{name} never reached approval"
        assert client.describe(name)["status"] == "RUNNING", client.describe(name)
        time.sleep(0.3)


def _history(account: LocalAccount, runs: list[str]) -> list[str]:
    table = account.resource().Table(account.naming("DisruptionHistory"))
    return [
        item["disruption_id"]
        for run in runs
        for item in table.scan(FilterExpression=Attr("execution_id").eq(run))["Items"]  # a test's read, not the app's
    ]


def test_a_kill_just_after_approval_executes_once(local_home, monkeypatch):
    for variable in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        monkeypatch.setenv(variable, "testing")  # moto takes any; never a real key by accident
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    start(local_home)
    for case, (report, delay_s) in enumerate(CASES):
        name = f"kill-after-approval-{case}"
        client = _client(LocalAccount(endpoint_url=control.running().endpoint))
        client.start(report, disruption_id=name)
        _await_approval(client, name)
        client.decide(name, ApprovalDecision(action="approve", decided_by="Reliability"))
        time.sleep(delay_s)
        kill_hard()
        start(local_home)

        account = LocalAccount(endpoint_url=control.running().endpoint)
        client = _client(account)
        runs = [name]
        status = client.describe(name)["status"]
        record = run_record(name, tables=client.tables)
        if record is not None and record["status"] == "executed":
            assert status == "SUCCEEDED", (delay_s, status)
            with pytest.raises((NothingToResume, ValueError), match=r"ALREADY_EXECUTED|is SUCCEEDED"):
                client.resume(name)  # settled as executed: a resume is refused, on one line
        else:  # the kill came before the plan was applied, or recovery put back what it had committed
            assert status == "ABORTED", (delay_s, status, record)
            resumed = client.resume(name)["execution_name"]
            runs.append(resumed)
            _await_approval(client, resumed)
            client.decide(resumed, ApprovalDecision(action="approve", decided_by="Reliability"))
            assert client.follow(resumed, timeout_s=600).status == "SUCCEEDED"
            record = run_record(name, tables=client.tables)
        assert record is not None and record["status"] == "executed", record
        # the execution the record names applied each group once (an attempt the kill cut short mid-plan was put
        # back by recovery before the resume: its groups do not count)
        executed_by = record["execution_name"]
        completed = [e for e in execution_events(executed_by, tables=client.tables) if e.event == "completed"]
        assert len(completed) == len({e.group for e in completed}) > 0, [(e.execution_id, e.group) for e in completed]
        assert executed_by in runs
        assert _history(account, runs) == [f"SM-{record['execution_name']}"], (delay_s, runs)
