"""Each workflow Lambda handler's peak Python allocation against its configured memory (issue 32's goal: ≤ 50 %).

    python -m bench.handler_memory [--load-factor 0.78]

The synthesized state machine runs in process (moto's interpreter, an in-process account seeded at the load
factor), and each handler is invoked in process under tracemalloc, one invocation at a time (a lock: the
Map's seven agents take turns, so no two invocations' allocations mix): tracing starts as the handler is
called and its peak is read as it returns. Runs: the EY123 mechanical failure (rank 1 approved) and the AUH fog
closure with its cancellation baseline selected (every flight of the window cancelled, every passenger rebooked:
the most Execute and Learn write), both executed. The figure is an upper bound of what the function holds: moto answers the handler's
requests in the same thread in process, so its work for each request is counted too. The configured memory
is each function's MemorySize in the synthesized template.
"""

from __future__ import annotations

import argparse
import json
import os
import threading
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

SHARE_GOAL = 0.50
HEAVIEST = "network:baseline"  # a network run executes its cancellation baseline: the most rows Execute writes
RUNS = (
    "Flight EY123 on January 20th had a mechanical failure",
    "Fog: no movements at Abu Dhabi between 03:00 and 06:00 UTC on 21 January 2027",
)


class Profiler:
    """registry().wrap: one invocation at a time, each under tracemalloc; the largest peak per function."""

    def __init__(self) -> None:
        self.peaks: dict[str, int] = {}
        self.calls: dict[str, int] = {}
        self.lock = threading.Lock()

    def __call__(self, name: str, handler: Callable, event: dict) -> Any:
        from skymarshal.local.workflow import _Context

        with self.lock:
            tracemalloc.start()
            try:
                return handler(event, _Context(name))
            finally:
                peak = tracemalloc.get_traced_memory()[1]
                tracemalloc.stop()
                self.peaks[name] = max(self.peaks.get(name, 0), peak)
                self.calls[name] = self.calls.get(name, 0) + 1


def configured_memory(template_path) -> dict[str, int]:
    resources = json.loads(template_path.read_text())["Resources"]
    return {
        logical: int(r["Properties"].get("MemorySize", 128))
        for logical, r in resources.items()
        if r["Type"] == "AWS::Lambda::Function"
    }


def _drive(client, name: str, timeout_s: float = 3600) -> str:
    from skymarshal.workflow.models import ApprovalDecision

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        status = client.describe(name)["status"]
        if status != "RUNNING":
            return str(status)
        pending = client.pending(name)
        if pending:
            ranked = [r.get("scenario_id") for r in json.loads(pending.get("decision") or "{}").get("ranked", [])]
            heaviest = HEAVIEST if HEAVIEST in ranked else None  # else rank 1
            client.decide(
                name,
                ApprovalDecision(
                    action="select" if heaviest else "approve",
                    scenario_id=heaviest,
                    decided_by="Memory Bench",
                    comment="the heaviest execution: every flight of the window cancelled, every passenger rebooked"
                    if heaviest
                    else None,
                ),
            )
        time.sleep(0.5)
    raise TimeoutError(f"{name} still running after {timeout_s:.0f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--load-factor", type=float, default=0.78)
    args = parser.parse_args(argv)
    os.environ.setdefault("SKYMARSHAL_LLM_PROVIDER", "offline")
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")  # the figures, not a log line per step
    os.environ.setdefault("SKYMARSHAL_AGENT_DEADLINE_SECONDS", "600")  # traced agents take turns: no deadline race
    from skymarshal.data.generator import GeneratorConfig, generate
    from skymarshal.local import workflow as local_workflow
    from skymarshal.local.emulator import in_process_account
    from skymarshal.local.template import workflow_template

    template = workflow_template(echo=lambda m: None)
    configured = configured_memory(template)
    profiler = Profiler()
    airline = generate(GeneratorConfig(load_factor=args.load_factor))
    statuses = []
    with in_process_account(airline) as account:
        del airline
        client = local_workflow.local_client(account, echo=lambda m: None)
        local_workflow.registry().wrap = profiler
        try:
            for i, prompt in enumerate(RUNS):
                started = client.start(prompt, disruption_id=f"handler-memory-{int(time.time())}-{i}", source="bench")
                statuses.append(_drive(client, started["execution_name"]))
        finally:
            local_workflow.registry().wrap = None
    print(
        f"workflow Lambda handlers' peak Python allocation, in process under tracemalloc (load factor "
        f"{args.load_factor:g}; runs: EY123 mechanical, AUH fog closure; {', '.join(statuses).lower()}):"
    )
    print(f"  {'function':44s} {'calls':>5s} {'peak':>10s} {'configured':>11s} {'share':>6s}   goal")
    for name in sorted(profiler.peaks, key=lambda n: -profiler.peaks[n]):
        peak_mb, memory = profiler.peaks[name] / 2**20, configured.get(name, 128)
        share = peak_mb / memory
        print(
            f"  {name:44s} {profiler.calls[name]:5d} {peak_mb:8.1f} MB {memory:8d} MB {share:6.1%}   "
            f"≤ {SHARE_GOAL:.0%} {'met' if share <= SHARE_GOAL else 'not met'}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
