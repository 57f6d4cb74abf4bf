"""The local server refuses a new run on one line while its memory is short; everything else goes through."""

from __future__ import annotations

import json
import os

import pytest
from botocore.exceptions import ClientError

from skymarshal.cli import one_line
from skymarshal.local import memory_guard
from skymarshal.local.journal import Recorder

LINE = "local AWS is using 9.5 GB; finish or stop runs"


def _memory(rss: int, available: int = 20_000) -> memory_guard.Memory:
    return memory_guard.Memory(rss_mb=rss, peak_mb=rss, limit_mb=8_192, reserve_mb=2_048, available_mb=available)


def test_a_new_run_is_refused_above_the_limit_or_with_the_machine_short():
    assert _memory(4_000).refusal() is None
    assert _memory(9_728).refusal() == LINE
    assert _memory(4_096, available=1_000).refusal() == (
        "local AWS is using 4.0 GB and the machine has 1.0 GB left (reserve 2.0 GB, "
        "SKYMARSHAL_LOCAL_MEMORY_RESERVE_MB); finish or stop runs, or free memory elsewhere"
    )


def test_the_limit_and_reserve_come_from_the_environment(monkeypatch):
    monkeypatch.setenv(memory_guard.LIMIT_ENV, "1234")
    monkeypatch.setenv(memory_guard.RESERVE_ENV, "56")
    memory = memory_guard.memory()
    assert (memory.limit_mb, memory.reserve_mb) == (1234, 56)
    assert memory.rss_mb and memory.rss_mb > 0 and memory.peak_mb and memory.peak_mb >= memory.rss_mb
    assert memory_guard.memory(limit_mb=7, reserve_mb=0).refusal() is not None  # this process is above 7 MB


def _request(action: str) -> dict:
    return {
        "REQUEST_METHOD": "POST",
        "HTTP_AUTHORIZATION": "AWS4-HMAC-SHA256 Credential=testing/20270120/us-east-1/states/aws4_request",
        "HTTP_X_AMZ_TARGET": f"AWSStepFunctions.{action}",
    }


@pytest.mark.parametrize("short", [True, False])
def test_the_server_refuses_start_execution_only_while_short(monkeypatch, short):
    served: list[str] = []

    def app(environ, start_response):
        served.append(environ["HTTP_X_AMZ_TARGET"])
        start_response("200 OK", [])
        return [b"{}"]

    monkeypatch.setattr(memory_guard, "memory", lambda: _memory(9_728 if short else 1_000))
    recorder = Recorder(app, on_change=lambda service, action: None)
    statuses: list[str] = []
    body = b"".join(
        recorder(_request("StartExecution"), lambda status, headers, exc_info=None: statuses.append(status))
    )
    recorder(_request("SendTaskSuccess"), lambda status, headers, exc_info=None: statuses.append(status))
    if short:
        assert statuses[0].startswith("400")
        assert json.loads(body) == {"__type": "ExecutionLimitExceeded", "message": LINE}
        assert served == ["AWSStepFunctions.SendTaskSuccess"]  # a run already going goes on
    else:
        assert served == ["AWSStepFunctions.StartExecution", "AWSStepFunctions.SendTaskSuccess"]


def test_the_cli_prints_the_refusal_as_it_is():
    error = ClientError({"Error": {"Code": "ExecutionLimitExceeded", "Message": LINE}}, "StartExecution")
    assert one_line(error) == LINE


def test_released_memory_goes_back_to_the_machine():
    """A run's large transient reads, freed: malloc_trim gives the pages back (glibc), so resident memory falls."""
    import ctypes.util

    from skymarshal.local.control import rss_mb

    if not ctypes.util.find_library("c") or "glibc" not in " ".join(__import__("platform").libc_ver()):
        pytest.skip("malloc_trim is glibc's")
    chunks = [bytes(range(256)) * 4 for _ in range(200_000)]  # ~200 MB in small objects, as a run's rows are
    held = rss_mb(os.getpid()) or 0
    del chunks
    assert memory_guard.release_memory() is True
    assert (rss_mb(os.getpid()) or 0) < held - 100, "freed memory stayed resident"


@pytest.mark.parametrize(("setting", "cap"), [(None, 2), ("4", 4), ("lots", 2), ("0", 2)])
def test_the_server_caps_mallocs_arenas(monkeypatch, setting, cap):
    """glibc accepts the cap (mallopt answers 1); SKYMARSHAL_MALLOC_ARENAS sets it, a bad value keeps 2."""
    if "glibc" not in " ".join(__import__("platform").libc_ver()):
        pytest.skip("M_ARENA_MAX is glibc's")
    if setting is None:
        monkeypatch.delenv(memory_guard.ARENAS_ENV, raising=False)
    else:
        monkeypatch.setenv(memory_guard.ARENAS_ENV, setting)
    assert memory_guard.limit_arenas() == cap
