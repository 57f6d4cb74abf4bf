"""Disruptions end to end through the synthesized state machine on local AWS: figures, not assertions.

Each run: start → both agent rounds → arbitration → approval (a bench duty manager approves rank 1) →
execution → learning. Prints p50/p95 of the whole run and of each phase (from the execution history),
and DynamoDB requests per agent per round, each beside its goal (issue 21). `--llm-latency 2` gives every
agent and the arbitrator a fake chat model that takes 2 s per call: a round then costs about one agent's
time, not seven (the Map runs them at once). `--profile PATH` writes a cProfile of every thread (bench/profiling.py).
"""

from __future__ import annotations

import argparse
import threading
import time
from collections import Counter, defaultdict
from datetime import date
from pathlib import Path

PHASES = (
    "Validate disruption",
    "Initial round: seven agents",
    "Collate initial round",
    "Revision round: seven agents",
    "Collate revision round",
    "Debate round: seven agents",  # only the runs that debated (rounds 3 to 5 timed as one)
    "Collate debate round",
    "Arbitrate",
    "Execute plan",
    "Learn and record outcome",
)
# Issue 21's goals, offline on a 2-core machine: (p50, p95) in seconds; None where the issue sets none.
GOALS: dict[str, tuple[float | None, float | None]] = {
    "whole run (excl. the human)": (3.0, 5.0),
    "  one agent's task (initial)": (0.3, None),
    "Arbitrate": (1.0, None),
}
REQUESTS_PER_ROUND_GOAL = 8
CRITICAL_PATH_GOAL = 2.5
POLL_S = 0.5  # the bench watching a run costs the run: each poll is two requests to the emulator it shares a GIL with
KINDS = ("had a mechanical failure", "has a crew member out of duty time", "is affected by weather at the destination")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def _sleepy_model(latency: float):
    """A chat model that answers nothing useful after `latency` seconds: agents fall back to their offline path."""
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    class SleepyChatModel(FakeListChatModel):
        def _call(self, *args, **kwargs):
            time.sleep(latency)
            return "(bench: no answer)"

        def with_structured_output(self, schema, **kwargs):
            def fail(*_args, **_kwargs):
                time.sleep(latency)
                raise ValueError("bench model gives no structured output")

            from langchain_core.runnables import RunnableLambda

            return RunnableLambda(fail)

        def bind_tools(self, tools, **kwargs):
            return self

    return lambda *args, **kwargs: SleepyChatModel(responses=["(bench)"])


def _goal(phase: str) -> str:
    p50, p95 = GOALS.get(phase, (None, None))
    if p50 is None and p95 is None:
        return ""
    return " / ".join(f"≤ {g:g} s" if g is not None else "—" for g in (p50, p95))


def _count_calls() -> Counter:
    """DynamoDB requests per agent, counted where every agent read goes through: the data handle."""
    from skymarshal.data.access import DataHandle

    counts: Counter = Counter()
    lock = threading.Lock()
    original = DataHandle._count

    def counted(self, operation: str, table: str) -> None:
        original(self, operation, table)
        if self.agent:
            with lock:
                counts[self.agent] += 1

    DataHandle._count = counted
    return counts


def _state_seconds(client, name: str) -> tuple[dict[str, float], int, float]:
    """Each top-level state's time from its first entry to its last exit (a Map: the whole round), how many
    agent rounds the run had (2, or 3 to 5 with a debate), and the rounds' slack: each round's time beyond
    its slowest agent's task, summed (what the run would save were a round as fast as its slowest agent)."""
    pages = client.sfn.get_paginator("get_execution_history").paginate(executionArn=client.execution_arn(name))
    entered, seconds, rounds = {}, {}, 0
    slack, round_entered, slowest, task_entered = 0.0, None, 0.0, {}
    for event in (e for page in pages for e in page["events"]):
        details = event.get("stateEnteredEventDetails") or event.get("stateExitedEventDetails") or {}
        state, at = details.get("name", ""), event["timestamp"]
        if event["type"] == "MapStateEntered" and state.endswith("seven agents"):
            rounds, round_entered, slowest = rounds + 1, at, 0.0
        elif event["type"] == "MapStateExited" and state.endswith("seven agents") and round_entered:
            slack += (at - round_entered).total_seconds() - slowest
        elif event["type"] == "TaskStateEntered" and " agent (" in state:
            task_entered[state] = at
        elif event["type"] == "TaskStateExited" and state in task_entered:
            slowest = max(slowest, (at - task_entered.pop(state)).total_seconds())
        if event["type"].endswith("StateEntered"):
            entered.setdefault(state, at)
        elif event["type"].endswith("StateExited") and state in entered:
            seconds[state] = (at - entered[state]).total_seconds()
    return seconds, rounds, slack


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--llm-latency", type=float, default=0.0, help="seconds per fake LLM call (0: offline)")
    parser.add_argument("--load-factor", type=float, default=0.3, help="passenger volume of the generated airline")
    parser.add_argument("--scale", type=int, default=1, help="network copies: 1 ≈ 170 flights a day, 4 ≈ 680")
    parser.add_argument("--day", type=date.fromisoformat, default=date(2027, 1, 20))
    parser.add_argument("--profile", type=Path, help="write a cProfile of every thread here (outside the repo)")
    args = parser.parse_args(argv)

    import os

    os.environ["SKYMARSHAL_LLM_PROVIDER"] = "offline"
    from skymarshal.data.generator import GeneratorConfig, generate
    from skymarshal.data.schema import FLIGHTS
    from skymarshal.llm import provider
    from skymarshal.local import memory_guard
    from skymarshal.local import workflow as local_workflow
    from skymarshal.local.emulator import in_process_account
    from skymarshal.local.template import workflow_template
    from skymarshal.workflow.models import ApprovalDecision

    if args.llm_latency > 0:
        provider.chat_model = _sleepy_model(args.llm_latency)
    calls = _count_calls()
    print(f"generating and seeding the airline (load factor {args.load_factor}, scale {args.scale}) …", flush=True)
    airline = generate(GeneratorConfig(load_factor=args.load_factor, scale=args.scale))
    per_day = sum(1 for f in airline.tables[FLIGHTS] if f.flight_date == args.day)
    print(f"{per_day} flights on {args.day}, {sum(airline.counts().values()):,} rows", flush=True)
    numbers = sorted({f.flight_number for f in airline.tables[FLIGHTS] if f.flight_date == args.day})
    with in_process_account(airline) as account:
        # as the local server does once seeded (server.py): the airline's rows out of the collector's sight, so a
        # full collection walking them does not land inside whichever step is running
        memory_guard.freeze_seeded()
        local_workflow.install(account, workflow_template())
        client = local_workflow.local_client(account)
        # A first run imports each function's handler (as a Lambda cold start would) and fills the
        # process's caches: timed apart, so the figures are those of warm functions.
        warm_started = time.monotonic()
        warm = client.start(
            f"Flight {numbers[-1]} on {args.day:%B} {args.day.day} {KINDS[0]}",
            disruption_id=f"bench-warm-{int(time.time())}",
            source="bench",
        )["execution_name"]
        client.follow(warm, timeout_s=900, poll_s=POLL_S)
        print(f"  warm-up run (cold functions, not counted): {time.monotonic() - warm_started:.1f} s", flush=True)
        calls.clear()  # the requests of the runs, not of the set-up or the warm-up
        profiles = None
        if args.profile:
            from .profiling import ThreadProfiles

            profiles = ThreadProfiles()
            profiles.start()
        totals, phases, outcomes, rounds = [], defaultdict(list), Counter(), 0
        by_agent: defaultdict[str, list[float]] = defaultdict(list)
        over_critical: list[float] = []  # whole run ÷ its critical path (each round as fast as its slowest agent)
        for i in range(args.runs):
            prompt = f"Flight {numbers[(i * 7) % len(numbers)]} on {args.day:%B} {args.day.day} {KINDS[i % len(KINDS)]}"
            started = time.monotonic()
            name = client.start(prompt, disruption_id=f"bench-{i:02d}-{int(time.time())}", source="bench")[
                "execution_name"
            ]
            progress = client.follow(name, timeout_s=900, poll_s=POLL_S)
            waiting = 0.0
            if progress.awaiting_approval:
                waiting_from = time.monotonic()
                client.decide(name, ApprovalDecision(action="approve", decided_by="Bench Duty Manager"))
                waiting = time.monotonic() - waiting_from
                progress = client.follow(name, timeout_s=900, poll_s=POLL_S)
            totals.append(time.monotonic() - started - waiting)
            output = client.output(name) or {}
            outcomes[(output.get("outcome") or {}).get("status") or client.describe(name).get("error") or "?"] += 1
            state_seconds, run_rounds, slack = _state_seconds(client, name)
            rounds += run_rounds
            over_critical.append(totals[-1] / max(totals[-1] - slack, 1e-6))
            for state, seconds in state_seconds.items():
                if state in PHASES:
                    phases[state].append(seconds)
                for phase in ("initial", "revision"):  # each agent's own task, to compare with its round
                    if state.endswith(f" agent ({phase})"):
                        phases[f"  one agent's task ({phase})"].append(seconds)
                        by_agent[f"{state.removesuffix(f' agent ({phase})')} ({phase})"].append(seconds)
            print(f"  {i + 1:2d}/{args.runs} {totals[-1]:6.1f} s  {prompt}", flush=True)
        if profiles:
            profiles.stop(args.profile)
            from .profiling import own_time_by_package

            print("CPU by package (profiled, every thread's own CPU time; about twice the unprofiled figures):")
            print("\n".join(own_time_by_package(args.profile, args.runs)))
    from .calibration import describe

    print(
        f"\n{args.runs} disruptions end to end (llm latency {args.llm_latency:g} s per call): outcomes {dict(outcomes)}"
        f"; {describe()}"
    )
    print(f"{'phase':32s} {'p50 s':>8s} {'p95 s':>8s}   goal (p50 / p95)")
    rows = (
        ("whole run (excl. the human)",)
        + PHASES[:2]
        + ("  one agent's task (initial)",)
        + PHASES[2:4]
        + ("  one agent's task (revision)",)
        + PHASES[4:]
    )
    debated = len(phases.get("Debate round: seven agents", []))
    for phase in rows:
        values = totals if phase.startswith("whole run") else phases.get(phase, [])
        print(f"{phase:32s} {_percentile(values, 0.5):8.2f} {_percentile(values, 0.95):8.2f}   {_goal(phase)}")
    print(
        f"whole run ÷ critical path            {_percentile(over_critical, 0.5):8.2f} {_percentile(over_critical, 0.95):8.2f}"
        f"   ≤ {CRITICAL_PATH_GOAL:g} (with --llm-latency 2; a round's slowest agent is its critical path)"
    )
    print("\neach agent's task, p50 / p95 s (the Map waits for the slowest; seven share two cores):")
    for name, values in sorted(by_agent.items(), key=lambda kv: -_percentile(kv[1], 0.5)):
        print(f"  {name:32s} {_percentile(values, 0.5):6.2f} {_percentile(values, 0.95):6.2f}")
    print(
        f"\nDynamoDB requests per agent per round ({rounds} rounds in all, {debated} run(s) debated; "
        f"goal ≤ {REQUESTS_PER_ROUND_GOAL}):"
    )
    for agent, n in sorted(calls.items()):
        per_round = n / max(rounds, 1)
        mark = "ok" if per_round <= REQUESTS_PER_ROUND_GOAL else "over"
        print(f"  {agent:17s} {per_round:7.1f}   {mark}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
