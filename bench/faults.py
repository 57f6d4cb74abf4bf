"""The fixed disruption sequence with a share of AWS calls failing as the services fail (issue 48).

    python -m bench.faults [--rates 0.05,0.2] [--reports 6] [--load-factor 0.1] [--seed 48] [--latency 0.2]
                           [--concurrent 8] [--port 4631]

For each rate: a fresh in-process account (the airline seeded at the load factor), the workflow installed, then the
fault injector (local/faults.py) switched on for every kind — throttling, 500/503, TransactionCanceledException
(conflict), PutEvents with failed entries, a latency spike and a timeout after the write — on DynamoDB, S3, Step
Functions, EventBridge, KMS and SNS. The reports of tests/workflow/test_disruption_sequences.py (the three demos,
a sick captain, an outstation AOG, the AUH fog closure last) run one after another, each approved at rank 1. It
reports: runs executed, escalated, failed; duplicate executions (an executed plan recorded twice: must be 0);
messages stored vs published; audit chains verified; rotation breaks after the sequence (the whole-airline check);
and the faults injected, by kind. CPU heavy (each report is a whole run): a small setting is `--reports 2`.

With `--concurrent N`, each rate also starts N reports at once against `skymarshal local start --faults RATE` on a
fresh home (server mode injects every kind but the timeout after the write, which a WSGI server cannot make), each
approved as it reaches its decision (bench.local_load: every run listed with a final status, every executed run's
audit chain verified, the server's peak memory), then stops that server.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from dataclasses import dataclass, field

from skymarshal.workflow.models import ApprovalDecision

DEMOS = (
    "Flight EY123 on January 20th 2027 had a mechanical failure",
    "EY101 on 21 January 2027 is delayed over four hours and the crew will run out of duty time",
    "Flight EY11 on January 22nd 2027: storm at Heathrow, crosswinds above limits",
)
FOG = "Abu Dhabi airport is closed by fog from 14:00 to 17:00 UTC on January 21st"


@dataclass
class Tally:
    rate: float
    outcomes: Counter = field(default_factory=Counter)  # executed / escalated / rejected / failed / refused
    duplicates: int = 0
    messages_stored: int = 0
    messages_published: int = 0
    swept: int = 0  # of those, published by the outbox sweep a local start runs (an Execute cut short stored them)
    audits_verified: int = 0
    audits: int = 0
    rotation_breaks: int = 0
    faults: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _reports(account, limit: int) -> list[str]:
    """The fixed sequence: the three demos, a sick captain at the hub, an outstation AOG, the fog closure last."""
    from datetime import date

    from boto3.dynamodb.conditions import Key

    from skymarshal.data import schema as s
    from skymarshal.models.operational import Flight

    handle = account.handle()
    flights = sorted(
        (
            Flight.model_validate(r)
            for t in ("B789", "A320", "A321")
            for r in handle.query(s.FLIGHTS, Key("aircraft_type").eq(t), index=s.TYPE_DEPARTURE_INDEX)
        ),
        key=lambda f: f.flight_id,
    )
    days = (date(2027, 1, 21), date(2027, 1, 22))
    ok = [f for f in flights if f.flight_date in days and f.status == "SCHEDULED"]
    hub, away = next(f for f in ok if f.origin == "AUH"), [f for f in ok if f.origin != "AUH"][-1]

    def when(f: Flight) -> str:
        return f"{f.flight_date:%B} {f.flight_date.day}th {f.flight_date.year}"

    sick = f"The captain of {hub.flight_number} on {when(hub)} called in sick two hours before departure"
    aog = f"{away.flight_number} on {when(away)}: aircraft AOG at {away.origin} with a hydraulic leak"
    return [*DEMOS, sick, aog, FOG][:limit]


def _run_one(client, report: str, tally: Tally, index: int) -> str | None:
    """Start, approve rank 1, follow to the end; the outcome counted. The run's name, or None if it never started."""
    name = f"faults-{int(tally.rate * 100)}-{index}"
    try:
        name = client.start(report, disruption_id=name)["execution_name"]
        progress = client.follow(name, timeout_s=1800)
        if progress.awaiting_approval:
            client.decide(name, ApprovalDecision(action="approve", decided_by="Bench Faults", comment="bench"))
            progress = client.follow(name, timeout_s=1800)
    except Exception as exc:  # the harness's own calls meet faults too: counted, never a traceback
        tally.outcomes["harness_error"] += 1
        tally.problems.append(f"{report[:40]}: {type(exc).__name__}: {exc}"[:200])
        return None
    if progress.status != "SUCCEEDED":
        described = client.describe(name)
        refused = described.get("error") == "InvalidDisruption"
        tally.outcomes["refused" if refused else "failed"] += 1
        tally.problems.append(f"{name}: {described.get('error')}: {str(described.get('cause'))[:160]}")
        return name
    outcome = (client.output(name) or {}).get("outcome") or {}
    tally.outcomes[str(outcome.get("status", "unknown"))] += 1
    return name


def _messages(client, names: list[str], tally: Tally) -> None:
    """Messages each executed run stored and how many of their events the bus took (the stored publication)."""
    from skymarshal.workflow.payloads import run_key

    for name in names:
        stored = client.store.get(run_key(name, name, "messages"))
        if not stored:
            continue
        tally.messages_stored += len(stored.get("messages", [])) + 1  # each message and the contact list
        tally.messages_published += int((stored.get("publication") or {}).get("published", 0))


def _duplicates(client, names: list[str]) -> int:
    """Groups of a plan applied more than once (a retried Execute, or a timed-out transaction written again
    without its condition holding): each group's `completed` event counted per execution."""
    from skymarshal.workflow.execution.records import execution_events

    seen = 0
    for name in names:
        completed = Counter(e.group for e in execution_events(name, tables=client.tables) if e.event == "completed")
        seen += sum(1 for n in completed.values() if n > 1)
    return seen


def run_rate(rate: float, args) -> Tally:
    from skymarshal.data.generator import GeneratorConfig, generate
    from skymarshal.data.integrity import check_operation
    from skymarshal.local import fault_hooks
    from skymarshal.local import workflow as local_workflow
    from skymarshal.local.emulator import in_process_account
    from skymarshal.local.faults import FaultPlan, Injector
    from skymarshal.local.runs import sweep_messages

    tally = Tally(rate=rate)
    with in_process_account(generate(GeneratorConfig(load_factor=args.load_factor))) as account:
        client = local_workflow.local_client(account, echo=lambda m: None)  # installs the workflow in the account
        reports = _reports(account, args.reports)
        injector = Injector(FaultPlan(rate=rate, seed=args.seed, latency_s=args.latency))
        fault_hooks.install_in_process(injector)  # on after the set-up: the runs meet the faults, not the seeding
        started = time.monotonic()
        try:
            names = [n for i, r in enumerate(reports) if (n := _run_one(client, r, tally, i)) is not None]
        finally:
            fault_hooks.install_in_process(None)  # the checks below read the account as it is, without faults
        tally.seconds = time.monotonic() - started
        tally.faults = injector.stats()
        tally.swept = sweep_messages(account)["published"]  # as `local start` does after a crash
        _messages(client, names, tally)
        tally.duplicates = _duplicates(client, names)
        for name in names:
            tally.audits += 1
            verification = client.verify(name)
            tally.audits_verified += int(verification.ok)
            if not verification.ok:
                tally.problems.append(f"{name}: audit {[p.code for p in verification.problems]}")
        operation = check_operation(account.handle())  # every tail's rotation and crew chain, whole airline
        tally.rotation_breaks = 0 if operation.intact else len(operation.lines())
    return tally


def run_concurrent(rate: float, args) -> list[str]:
    """`--concurrent N` at `rate` against a local server of its own (see the module docstring): bench.local_load's
    summary lines, or the line saying what failed to start."""
    import os
    import subprocess
    import sys
    import tempfile

    cli = [sys.executable, "-m", "skymarshal.cli", "local"]
    with tempfile.TemporaryDirectory(prefix="skymarshal-faults-") as home:
        env = {**os.environ, "SKYMARSHAL_HOME": home}
        start = [*cli, "start", "--faults", f"{rate:.0%}", "--load-factor", str(args.load_factor)]
        started = subprocess.run([*start, "--port", str(args.port)], env=env, capture_output=True, text=True)
        if started.returncode != 0:
            return [f"local start --faults {rate:.0%} failed: {(started.stdout + started.stderr).strip()[-300:]}"]
        try:
            load = subprocess.run(
                [sys.executable, "-m", "bench.local_load", "--runs", str(args.concurrent), "--timeout", "1800"],
                env={**env, "AWS_ENDPOINT_URL": f"http://127.0.0.1:{args.port}"},
                capture_output=True,
                text=True,
            )
        finally:
            subprocess.run([*cli, "stop"], env=env, capture_output=True, text=True)
    return [line for line in load.stdout.splitlines() if line and not line.startswith("{")]


def _print(tally: Tally) -> None:
    o = tally.outcomes
    print(
        f"faults {tally.rate:.0%}: {sum(o.values())} runs in {tally.seconds:.0f} s — executed {o['executed']}, "
        f"escalated {o['escalated']}, failed {o['failed'] + o['harness_error']}, refused {o['refused']}; "
        f"duplicate executions {tally.duplicates}; messages stored {tally.messages_stored}, published "
        f"{tally.messages_published} ({tally.swept} by the outbox sweep after the runs); audit chains verified {tally.audits_verified}/{tally.audits}; rotation breaks "
        f"{tally.rotation_breaks}"
    )
    print(f"  injected: {json.dumps(tally.faults)}")
    for problem in tally.problems:
        print(f"  - {problem}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rates", default="0.05,0.2", help="shares of AWS calls to fail, comma-separated")
    parser.add_argument("--reports", type=int, default=6, help="how many of the sequence's six reports to run")
    parser.add_argument("--load-factor", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=48)
    parser.add_argument("--latency", type=float, default=0.2, help="seconds of a latency spike or timeout")
    parser.add_argument("--concurrent", type=int, default=0, help="also N reports at once on a faulty local server")
    parser.add_argument("--port", type=int, default=4631, help="that server's port")
    parser.add_argument("--no-sequence", action="store_true", help="only the concurrent runs")
    args = parser.parse_args(argv)
    import os

    os.environ.setdefault("SKYMARSHAL_LLM_PROVIDER", "offline")
    os.environ["SKYMARSHAL_ONE_RUN_PER_FLIGHT"] = "1"
    for rate in (float(r) for r in args.rates.split(",") if r.strip()):
        if not args.no_sequence:
            _print(run_rate(rate, args))
        if args.concurrent:
            print(f"faults {rate:.0%}, {args.concurrent} reports at once on a local server:", flush=True)
            for line in run_concurrent(rate, args):
                print(f"  {line}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
