"""The network bench: airport disruptions at AUH through the network planner, offline: figures, not assertions.

`python -m bench.network [--only NAME ...] [--seconds S] [--json] [--workflow]`. One emulated account is seeded once (small
load factor, as the tests). Each case: the report read into a disruption and its what-if overlay
(intake.airport_facts), then scope → plans (the optimizer once per objective and rating group) → crewability →
validation (network.validation). Printed per case: flights affected and inheriting, seconds per step,
optimizer seconds, and for the recommended plan (the cheapest valid one) its cost, delay minutes, cancellations,
passengers re-accommodated, reserves called, and illegal flights (rejections of the plans kept: must be 0).
`--workflow`: each case also runs end to end through the synthesized state machine, offline (Validate → Arbitrate
with the planner sized to the arbitrator's deadline → the approval request), then is rejected: the whole run's
seconds to the approval and each state's. Exit 0 whatever the figures (1 only when the bench cannot run).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

PHASES = ("Validate", "Initial round", "Revision round", "Debate round", "Arbitrate")  # the states timed
NOW = datetime(2027, 1, 15, 12, tzinfo=UTC)  # before the synthetic airline's window: every day is ahead
CASES: dict[str, str] = {
    "closure-3h": "Abu Dhabi airport is closed by fog from 14:00 to 17:00 UTC on January 22nd",
    "capacity-50pct": "Runway works at Abu Dhabi airport cut capacity to 50 % from 12:00 to 18:00 UTC on January 22nd",
    "closure-1h": "Abu Dhabi airport is closed by fog from 14:00 to 15:00 UTC on January 22nd",
    "closure-6h": "Abu Dhabi airport is closed by fog from 12:00 to 18:00 UTC on January 22nd",
    # issue 47: an outstation's cut applies to its declared rate (all airlines), our flights slotted by RBS
    "strike-lhr-50pct": "ATC strike at London Heathrow airport: capacity cut to 50 % from 12:00 to 18:00 UTC on January 22nd",
}


@dataclass
class Result:
    name: str
    report: str
    outcome: str = "?"  # planned / refused / failed
    message: str = ""
    flights_affected: int = 0
    flights_inheriting: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    plans: int = 0
    valid_plans: int = 0
    recommended: str = ""
    cost_usd: float = 0.0
    delay_minutes: int = 0
    cancellations: int = 0
    passengers_reaccommodated: int = 0
    passengers_stranded_overnight: int = 0
    reserves_called: int = 0
    illegal_flights_in_valid_plans: int = 0
    rejected: dict[str, list[str]] = field(default_factory=dict)  # plan id -> its first reasons


def run_case(handle, name: str, report: str, seconds: float) -> Result:
    from skymarshal.intake.airport_facts import InvalidReport, network_report
    from skymarshal.network.objectives import NetworkPlanConfig
    from skymarshal.network.restriction import NetworkInputRefused
    from skymarshal.network.validation import network_plans

    result = Result(name=name, report=report)
    started = time.monotonic()
    try:
        disruption, overlay = network_report(report, handle, NOW)
        read = time.monotonic() - started
        decision = network_plans(
            handle.with_overlay(overlay), disruption, config=NetworkPlanConfig(seconds_per_solve=seconds)
        )
    except (InvalidReport, NetworkInputRefused) as exc:
        result.outcome, result.message = "refused", str(exc)
        return result
    except Exception as exc:  # a bench reports, it does not stop
        result.outcome, result.message = "failed", f"{type(exc).__name__}: {exc}"
        return result
    result.outcome = "planned"
    result.flights_affected, result.flights_inheriting = decision.flights_affected, decision.flights_inheriting
    result.seconds = {"report": round(read, 2), **decision.seconds, "total": round(time.monotonic() - started, 2)}
    result.plans, result.valid_plans = len(decision.plans), len(decision.valid)
    result.illegal_flights_in_valid_plans = sum(len(v.rejections) for v in decision.valid)
    result.rejected = {v.plan.plan_id: [r.message for r in v.rejections[:3]] for v in decision.plans if not v.valid}
    if decision.valid:
        best = decision.valid[0].plan
        t = best.totals
        result.recommended = best.plan_id
        result.cost_usd, result.delay_minutes, result.cancellations = t.cost_usd, t.delay_minutes, t.cancellations
        result.passengers_reaccommodated = t.passengers_reaccommodated
        result.passengers_stranded_overnight = t.passengers_stranded_overnight
        result.reserves_called = t.reserves_called
    return result


def through_workflow(client, name: str, report: str) -> dict[str, Any]:
    """The case through the state machine to its approval request: seconds in all and per state, the plan."""
    from bench.workflow import _state_seconds
    from skymarshal.workflow.models import ApprovalDecision

    run = f"bench-net-{name}-{int(time.time() * 1000) % 10**8}"
    started = time.monotonic()
    client.start(report, disruption_id=run, source="bench")
    progress = client.follow(run, timeout_s=900, poll_s=0.1)
    whole = time.monotonic() - started
    states = _state_seconds(client, run)[0]
    decision = client.decision(run) or {}
    if progress.awaiting_approval:
        client.decide(run, ApprovalDecision(action="reject", decided_by="Network Bench", comment="bench: read only"))
        client.follow(run, timeout_s=900, poll_s=0.1)
    top = (decision.get("ranked") or [{}])[0].get("scenario", {})
    return {
        "awaiting_approval": progress.awaiting_approval,
        "seconds_to_approval": round(whole, 2),
        "states": {
            k.split(":")[0]: round(v, 2) for k, v in states.items() if k.startswith(PHASES) and not k.endswith("?")
        },
        "recommended": top.get("scenario_id"),
        "actions": len(top.get("actions", [])),
        "final_decision": decision.get("final_decision", ""),
    }


def show(r: Result) -> None:
    if r.outcome != "planned":
        print(f"{r.name:15s} {r.outcome}: {r.message}")
        return
    steps = ", ".join(f"{k} {v:.1f}" for k, v in r.seconds.items())
    print(
        f"{r.name:15s} {r.flights_affected} flights affected (+{r.flights_inheriting} inheriting); "
        f"{r.valid_plans}/{r.plans} plans valid; recommended {r.recommended}: cost USD {r.cost_usd:,.0f}, "
        f"{r.delay_minutes} delay min, {r.cancellations} cancelled, {r.passengers_reaccommodated} pax re-accommodated "
        f"({r.passengers_stranded_overnight} overnight), {r.reserves_called} reserves; "
        f"illegal flights {r.illegal_flights_in_valid_plans}\n{'':15s} seconds: {steps}"
    )
    for plan, reasons in r.rejected.items():
        print(f"{'':15s} rejected {plan}: {'; '.join(reasons)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], metavar="NAME", help="a case (or part of its name)")
    parser.add_argument("--seconds", type=float, default=1.0, help="optimizer seconds per objective and rating group")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--load-factor", type=float, default=float(os.environ.get("SKYMARSHAL_BENCH_LF", "0.1")))
    parser.add_argument("--workflow", action="store_true", help="also run each case through the state machine")
    args = parser.parse_args(argv)
    cases = {n: r for n, r in CASES.items() if not args.only or any(part in n for part in args.only)}
    if not cases:
        print(f"no case matches {args.only}", file=sys.stderr)
        return 1
    from skymarshal.data.generator import GeneratorConfig, generate
    from skymarshal.local.emulator import in_process_account

    say = (lambda *a: print(*a, file=sys.stderr, flush=True)) if args.json else print
    started = time.monotonic()
    say(f"generating and seeding the airline (load factor {args.load_factor}) …")
    airline = generate(GeneratorConfig(load_factor=args.load_factor))
    results: list[Result] = []
    with in_process_account(airline) as account:
        say(f"ready in {time.monotonic() - started:.0f} s; {len(cases)} case(s), {args.seconds} s per solve\n")
        for name, report in cases.items():
            results.append(run_case(account.handle(), name, report, args.seconds))
            if not args.json:
                show(results[-1])
        runs = workflow_runs(account, cases, say) if args.workflow else {}
    if args.json:
        out: dict[str, Any] = {
            "seconds_per_solve": args.seconds,
            "cases": [asdict(r) for r in results],
            "workflow": runs,
        }
        json.dump(out, sys.stdout, indent=1)
        print()
    return 0


def workflow_runs(account, cases: dict[str, str], say) -> dict[str, dict[str, Any]]:
    os.environ["SKYMARSHAL_LLM_PROVIDER"] = "offline"
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "ERROR")  # the handlers' logs would bury the lines
    from skymarshal.local import workflow as local_workflow
    from skymarshal.local.template import workflow_template

    local_workflow.install(account, workflow_template(say))
    client = local_workflow.local_client(account)
    say("\nthrough the state machine (offline, the optimizer sized to the arbitrator's deadline):")
    runs = {}
    for name, report in cases.items():
        runs[name] = run = through_workflow(client, name, report)
        say(
            f"{name:15s} {run['seconds_to_approval']:.1f} s to the approval request "
            f"({', '.join(f'{k} {v:.1f}' for k, v in run['states'].items())}); "
            f"recommended {run['recommended']} ({run['actions']} actions)"
        )
    return runs


if __name__ == "__main__":
    sys.exit(main())
