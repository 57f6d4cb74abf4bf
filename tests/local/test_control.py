"""`skymarshal local stop` tells the truth, and commands that need local AWS say so when it is down."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from skymarshal.cli import main
from skymarshal.local import control

STUBBORN = (
    "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print('up', flush=True); time.sleep(120)"
)
POLITE = "import time; print('up', flush=True); time.sleep(120)"


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("SKYMARSHAL_HOME", str(tmp_path))
    monkeypatch.setenv("SKYMARSHAL_LLM_PROVIDER", "offline")
    return tmp_path


def _pretend_server(code: str) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stdout.readline().strip() == "up"  # its handler is in place
    control.LocalState(
        pid=process.pid, endpoint="http://127.0.0.1:9", status="ready", seed=1, started_at=time.time()
    ).write()
    return process


def test_stop_escalates_to_sigkill_and_says_so(home):
    process = _pretend_server(STUBBORN)
    said: list[str] = []
    assert control.stop(echo=said.append, grace_s=1) is True
    assert not control._alive(process.pid)  # stop reaped it (our child here), so Popen cannot see the signal
    assert "did not exit within 1 s of SIGTERM and was killed (SIGKILL)" in said[0]
    assert not control.state_file().exists()


def test_stop_of_a_server_that_exits_on_sigterm_says_stopped(home):
    process = _pretend_server(POLITE)
    said: list[str] = []
    assert control.stop(echo=said.append, grace_s=10) is True
    assert not control._alive(process.pid)
    assert said[0].startswith("local AWS stopped") and "SIGKILL" not in said[0]


def test_stop_when_nothing_runs(home):
    said: list[str] = []
    assert control.stop(echo=said.append) is False and said == ["local AWS is not running"]


@pytest.mark.parametrize(
    "command",
    [
        ["status", "run-1"],
        ["history"],
        ["audit", "run-1"],
        ["audit", "verify", "run-1"],
        ["resume", "run-1"],
        ["analyze", "Flight EY123 on January 20th had a mechanical failure", "--approve"],
        ["serve", "--port", "8999"],
    ],
)
def test_commands_that_need_local_aws_fail_on_one_line_when_it_is_down(home, command, capsys, monkeypatch):
    def no_airline(*args, **kwargs):
        raise AssertionError("a temporary airline was generated")

    monkeypatch.setattr("skymarshal.data.generator.generate", no_airline)
    assert main(command) == 1
    err = capsys.readouterr().err
    assert err == "skymarshal: local AWS is not running: start it with `skymarshal local start`\n"


def test_a_server_still_starting_is_named_as_such(home, capsys):
    process = _pretend_server(POLITE)
    state = control.LocalState.read()
    assert state is not None
    state.status = "seeding"
    state.write()
    try:
        assert main(["history"]) == 1
        assert "still starting" in capsys.readouterr().err
    finally:
        process.kill()
        process.wait()
