"""`skymarshal analyze --json` prints one JSON document on stdout and nothing else, in every provider mode: with
the Bedrock provider on (the fake Bedrock Runtime), the workflow handlers log their models at import ("bedrock
models", Powertools, to stdout by default) and a logger made before the command logs to stdout too; all of it goes
to stderr. The local account and the run are stand-ins (the state machine is not what is tested here); the log
lines are the real ones, from the real handler module imported during the command."""

from __future__ import annotations

import importlib
import json
import logging
import sys
from contextlib import contextmanager
from types import SimpleNamespace

import pytest
from aws_lambda_powertools import Logger

from skymarshal.cli import analyze_cmds, main
from skymarshal.cli.common import print_json

PROMPT = "Flight EY123 on January 20th had a mechanical failure"


class StandInClient:
    """The local client's calls as analyze makes them; starting the run imports the workflow handlers (their
    startup check logs) and a library prints, as an in-process Lambda would."""

    def __init__(self) -> None:
        self.early = Logger(service="made-before")  # a Powertools logger bound to stdout before the command

    def start(self, prompt, **kw):
        import skymarshal.handlers.workflow_steps as steps

        importlib.reload(steps)  # its module-level startup_check(logger) runs now, inside the command
        self.early.info("a log line from a logger made before --json")
        print("a library's print")
        return {"execution_name": "run-1", "disruption_id": kw["disruption_id"], "started": True}

    def follow(self, name, on_progress=None):
        return SimpleNamespace(awaiting_approval=False)

    def describe(self, name):
        return {"status": "SUCCEEDED"}

    def output(self, name):
        return {"outcome": {"status": "executed"}, "request": {"disruption": {"family": "technical"}}}

    def decision(self, name):
        return {"ranked": []}

    def audit(self, name):
        return {"records": []}


@pytest.fixture
def stand_in(monkeypatch, tmp_path):
    # INFO, the Lambda default: an earlier test of the worker may have left WARNING in the environment
    # (local/workflow.install sets it), and Powertools keeps a service logger's level from its first making
    import skymarshal.handlers.workflow_steps as steps

    monkeypatch.setenv("POWERTOOLS_LOG_LEVEL", "INFO")
    for name in (steps.SERVICE, "made-before"):
        monkeypatch.setattr(logging.getLogger(name), "level", logging.INFO)
    client = StandInClient()

    @contextmanager
    def account(echo=print, **kw):
        yield SimpleNamespace()

    monkeypatch.setenv("SKYMARSHAL_HOME", str(tmp_path))
    monkeypatch.setattr(analyze_cmds.control, "account", account)
    monkeypatch.setattr("skymarshal.local.workflow.local_client", lambda account, echo=None: client)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False, raising=False)
    return client


def run_json(capfd) -> tuple[dict, str]:
    code = main(["analyze", PROMPT, "--approve", "--json"])
    out, err = capfd.readouterr()
    assert code == 0, err
    return json.loads(out), err  # the whole of stdout is one JSON document


def test_with_bedrock_stdout_is_the_json_alone(fake_bedrock, stand_in, capfd) -> None:
    document, err = run_json(capfd)
    assert document["status"] == "executed" and document["execution"] == "run-1"
    assert "bedrock models" in err and "made before --json" in err and "a library's print" in err


def test_offline_stdout_is_the_json_alone(monkeypatch, stand_in, capfd) -> None:
    monkeypatch.setenv("SKYMARSHAL_LLM_PROVIDER", "offline")
    document, err = run_json(capfd)
    assert document["status"] == "executed"
    assert "bedrock models" not in err and "a library's print" in err


def test_without_json_the_logs_stay_where_they_were(monkeypatch, stand_in, capfd) -> None:
    """The redirect is --json's only: a plain run's stdout still gets the library's print."""
    monkeypatch.setenv("SKYMARSHAL_LLM_PROVIDER", "offline")
    main(["analyze", PROMPT, "--approve"])
    out, _ = capfd.readouterr()
    assert "a library's print" in out


def test_every_exit_path_restores_stdout_and_the_handlers(stand_in, monkeypatch, capfd) -> None:
    """A command that fails leaves stdout and the early logger's handler as they were; a logger made during the
    command (bound to the diverted stdout) writes to the real stdout afterwards; the failure is the JSON document."""
    monkeypatch.setenv("SKYMARSHAL_LLM_PROVIDER", "offline")
    made_during: list[Logger] = []

    def failing_start(prompt, **kw):
        made_during.append(Logger(service="made-during-json"))
        raise RuntimeError("the account went away")

    monkeypatch.setattr(stand_in, "start", failing_start)
    stdout_before = sys.stdout
    early_streams = [h.stream for h in stand_in.early.handlers]
    assert main(["analyze", PROMPT, "--approve", "--json"]) == 1
    assert sys.stdout is stdout_before
    assert [h.stream for h in stand_in.early.handlers] == early_streams
    assert all(h.stream is sys.stdout for h in made_during[0].handlers)
    out, err = capfd.readouterr()
    failure = json.loads(out)  # the failure is the one document
    assert failure["status"] == "error" and failure["error"] == "RuntimeError"
    assert "the account went away" in failure["message"] and "the account went away" in err


def test_a_command_that_wrote_its_document_and_then_failed_writes_no_second(stand_in, monkeypatch, capfd) -> None:
    monkeypatch.setenv("SKYMARSHAL_LLM_PROVIDER", "offline")

    def written_then_failed(value) -> None:
        print_json(value)
        raise RuntimeError("the audit table went away")

    monkeypatch.setattr(analyze_cmds, "print_json", written_then_failed)
    assert main(["analyze", PROMPT, "--approve", "--json"]) == 1
    out, err = capfd.readouterr()
    assert json.loads(out)["status"] == "executed" and "the audit table went away" in err


def _cli_json(args: list[str], env: dict[str, str]) -> tuple[str, str, int]:
    """The installed CLI in a process of its own: nothing imported before, so every import-time log is its own."""
    import os
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "skymarshal.cli", *args],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.stdout, done.stderr, done.returncode


@pytest.mark.parametrize("provider", ["bedrock", "offline"])
@pytest.mark.parametrize(
    "command", [["alerts", "--json"], ["history", "--json"], ["audit", "verify", "no-such-run", "--json"]]
)
def test_a_failing_json_command_prints_one_json_document_too(fake_bedrock, tmp_path, provider, command) -> None:
    """No local AWS: the command fails; stdout is still one JSON document (the failure), the logs are on stderr —
    with Bedrock configured, the error path's imports log the models, which went to stdout after the command."""
    env = {"SKYMARSHAL_HOME": str(tmp_path), "SKYMARSHAL_LLM_PROVIDER": provider, "POWERTOOLS_LOG_LEVEL": "INFO"}
    out, err, code = _cli_json(command, env)
    assert code == 1, err
    document = json.loads(out)  # the whole of stdout
    assert document["status"] == "error" and "local AWS is not running" in document["message"]
    assert "local AWS is not running" in err
    assert ("bedrock models" in err) == (provider == "bedrock")
