"""Kill-and-restart and stop-and-start of local AWS: runs, approvals, audit chains, keys and the pool survive.

The scenario of issue 19: a run executed and a run waiting for the duty manager, then `kill -9` of the
server mid-run. While it is down, commands that need it say so on one line. After `local start`: both
runs are listed, the executed one's audit chain verifies (its KMS key came back), the interrupted one is
ABORTED with a cause naming `resume`, and resuming it reaches approval and executes. A clean stop then
leaves nothing to replay.
"""

from __future__ import annotations

import json
import time

import pytest
from local_helpers import kill_hard, start

from skymarshal.api.identity import DevIdentity
from skymarshal.cli import main
from skymarshal.local import control
from skymarshal.local.emulator import LocalAccount
from skymarshal.local.runs import RESTART_ERROR
from skymarshal.local.workflow import local_client
from skymarshal.workflow.models import ApprovalDecision

pytestmark = pytest.mark.system

DEMO = "Flight EY123 on January 20th had a mechanical failure"
# Another flight for the run left waiting: EY123 is held once recovered (one run per flight, workflow/runs/flight_claims.py).
PENDING = "EY101 on 21 January 2027 is delayed over four hours and the crew will run out of duty time"


def _client():
    return local_client(LocalAccount(endpoint_url=control.running().endpoint), echo=lambda m: None)


def _wait_for_approval(client, name: str, timeout_s: float = 600) -> None:
    deadline = time.monotonic() + timeout_s
    while not client.pending(name):
        assert time.monotonic() < deadline, f"{name} never reached approval"
        assert client.describe(name)["status"] == "RUNNING", client.describe(name)
        time.sleep(0.5)


def test_a_crash_mid_run_loses_nothing_and_the_interrupted_run_resumes(local_home, capsys):
    start(local_home)
    assert main(["analyze", DEMO, "--approve", "--as", "Reliability", "--id", "rel-done", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "executed"
    client = _client()
    pool_before = DevIdentity(LocalAccount(control.running().endpoint).client("cognito-idp")).pool_id
    client.start(PENDING, disruption_id="rel-pending")
    _wait_for_approval(client, "rel-pending")

    kill_hard()
    for command in (["status", "rel-done"], ["audit", "verify", "rel-done"], ["resume", "rel-pending"], ["history"]):
        assert main(command) == 1
        err = capsys.readouterr().err.strip()
        assert err == "skymarshal: local AWS is not running: start it with `skymarshal local start`", command

    state = start(local_home)
    assert "1 interrupted mid-run" in state.recovered and "2 runs" in state.recovered, state.recovered
    client = _client()
    assert {r["name"]: r["status"] for r in client.executions()} == {"rel-done": "SUCCEEDED", "rel-pending": "ABORTED"}
    assert main(["audit", "verify", "rel-done"]) == 0  # hash chain and the KMS-signed head, key restored
    interrupted = client.describe("rel-pending")
    assert interrupted["error"] == RESTART_ERROR and "skymarshal resume rel-pending" in interrupted["cause"]
    assert DevIdentity(LocalAccount(control.running().endpoint).client("cognito-idp")).pool_id == pool_before

    resumed = client.resume("rel-pending")["execution_name"]
    _wait_for_approval(client, resumed)
    client.decide(resumed, ApprovalDecision(action="approve", decided_by="Reliability"))
    assert client.follow(resumed, timeout_s=600).status == "SUCCEEDED"

    capsys.readouterr()
    assert control.stop(echo=print) is True
    assert "stopped" in capsys.readouterr().out
    state = start(local_home)
    assert "with 0 journaled writes replayed" in state.recovered, state.recovered
    assert len(_client().executions()) == 3
    assert main(["audit", "verify", "rel-done"]) == 0
