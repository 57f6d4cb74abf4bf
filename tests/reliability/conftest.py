"""The reliability suite's local AWS: `skymarshal local start` in its own process, its own home and port.

Each test gets a fresh home (so a crash in one test is not recovered by the next); the seeded airline is
cached once for the whole run (SKYMARSHAL_SEED_CACHE), so only the first server generates it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
from pathlib import Path

import pytest

from skymarshal.local import control


@pytest.fixture(scope="session")
def seed_cache(tmp_path_factory) -> Path:
    """Under xdist, one folder for every worker of the run (their base temps' parent): the first server of the
    run generates the airline, not the first of each worker."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = tmp_path_factory.getbasetemp().parent / "seeds"
        shared.mkdir(exist_ok=True)
        return shared
    return tmp_path_factory.mktemp("seeds")


@pytest.fixture
def local_home(tmp_path, monkeypatch, seed_cache, synthesized_home):
    monkeypatch.setenv("SKYMARSHAL_HOME", str(tmp_path))
    synthesized_home(tmp_path)
    monkeypatch.setenv("SKYMARSHAL_SEED_CACHE", str(seed_cache))
    monkeypatch.setenv("SKYMARSHAL_LLM_PROVIDER", "offline")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    yield port
    state = control.LocalState.read()
    if state and state.pid:  # whatever the test left running
        with contextlib.suppress(OSError):
            os.kill(state.pid, signal.SIGKILL)
