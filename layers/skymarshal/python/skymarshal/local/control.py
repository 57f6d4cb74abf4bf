"""`skymarshal local start | stop | reset | status`, and the account every local command uses.

State lives in $SKYMARSHAL_HOME (default ./.skymarshal): local.json names the server's pid and endpoint.
A command run while no server is running gets a temporary in-process account of its own.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

DEFAULT_PORT = 4566


def home() -> Path:
    return Path(os.environ.get("SKYMARSHAL_HOME", ".skymarshal"))


def state_file() -> Path:
    return home() / "local.json"


@dataclass
class LocalState:
    pid: int
    endpoint: str
    status: str  # seeding | ready | failed
    seed: int
    started_at: float
    counts: dict[str, int] = field(default_factory=dict)
    error: str | None = None

    def write(self) -> None:
        state_file().parent.mkdir(parents=True, exist_ok=True)
        tmp = state_file().with_suffix(".tmp")
        tmp.write_text(json.dumps(asdict(self), indent=2))
        tmp.replace(state_file())

    @classmethod
    def read(cls) -> LocalState | None:
        try:
            return cls(**json.loads(state_file().read_text()))
        except (FileNotFoundError, json.JSONDecodeError, TypeError):
            return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return True


def _responds(endpoint: str) -> bool:
    try:
        with urllib.request.urlopen(f"{endpoint}/moto-api/", timeout=2):
            return True
    except OSError:
        return False


def running() -> LocalState | None:
    """The running server's state if it is alive and ready, else None (a stale state file is removed)."""
    state = LocalState.read()
    if state is None:
        return None
    if not _alive(state.pid):
        state_file().unlink(missing_ok=True)
        return None
    if state.status == "ready" and _responds(state.endpoint):
        return state
    return None


def _free_port(preferred: int) -> int:
    with socket.socket() as sock:
        if sock.connect_ex(("127.0.0.1", preferred)) != 0:
            return preferred
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(
    seed: int = 2027, port: int = DEFAULT_PORT, load_factor: float = 0.78, echo=print, timeout_s: float = 900
) -> LocalState:
    current = running()
    if current:
        echo(f"local AWS already running at {current.endpoint} (pid {current.pid}, seed {current.seed})")
        return current
    state = LocalState.read()
    if state and _alive(state.pid) and state.status == "seeding":
        echo(f"local AWS is still seeding (pid {state.pid}); waiting")
    else:
        home().mkdir(parents=True, exist_ok=True)
        log = (home() / "local.log").open("w")
        port = _free_port(port)
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "skymarshal.local.server",
                "--port",
                str(port),
                "--seed",
                str(seed),
                "--load-factor",
                str(load_factor),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            cwd=os.getcwd(),
            env={**os.environ},
        )
        echo(f"starting local AWS on 127.0.0.1:{port}: generating and seeding the airline (about two minutes)")
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        state = LocalState.read()
        if state and state.status == "failed":
            raise RuntimeError(f"local AWS failed to start: {state.error} (log: {home() / 'local.log'})")
        if state and state.status == "ready" and _responds(state.endpoint):
            echo(
                f"local AWS ready at {state.endpoint}: {sum(state.counts.values())} rows in {len(state.counts)} tables"
            )
            return state
        time.sleep(0.5)
    raise TimeoutError(f"local AWS not ready after {timeout_s:.0f} s (log: {home() / 'local.log'})")


def stop(echo=print) -> bool:
    state = LocalState.read()
    if state is None or not _alive(state.pid):
        state_file().unlink(missing_ok=True)
        echo("local AWS is not running")
        return False
    os.kill(state.pid, signal.SIGTERM)
    for _ in range(50):
        if not _alive(state.pid):
            break
        time.sleep(0.1)
    state_file().unlink(missing_ok=True)
    echo(f"local AWS stopped (pid {state.pid})")
    return True


@contextmanager
def account(echo=print) -> Iterator:
    """The running local account, or a temporary in-process one seeded for this command only."""
    from .emulator import LocalAccount, in_process_account, use_fake_credentials

    state = running()
    if state:
        use_fake_credentials()
        yield LocalAccount(endpoint_url=state.endpoint)
        return
    from ..data.generator import generate

    echo("no local AWS running: using a temporary one for this command (start one with `skymarshal local start`)")
    with in_process_account(generate()) as temporary:
        yield temporary
