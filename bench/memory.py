"""Local AWS's memory, run by run, beside issue 32's goals: figures, not assertions.

    python -m bench.memory [--load-factor 0.78] [--runs 50] [--concurrent 8] [--only one,fog] [--no-handlers]

Each case starts its own `skymarshal local start` in a fresh SKYMARSHAL_HOME (the seeded airline cached once,
under SKYMARSHAL_SEED_CACHE or a temporary folder), drives the runs as a duty manager approving rank 1 would,
and reads the server's peak resident memory (VmHWM, reset once the server is ready, and sampled each 0.2 s):
  one      one disruption (EY123, mechanical) executed;
  eight    eight disruptions on eight flights started at once, each executed;
  sequence N disruptions one after another: the memory after each, the last against the first (goal: within 20 %);
  fog      the AUH fog closure ("no movements at Abu Dhabi 03:00-06:00 UTC on 21 January 2027") executed.
Then each workflow Lambda handler's peak Python allocation (bench/handler_memory.py) against its configured memory.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path

from .local_start import free_port

SERVER_GOAL_MB = 2048
SEQUENCE_GROWTH_GOAL = 0.20
DAY = date(2027, 1, 20)
DEMO = "Flight EY123 on January 20th had a mechanical failure"
FOG = "Fog: no movements at Abu Dhabi between 03:00 and 06:00 UTC on 21 January 2027"
KINDS = ("had a mechanical failure", "had a hydraulic fault", "has a crew shortage")
CASES = ("one", "eight", "sequence", "fog")


class Peak(threading.Thread):
    """The server's peak resident memory from now on: VmHWM reset through clear_refs where Linux allows it,
    and the samples taken each 0.2 s in any case (the larger of the two counts)."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.sampled, self.done = pid, 0, threading.Event()
        with contextlib.suppress(OSError):
            Path(f"/proc/{pid}/clear_refs").write_text("5")

    def run(self) -> None:
        from skymarshal.local.control import rss_mb

        while not self.done.wait(0.2):
            self.sampled = max(self.sampled, rss_mb(self.pid) or 0)

    def stop(self) -> int:
        from skymarshal.local.memory_guard import memory

        self.done.set()
        self.join()
        return max(self.sampled, memory(self.pid).peak_mb or 0)


@contextlib.contextmanager
def server(load_factor: float, seeds: Path) -> Iterator:
    """A local server of its own (fresh home, free port), stopped at the end; yields its state."""
    from skymarshal.local import control

    with tempfile.TemporaryDirectory(prefix="skymarshal-bench-memory-") as home:
        os.environ["SKYMARSHAL_HOME"], os.environ["SKYMARSHAL_SEED_CACHE"] = home, str(seeds)
        state = control.start(port=free_port(), load_factor=load_factor, echo=lambda m: None, timeout_s=1800)
        try:
            yield state
        finally:
            control.stop(echo=lambda m: None)


def _client(state):
    from skymarshal.local.emulator import LocalAccount, use_fake_credentials
    from skymarshal.local.workflow import local_client

    use_fake_credentials()
    return local_client(LocalAccount(endpoint_url=state.endpoint), echo=lambda m: None)


def _prompts(count: int) -> list[str]:
    from .local_load import _flight_numbers

    numbers = _flight_numbers(DAY)
    return [f"Flight {numbers[(i * 7) % len(numbers)]} on January 20 {KINDS[i % len(KINDS)]}" for i in range(count)]


def _run(client, prompts: list[str], tag: str, timeout_s: float = 3600) -> dict[str, str]:
    """Start the runs at once, approve each at the duty manager, wait for all; their final statuses."""
    from .local_load import _drive

    stamp = int(time.time())
    names = [
        client.start(p, disruption_id=f"mem-{tag}-{stamp}-{i:02d}", source="bench")["execution_name"]
        for i, p in enumerate(prompts)
    ]
    _drive(client, names, time.monotonic() + timeout_s)
    return {name: client.describe(name)["status"] for name in names}


def _row(figure: str, value: str, goal: str, met: bool | None) -> str:
    verdict = "" if met is None else ("met" if met else "not met")
    return f"  {figure:52s} {value:>26s}   {goal:22s} {verdict}"


def _peak_case(state, prompts: list[str], tag: str) -> tuple[int, int, dict[str, str]]:
    from skymarshal.local.control import rss_mb

    ready = rss_mb(state.pid) or 0
    peak = Peak(state.pid)
    peak.start()
    statuses = _run(_client(state), prompts, tag)
    return ready, peak.stop(), statuses


def _summary(statuses: dict[str, str]) -> str:
    tally: dict[str, int] = {}
    for status in statuses.values():
        tally[status] = tally.get(status, 0) + 1
    return ", ".join(f"{n} {s.lower()}" for s, n in sorted(tally.items()))


def case_peak(label: str, prompts: list[str], tag: str, load_factor: float, seeds: Path) -> str:
    with server(load_factor, seeds) as state:
        ready, peak, statuses = _peak_case(state, prompts, tag)
    return _row(
        f"{label} ({_summary(statuses)})",
        f"{peak:,} MB (ready {ready:,})",
        f"≤ {SERVER_GOAL_MB / 1024:g} GB",
        peak <= SERVER_GOAL_MB,
    )


def case_sequence(runs: int, load_factor: float, seeds: Path, echo: Callable[[str], None]) -> list[str]:
    from skymarshal.local.control import rss_mb

    after: list[int] = []
    with server(load_factor, seeds) as state:
        client, ready = _client(state), rss_mb(state.pid) or 0
        peak = Peak(state.pid)
        peak.start()
        statuses: dict[str, str] = {}
        for i, prompt in enumerate(_prompts(runs)):
            statuses.update(_run(client, [prompt], f"seq{i:02d}"))
            after.append(rss_mb(state.pid) or 0)
            echo(f"    run {i + 1}/{runs}: {after[-1]:,} MB")
        top = peak.stop()
    growth = (after[-1] - after[0]) / after[0] if after and after[0] else 0.0
    return [
        _row(
            f"{runs} runs in sequence: after the last vs the first",
            f"{after[-1]:,} vs {after[0]:,} MB ({growth:+.0%})",
            f"≤ +{SEQUENCE_GROWTH_GOAL:.0%}",
            growth <= SEQUENCE_GROWTH_GOAL,
        ),
        _row(
            f"  their peak ({_summary(statuses)}; ready {ready:,} MB)",
            f"{top:,} MB",
            f"≤ {SERVER_GOAL_MB / 1024:g} GB",
            top <= SERVER_GOAL_MB,
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--load-factor", type=float, default=0.78)
    parser.add_argument("--runs", type=int, default=50, help="runs in sequence (issue 32: 50)")
    parser.add_argument("--concurrent", type=int, default=8)
    parser.add_argument("--only", default=",".join(CASES), help=f"comma-separated, of {', '.join(CASES)}")
    parser.add_argument("--no-handlers", action="store_true", help="skip the Lambda handlers' allocations")
    args = parser.parse_args(argv)
    os.environ.setdefault("SKYMARSHAL_LLM_PROVIDER", "offline")
    only = {c.strip() for c in args.only.split(",") if c.strip()}
    rows: list[str] = []
    echo = lambda line: print(line, flush=True)  # noqa: E731
    with tempfile.TemporaryDirectory(prefix="skymarshal-bench-seeds-") as tmp:
        seeds = Path(os.environ.get("SKYMARSHAL_SEED_CACHE") or tmp)
        home = os.environ.get("SKYMARSHAL_HOME")
        try:
            if "one" in only:
                echo("  one run ...")
                rows.append(case_peak("server peak, one run", [DEMO], "one", args.load_factor, seeds))
            if "eight" in only:
                echo(f"  {args.concurrent} concurrent runs ...")
                prompts = _prompts(args.concurrent)
                rows.append(
                    case_peak(f"server peak, {args.concurrent} at once", prompts, "eight", args.load_factor, seeds)
                )
            if "sequence" in only:
                echo(f"  {args.runs} runs in sequence ...")
                rows += case_sequence(args.runs, args.load_factor, seeds, echo)
            if "fog" in only:
                echo("  the AUH fog closure ...")
                rows.append(
                    case_peak("server peak, the AUH fog closure executed", [FOG], "fog", args.load_factor, seeds)
                )
        finally:
            if home is None:
                os.environ.pop("SKYMARSHAL_HOME", None)
            else:
                os.environ["SKYMARSHAL_HOME"] = home
    from .calibration import describe

    print(f"local AWS memory at load factor {args.load_factor:g} ({os.cpu_count()} cores; {describe()}):")
    print(f"  {'figure':52s} {'measured':>26s}   {'goal':22s}")
    print("\n".join(rows))
    if not args.no_handlers:
        from .handler_memory import main as handlers

        return handlers(["--load-factor", str(args.load_factor)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
