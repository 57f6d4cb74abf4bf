"""`skymarshal local start | stop | reset | status`, and the account every local command uses.

State lives in $SKYMARSHAL_HOME (default ./.skymarshal): local.json names the server's pid and endpoint
while it runs; local/state/ holds the account itself across restarts (durable.py). A command that works
on the account's runs, approvals or audit (analyze, status, resume, audit, serve, ...) needs the server
and says so on one line when it is down; only commands that read a slice of the airline for themselves
(`agent`, `rules`, `demo`) may build a temporary in-process account instead.
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
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from .account import home

if TYPE_CHECKING:
    from .schedule_start import Schedule

DEFAULT_PORT = 4566
STOP_GRACE_S = 60.0  # a clean stop writes a snapshot of the account: seconds at the default scale


class LocalError(RuntimeError):
    """Local AWS could not be started or reached; the message says what to do (one line)."""


class LocalNotRunning(LocalError):
    """The command needs the running local account and there is none."""


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
    start_seconds: float | None = None  # process start to ready, measured by the server
    start_cpu_seconds: float | None = None  # its CPU time to ready: the figure a loaded machine does not inflate
    rss_mb: int | None = None  # its resident memory when it became ready
    recovered: str = ""  # what a start after a stop or a crash put back
    memory_limit_mb: int | None = None  # above it, or with the machine short, new runs are refused (memory_guard)
    memory_reserve_mb: int | None = None

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


def rss_mb(pid: int) -> int | None:
    """Resident memory of a process in MB (Linux /proc), or None where that cannot be read."""
    from .memory_guard import proc_status_mb

    return proc_status_mb(pid, "VmRSS")


def _last_port_file() -> Path:
    return home() / "local" / "port"


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
    seed: int = 2027,
    port: int | None = None,
    load_factor: float = 0.78,
    echo=print,
    timeout_s: float = 900,
    schedule: Schedule | None = None,
) -> LocalState:
    """Start the server (or wait for one starting); `port` None: the last one used, so clients reconnect. With
    `schedule` a first start takes its flights from that SSIM file (checked first: `local_cmds`)."""
    current = running()
    if current:
        echo(f"local AWS already running at {current.endpoint} (pid {current.pid}, seed {current.seed})")
        return current
    state = LocalState.read()
    if state and _alive(state.pid) and state.status == "seeding":
        echo(f"local AWS is still seeding (pid {state.pid}); waiting")
    else:
        home().mkdir(parents=True, exist_ok=True)
        log = (home() / "local.log").open("a")
        if port is None:
            try:
                port = int(_last_port_file().read_text())
            except (OSError, ValueError):
                port = DEFAULT_PORT
        port = _free_port(port)
        _last_port_file().parent.mkdir(parents=True, exist_ok=True)
        _last_port_file().write_text(str(port))
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
                *(["--schedule", schedule.path] if schedule else []),
                *(["--tails", schedule.tails] if schedule and schedule.tails else []),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            cwd=os.getcwd(),
            env={**os.environ},
        )
        echo(f"starting local AWS on 127.0.0.1:{port} (log: {home() / 'local.log'})")
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        state = LocalState.read()
        if state and state.status == "failed":
            raise LocalError(f"local AWS failed to start: {state.error} (log: {home() / 'local.log'})")
        if state and state.status == "ready" and _responds(state.endpoint):
            echo(
                f"local AWS ready at {state.endpoint}: {sum(state.counts.values())} rows in {len(state.counts)} tables; "
                f"started in {state.start_seconds} s ({state.start_cpu_seconds} s CPU), {state.rss_mb} MB resident"
            )
            if state.recovered:
                echo(state.recovered)
            return state
        time.sleep(0.5)
    raise LocalError(f"local AWS not ready after {timeout_s:.0f} s (log: {home() / 'local.log'})")


def stop(echo=print, grace_s: float = STOP_GRACE_S) -> bool:
    """SIGTERM, then SIGKILL if it has not exited after `grace_s`; says which happened."""
    state = LocalState.read()
    if state is None or not _alive(state.pid):
        state_file().unlink(missing_ok=True)
        echo("local AWS is not running")
        return False
    os.kill(state.pid, signal.SIGTERM)
    if _wait_exit(state.pid, grace_s):
        echo(f"local AWS stopped (pid {state.pid}); its state is saved in {home() / 'local' / 'state'}")
    else:
        os.kill(state.pid, signal.SIGKILL)
        if not _wait_exit(state.pid, 10):
            echo(f"local AWS (pid {state.pid}) survived SIGTERM and SIGKILL: it is still running")
            return False
        echo(
            f"local AWS (pid {state.pid}) did not exit within {grace_s:.0f} s of SIGTERM and was killed (SIGKILL); "
            "the next start recovers its state from the journal"
        )
    state_file().unlink(missing_ok=True)
    return True


def _wait_exit(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)  # our own child (tests): reap it, or it stays a zombie
            if done == pid:
                return True
        except ChildProcessError:
            pass
        if not _alive(pid):
            return True
        time.sleep(0.1)
    return not _alive(pid)


def wipe() -> None:
    """Forget the account's state (`local reset`); the cached seeded airline stays."""
    from .durable import DurableState

    DurableState(home() / "local").wipe()


@contextmanager
def account(
    echo=print,
    allow_temporary: bool = False,
    passenger_days: tuple[date, date] | None = None,
    tables: Collection[str] | None = None,
) -> Iterator:
    """The running local account; without one, LocalNotRunning, or with `allow_temporary` an in-process
    account seeded for this command only. It can be a slice: with `passenger_days`, passengers, bookings and
    bags only for the flights of those days (GeneratorConfig.passenger_days); with `tables`, only those
    tables hold rows."""
    from .emulator import LocalAccount, in_process_account, use_fake_credentials

    state = running()
    if state:
        use_fake_credentials()
        yield LocalAccount(endpoint_url=state.endpoint)
        return
    if not allow_temporary:
        pending = LocalState.read()
        if pending and _alive(pending.pid) and pending.status == "seeding":
            raise LocalNotRunning("local AWS is still starting: wait for `skymarshal local start` to say ready")
        raise LocalNotRunning("local AWS is not running: start it with `skymarshal local start`")
    from ..data.generator import GeneratorConfig, generate

    sliced = f", passengers of {passenger_days[0]} to {passenger_days[1]} only" if passenger_days else ""
    echo(
        f"no local AWS running: using a temporary one for this command{sliced} "
        "(start one with `skymarshal local start`)"
    )
    airline = generate(GeneratorConfig(passenger_days=passenger_days))
    with in_process_account(airline, tables=tables) as temporary:
        yield temporary
