"""Lambda cold start, the part that is ours: each function's handler module imported in a fresh interpreter
(`python -X importtime`), beside the goal of issue 21 (≤ 1.5 s each). The deps layer's unzipped size is printed
by `make layer` (infra/layers.py) beside its budget.

    python -m bench.cold_start [--runs 3]

Figures, not assertions: the median of `--runs` fresh imports per handler and the five packages the slowest handler's
import spends most in (own import time summed per top-level package, from the interpreter's own timings).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FUNCTIONS = ROOT / "functions"
GOAL_S = 1.5


def handlers() -> list[Path]:
    """Every Lambda entry point the CDK app deploys from functions/ (the streaming function is a shell script)."""
    return sorted(p for p in FUNCTIONS.glob("*/handler.py"))


def import_timings(handler: Path) -> dict[str, tuple[int, int]]:
    """(own, cumulative) import microseconds per module, importing `handler` in a fresh interpreter."""
    # Lambda sets the region; handlers build their clients at import (no request is made)
    env = {
        "AWS_DEFAULT_REGION": "us-east-1",
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(handler.parent), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import handler"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=handler.parent,
    )
    timings: dict[str, tuple[int, int]] = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        own, cumulative, name = (part.strip() for part in line.removeprefix("import time:").split("|"))
        timings[name] = (int(own), int(cumulative))
    return timings


def by_package(timings: dict[str, tuple[int, int]]) -> list[tuple[int, str]]:
    """Own import microseconds summed per top-level package, largest first."""
    totals: dict[str, int] = {}
    for module, (own, _) in timings.items():
        package = module.split(".")[0]
        totals[package] = totals.get(package, 0) + own
    return sorted(((us, package) for package, us in totals.items()), reverse=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="fresh imports per handler (the median is shown)")
    args = parser.parse_args(argv)
    print(f"handler import time (median of {args.runs} fresh interpreters; goal ≤ {GOAL_S} s each)")
    slowest: tuple[float, str, dict[str, tuple[int, int]]] = (0.0, "", {})
    for handler in handlers():
        runs = [import_timings(handler) for _ in range(args.runs)]
        seconds = statistics.median(r["handler"][1] for r in runs) / 1e6
        verdict = "met" if seconds <= GOAL_S else "over"
        print(f"  {handler.parent.name:<18} {seconds:5.2f} s  {verdict}")
        if seconds > slowest[0]:
            slowest = (seconds, handler.parent.name, runs[-1])
    seconds, name, timings = slowest
    top = [(us, package) for us, package in by_package(timings) if package != "handler"][:5]
    print(f"  where {name}'s import goes: " + ", ".join(f"{package} {us / 1e6:.2f} s" for us, package in top))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
