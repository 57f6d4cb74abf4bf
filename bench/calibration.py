"""How fast this machine is right now, printed beside the figures. The shared 2-core machine's speed varies
from hour to hour: on 2026-11-26 the local server's own CPU for the same first start went from 24.8 s to 37 s
within two hours, while a tight arithmetic loop barely moved, so the reference is a piece of our own work of the
same kind (allocation-heavy Python: rows, dicts, pydantic models): generating the airline at load factor 0.05.
"""

from __future__ import annotations

import time
from collections.abc import Callable


def _generate_small_airline() -> None:
    from skymarshal.data.generator import GeneratorConfig, generate

    generate(GeneratorConfig(load_factor=0.05))


def reference_seconds(workload: Callable[[], object] = _generate_small_airline) -> float:
    started = time.perf_counter()
    workload()
    return time.perf_counter() - started


def describe(workload: Callable[[], object] = _generate_small_airline) -> str:
    seconds = reference_seconds(workload)
    return f"this machine's speed now: the reference (the airline generated at load factor 0.05) in {seconds:.2f} s"
