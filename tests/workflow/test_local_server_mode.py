"""`skymarshal local start` (moto as a server in its own process, the state machine installed inside it) and
then `skymarshal analyze` from this process, as `make demo` does: the run reaches approval and executes.

Everything else runs the state machine in process; this is the one test of the server the demo uses.
"""

from __future__ import annotations

import json
import socket

import pytest
from workflow_helpers import DEMO

from skymarshal.cli import main
from skymarshal.local import control

pytestmark = pytest.mark.system  # a moto server in its own process, reached over a socket


@pytest.fixture
def server_home(tmp_path, monkeypatch):
    monkeypatch.setenv("SKYMARSHAL_HOME", str(tmp_path))
    monkeypatch.setenv("SKYMARSHAL_LLM_PROVIDER", "offline")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    control.start(port=port, load_factor=0.05, echo=lambda m: None, timeout_s=600)
    yield tmp_path
    control.stop(echo=lambda m: None)


def test_make_demo_path_runs_the_state_machine_in_the_server(server_home, capsys):
    code = main(["analyze", DEMO, "--approve", "--as", "Server Test", "--id", "server-mode-demo", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 0 and result["status"] == "executed", result
    assert result["approval"]["decided_by"] == "Server Test" and result["actions"]
    assert main(["audit", "verify", "server-mode-demo"]) == 0
