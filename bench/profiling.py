"""`--profile PATH`: a cProfile of every thread of the bench (the Map runs the seven agents in threads).

Each thread's `run` is profiled on its own and the profiles are merged into one pstats file at PATH, kept
outside the repository (`python -m pstats PATH`, or `snakeviz`). Profiled runs are about twice as slow:
read the profile for where the CPU goes, the unprofiled bench for the figures. Lock waits show as the
time of `acquire` and of `moto_speedups._call_action` (the DynamoDB lock): those are not work.
"""

from __future__ import annotations

import cProfile
import pstats
import threading
from pathlib import Path


class ThreadProfiles:
    def __init__(self) -> None:
        self.profiles: list[cProfile.Profile] = []
        self.main = cProfile.Profile()
        self._lock = threading.Lock()
        self._original = threading.Thread.run

    def start(self) -> None:
        original, profiles, lock = self._original, self.profiles, self._lock

        def run(thread: threading.Thread) -> None:
            profile = cProfile.Profile()
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
