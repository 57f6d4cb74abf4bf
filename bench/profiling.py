"""`--profile PATH`: a cProfile of every thread of the bench (the Map runs the seven agents in threads).

Each thread's `run` is profiled on its own and the profiles are merged into one pstats file at PATH, kept
outside the repository (`python -m pstats PATH`, or `snakeviz`). The timer is each thread's own CPU time
(`time.thread_time`): with the default wall clock, a thread waiting for a lock or for the GIL counted its
wait as the time of whatever function it was in. Profiled runs are about twice as slow: read the profile
for where the CPU goes, the unprofiled bench for the figures.
"""

from __future__ import annotations

import cProfile
import pstats
import threading
import time
from collections import Counter
from pathlib import Path


class ThreadProfiles:
    def __init__(self) -> None:
        self.profiles: list[cProfile.Profile] = []
        self.main = cProfile.Profile(time.thread_time)
        self._lock = threading.Lock()
        self._original = threading.Thread.run

    def start(self) -> None:
        original, profiles, lock = self._original, self.profiles, self._lock

        def run(thread: threading.Thread) -> None:
            profile = cProfile.Profile(time.thread_time)
            profile.enable()
            try:
                original(thread)
            finally:
                profile.disable()
                with lock:
                    profiles.append(profile)

        threading.Thread.run = run  # type: ignore[method-assign]
        self.main.enable()

    def stop(self, path: Path) -> None:
        self.main.disable()
        threading.Thread.run = self._original  # type: ignore[method-assign]
        stats = pstats.Stats(self.main)
        with self._lock:
            for profile in self.profiles:
                stats.add(profile)
        stats.dump_stats(str(path))
        print(f"profile of every thread written to {path} (python -m pstats {path})")


def _package(file: str, function: str) -> str:
    """Who spent the CPU: our library's subpackage, a site package, the standard library, or C built-ins."""
    if file == "~":
        return "(C built-ins: json, dict, str, zlib …)"
    if "/python/skymarshal/" in file and "site-packages" not in file:
        part = file.split("/python/skymarshal/", 1)[1].split("/")
        return f"skymarshal.{part[0].removesuffix('.py')}" + (
            f".{part[1].removesuffix('.py')}" if len(part) > 2 else ""
        )
    if "site-packages/" in file:
        return file.split("site-packages/", 1)[1].split("/")[0].removesuffix(".py")
    return "python standard library"


def own_time_by_package(path: Path, runs: int, top: int = 14) -> list[str]:
    """Lines: the profile's own (not cumulative) time per package, per run, largest first."""
    stats = pstats.Stats(str(path))
    totals: Counter = Counter()
    for (file, _line, function), (_cc, _nc, tottime, _ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        totals[_package(file, function)] += tottime
    whole = sum(totals.values()) or 1.0
    return [
        f"  {name:44s} {seconds / runs:7.2f} s per run  {100 * seconds / whole:5.1f} %"
        for name, seconds in totals.most_common(top)
    ]
