"""The local server refuses new runs before the machine runs out of memory, and says so on one line.

moto holds the whole account in the server's memory, and the kernel's OOM killer ends the process that uses
the most when the machine runs out: the server, every run on it with it. So a StartExecution (a new run) is
refused while the server's resident memory is above its limit, or while the machine has less than a reserve
left, whichever comes first — "local AWS is using N GB; finish or stop runs" — and runs already started go on
to their end (an approval, an execution, a resume of a checkpointed round are not new work).

The limit is SKYMARSHAL_LOCAL_MEMORY_LIMIT_MB (default: half the machine's memory); the reserve is
SKYMARSHAL_LOCAL_MEMORY_RESERVE_MB (default: a tenth of it). `skymarshal local status` shows both beside the
server's memory now and at its peak.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import json
import os
from dataclasses import dataclass
from pathlib import Path

LIMIT_ENV = "SKYMARSHAL_LOCAL_MEMORY_LIMIT_MB"
RESERVE_ENV = "SKYMARSHAL_LOCAL_MEMORY_RESERVE_MB"
NEW_WORK = frozenset({"StartExecution", "StartSyncExecution"})  # Step Functions actions that start a run
REFUSAL_CODE = "ExecutionLimitExceeded"  # what Step Functions answers when no more runs may start


def _meminfo() -> dict[str, int]:
    """/proc/meminfo in MB (empty where it cannot be read)."""
    try:
        lines = Path("/proc/meminfo").read_text().splitlines()
    except OSError:
        return {}
    out: dict[str, int] = {}
    for line in lines:
        name, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            out[name] = int(parts[0]) // 1024
    return out


def proc_status_mb(pid: int, field: str) -> int | None:
    """A memory field of /proc/<pid>/status (VmRSS, VmHWM) in MB, or None where it cannot be read (not Linux)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) // 1024
    return None


@dataclass(frozen=True)
class Memory:
    rss_mb: int | None
    peak_mb: int | None  # the most it has been resident (VmHWM)
    limit_mb: int
    reserve_mb: int
    available_mb: int | None  # the machine's, all processes counted

    def refusal(self) -> str | None:
        """The line a new run is refused with, or None while there is room."""
        over = self.rss_mb is not None and self.rss_mb > self.limit_mb
        short = self.available_mb is not None and self.available_mb < self.reserve_mb
        if not (over or short):
            return None
        using = f"local AWS is using {(self.rss_mb or 0) / 1024:.1f} GB"
        if over:
            return f"{using}; finish or stop runs"
        # the server is within its limit: other programs took the machine's memory
        left = (self.available_mb or 0) / 1024
        return (
            f"{using} and the machine has {left:.1f} GB left (reserve "
            f"{self.reserve_mb / 1024:.1f} GB, {RESERVE_ENV}); finish or stop runs, or free memory elsewhere"
        )

    def as_dict(self) -> dict[str, int | None]:
        return {
            "rss_mb_now": self.rss_mb,
            "rss_mb_peak": self.peak_mb,
            "memory_limit_mb": self.limit_mb,
            "machine_available_mb": self.available_mb,
            "machine_reserve_mb": self.reserve_mb,
        }


ARENAS_ENV = "SKYMARSHAL_MALLOC_ARENAS"
DEFAULT_ARENAS = 2
M_ARENA_MAX = -8  # glibc's mallopt parameter (malloc.h)


def _glibc():
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name) if name else None
    except OSError:
        return None


def limit_arenas() -> int | None:
    """Cap glibc's malloc arenas for the server's lifetime (SKYMARSHAL_MALLOC_ARENAS, default 2), before its
    threads start: glibc gives each contending thread its own arena, up to 8 per core, and the request and
    handler threads of successive runs each leave their arena fragmented — a ratchet malloc_trim can only
    partly undo. The cap set, or None where there is no glibc (musl, macOS)."""
    libc = _glibc()
    arenas = _setting(ARENAS_ENV, DEFAULT_ARENAS) or DEFAULT_ARENAS
    if libc is None or not hasattr(libc, "mallopt") or libc.mallopt(M_ARENA_MAX, arenas) != 1:
        return None
    return arenas


def release_memory() -> bool:
    """Give back to the machine what finished runs freed: a full collection, then glibc's malloc_trim, which
    returns free heap pages (the top and the middle) that Python's allocator leaves mapped after a run's large
    reads — otherwise the server's resident memory ratchets up run by run. False where there is no glibc."""
    gc.collect()
    libc = _glibc()
    if libc is None or not hasattr(libc, "malloc_trim"):  # not glibc (musl, macOS)
        return False
    libc.malloc_trim(0)
    return True


def freeze_seeded() -> None:
    """Move what seeding or recovery left (the airline's rows, moto's tables: most of the server's objects) out of
    the collector's sight for good (`gc.freeze`): they live as long as the server, and each full collection walked
    them all — about a second, every few board reads, under the request being answered. An object freed later is
    still freed by its count; only a cycle among them would stay, and the rows make none."""
    gc.freeze()


def _setting(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value.isdigit() else default


def memory(pid: int | None = None, limit_mb: int | None = None, reserve_mb: int | None = None) -> Memory:
    """The server's memory (this process by default) against its limit and the machine's reserve (the server's
    own settings, from the environment, unless given: `local status` passes those the server recorded)."""
    pid = os.getpid() if pid is None else pid
    info = _meminfo()
    total = info.get("MemTotal", 0)
    return Memory(
        rss_mb=proc_status_mb(pid, "VmRSS"),
        peak_mb=proc_status_mb(pid, "VmHWM"),
        limit_mb=limit_mb if limit_mb is not None else _setting(LIMIT_ENV, total // 2 if total else 8192),
        reserve_mb=reserve_mb if reserve_mb is not None else _setting(RESERVE_ENV, total // 10),
        available_mb=info.get("MemAvailable"),
    )


def refused(start_response) -> list[bytes] | None:
    """For the server's middleware: the refusal of a new run as Step Functions' JSON error, or None."""
    line = memory().refusal()
    if line is None:
        return None
    body = json.dumps({"__type": REFUSAL_CODE, "message": line}).encode()
    start_response(
        "400 Bad Request",
        [
            ("Content-Type", "application/x-amz-json-1.0"),
            ("Content-Length", str(len(body))),
            ("X-Skymarshal", "memory"),
        ],
    )
    return [body]
