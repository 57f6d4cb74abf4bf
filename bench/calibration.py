"""How fast this machine's CPU is right now, printed beside the figures: the shared 2-core machine's speed
varies by half again from hour to hour (on 2026-11-26 a loop of 20 million additions at module level took 1.9 s
in one hour and 2.9 s in the next), which moves every wall-clock figure with it.

`reference_seconds()`: the best of three runs of a fixed pure-Python loop (20 million additions).
"""

from __future__ import annotations

import time


def reference_seconds(runs: int = 3, n: int = 20_000_000) -> float:
    best = float("inf")
    for _ in range(runs):
        started, total = time.perf_counter(), 0
        for i in range(n):
            total += i
        best = min(best, time.perf_counter() - started)
    return best


def describe() -> str:
    return f"this machine's speed now: the reference loop (20 M additions) in {reference_seconds():.2f} s"
