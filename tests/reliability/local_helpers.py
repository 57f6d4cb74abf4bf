"""Shared by the reliability tests: starting and crashing the local server."""

from __future__ import annotations

import json
import os
import signal

from skymarshal.local import control

LOAD_FACTOR = 0.05


def start(port: int) -> control.LocalState:
    return control.start(port=port, load_factor=LOAD_FACTOR, echo=lambda m: None, timeout_s=900)


def kill_hard() -> int:
    """kill -9 the server, as a crash would; returns its pid."""
    pid = json.loads(control.state_file().read_text())["pid"]
    os.kill(pid, signal.SIGKILL)
    control._wait_exit(pid, 10)
    return pid
