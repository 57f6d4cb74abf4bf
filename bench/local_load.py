"""N concurrent disruptions against the running local AWS (`skymarshal local start`): nothing lost, memory.

    python -m bench.local_load --runs 25 [--kill-after 60]

Starts N runs at once (as N `POST /api/disruptions` would: the API calls the same `WorkflowClient.start`),
approves each as it reaches the duty manager, waits for all to end, then checks that none was lost: every
run is listed with a final status, every executed run's audit chain verifies (hash chain, KMS-signed head,
the artifacts it names: round checkpoints included). The server's resident memory is sampled
each second. With --kill-after S the server is killed (SIGKILL) S seconds in and started again; the runs
it was executing come back ABORTED and are resumed, then checked the same way.
"""

from __future__ import annotations

import argparse
import os
import signal
import threading
import time
from datetime import date

KINDS = ("had a mechanical failure", "had a hydraulic fault", "has a crew shortage")


def _flight_numbers(day: date) -> list[str]:
    from skymarshal.data.generator import GeneratorConfig, generate
    from skymarshal.data.schema import FLIGHTS

    airline = generate(GeneratorConfig(load_factor=0.05))  # the schedule does not depend on the load factor
    return sorted({f.flight_number for f in airline.tables[FLIGHTS] if f.flight_date == day})


class Sampler(threading.Thread):
    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.peak, self.stop = pid, 0, threading.Event()

    def run(self) -> None:
        from skymarshal.local.control import rss_mb

        while not self.stop.wait(1.0):
            self.peak = max(self.peak, rss_mb(self.pid) or 0)


def _drive(client, names: list[str], deadline: float) -> None:
    from skymarshal.workflow.models import ApprovalDecision

    open_runs = set(names)
    while open_runs and time.monotonic() < deadline:
        for name in sorted(open_runs):
            status = client.describe(name)["status"]
            if status != "RUNNING":
                open_runs.discard(name)
            elif client.pending(name):
                client.decide(name, ApprovalDecision(action="approve", decided_by="Load Bench"))
        time.sleep(1.0)
    if open_runs:
        raise TimeoutError(f"{len(open_runs)} runs still running: {sorted(open_runs)[:5]}")


def _outcomes(client, names: list[str], statuses: dict[str, str]) -> dict[str, int]:
    """How the finished runs ended (executed, rejected, escalated), and how many were decided again after Execute
    refused the approved plan because the operation had changed (another of the runs took its spare)."""
    tally: dict[str, int] = {}
    for name in names:
        output = (client.output(name) or {}) if statuses[name] == "SUCCEEDED" else {}
        key = (output.get("outcome") or {}).get("status") or statuses[name].lower()
        tally[key] = tally.get(key, 0) + 1
        if ((output.get("execution") or {}).get("attempt") or 1) > 1:
            tally["decided again"] = tally.get("decided again", 0) + 1
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=25)
    parser.add_argument("--day", type=date.fromisoformat, default=date(2027, 1, 20))
    parser.add_argument("--kill-after", type=float, default=0.0)
    parser.add_argument("--timeout", type=float, default=3600)
    args = parser.parse_args(argv)
    os.environ.setdefault("SKYMARSHAL_LLM_PROVIDER", "offline")
    from skymarshal.local import control
    from skymarshal.local.emulator import LocalAccount, use_fake_credentials
    from skymarshal.local.workflow import local_client

    state = control.running()
    if state is None:
        print("local AWS is not running: start it with `skymarshal local start`")
        return 1
    use_fake_credentials()
    numbers = _flight_numbers(args.day)
    client = local_client(LocalAccount(endpoint_url=state.endpoint), echo=lambda m: None)
    sampler = Sampler(state.pid)
    sampler.start()
    stamp = int(time.time())
    began = time.monotonic()
    names = []
    for i in range(args.runs):
        prompt = f"Flight {numbers[(i * 7) % len(numbers)]} on {args.day:%B} {args.day.day} {KINDS[i % len(KINDS)]}"
        names.append(client.start(prompt, disruption_id=f"load-{stamp}-{i:02d}", source="bench")["execution_name"])
    print(f"{len(names)} runs started in {time.monotonic() - began:.1f} s", flush=True)
    deadline = time.monotonic() + args.timeout
    if args.kill_after:
        time.sleep(args.kill_after)
        sampler.stop.set()
        os.kill(state.pid, signal.SIGKILL)
        killed_at = time.monotonic()
        print(f"killed the server (pid {state.pid}) {args.kill_after:.0f} s in", flush=True)
        state = control.start(echo=print)
        print(f"back in {time.monotonic() - killed_at:.1f} s", flush=True)
        client = local_client(LocalAccount(endpoint_url=state.endpoint), echo=lambda m: None)
        sampler = Sampler(state.pid)
        sampler.start()
        for i, name in enumerate(names):
            if client.describe(name)["status"] == "ABORTED":
                names[i] = client.resume(name)["execution_name"]
    _drive(client, names, deadline)
    sampler.stop.set()
    elapsed = time.monotonic() - began
    listed = {e["name"]: e["status"] for e in client.executions(limit=1000)}
    statuses = {name: listed.get(name, "LOST") for name in names}
    problems = []
    for name in names:
        if statuses[name] == "LOST":
            problems.append(f"{name}: not listed")
            continue
        result = client.verify(name)
        if statuses[name] == "SUCCEEDED" and not result.ok:
            problems.append(f"{name}: audit chain does not verify: {[p.code for p in result.problems]}")
    tally: dict[str, int] = {}
    for status in statuses.values():
        tally[status] = tally.get(status, 0) + 1
    print(f"{args.runs} concurrent runs in {elapsed:.0f} s: {tally}; server peak RSS {sampler.peak} MB")
    print(f"  outcomes {_outcomes(client, names, statuses)}")
    for problem in problems:
        print("  LOST/BROKEN", problem)
    print("nothing lost" if not problems and "LOST" not in tally else f"{len(problems)} problems")
    return 0 if not problems else 1


if __name__ == "__main__":
    raise SystemExit(main())
