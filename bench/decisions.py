"""The decision bench: every case in `bench/scenarios/` through the synthesized state machine, to the decision.

`python -m bench.decisions [--only NAME ...] [--json]`. One emulated account is seeded once (small load
factor, as the tests); each case's what-if rows are written over it and put back afterwards (before-images
kept per key), so no case sees another's. A run goes to the duty manager's approval, the decision is read,
and a bench duty manager rejects it: nothing is executed, and the learning record the rejection writes is
removed (precedents would otherwise drift from case to case). Figures, not assertions: exit 0 whatever
the cases say (1 only when the bench itself cannot run).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench.decision_cases import Case, kinds_of, load_cases

INPUT_ERRORS = ("InvalidDisruption", "InputError")


@dataclass
class Result:
    name: str
    group: str
    report: str
    outcome: str = "?"  # decision / escalated / input_error / failed
    understood: dict[str, Any] = field(default_factory=dict)
    understood_ok: bool | None = None
    rank1: dict[str, Any] | None = None
    rank1_ok: bool | None = None
    considered: list[str] = field(default_factory=list)
    illegal_ranked: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    message: str | None = None
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return not self.failures


def plan_kinds(scenario: dict[str, Any]) -> frozenset[str]:
    """A scenario's kinds; a missing `kinds` (before combined plans) is [kind]; a network plan (an airport or
    airspace disruption's, every flight's actions in one) is network_plan."""
    if str(scenario.get("scenario_id", "")).startswith("network:"):
        return frozenset({"network_plan"})
    return frozenset(scenario.get("kinds") or [scenario["kind"]])


def label(kinds: frozenset[str]) -> str:
    return "+".join(sorted(kinds))


def judge(case: Case, result: Result, decision: dict[str, Any] | None) -> None:
    """Fill the result's verdicts from the decision (or the run's input error) against the case."""
    expect = case.expect
    if expect.outcome == "input_error":
        if result.outcome != "input_error":
            result.failures.append(f"expected an input error, got {result.outcome}")
        elif not any(word.lower() in (result.message or "").lower() for word in expect.error_mentions):
            result.failures.append(f"an input error, but not naming any of {expect.error_mentions}")
        return
    if result.outcome in ("input_error", "failed"):
        result.failures.append(f"expected a decision, got {result.outcome}: {result.message}")
        return
    facts = result.understood
    problems = []
    if facts.get("family") not in expect.family:
        problems.append(f"family {facts.get('family')} not in {expect.family}")
    if facts.get("scope") not in expect.scope:
        problems.append(f"scope {facts.get('scope')} not in {expect.scope}")
    missing = sorted(set(expect.flights) - set(facts.get("flights") or []))
    if missing:
        problems.append(f"flights {missing} not in scope")
    result.understood_ok = not problems
    result.failures.extend(problems)

    decision = decision or {}
    ranked = decision.get("ranked") or []
    rejected = decision.get("rejected") or []
    for entry in ranked:
        bad = [c["constraint"] for c in entry.get("compliance", []) if c.get("status") == "illegal"]
        if bad:
            result.illegal_ranked.append(f"#{entry['rank']} {entry['scenario']['title']}: {', '.join(bad)}")
    if result.illegal_ranked:
        result.failures.append(f"illegal ranked plan(s): {'; '.join(result.illegal_ranked)}")
    result.considered = [f"#{r['rank']} {label(plan_kinds(r['scenario']))}" for r in ranked] + [
        f"x {label(plan_kinds(r['scenario']))} ({','.join(sorted({j['code'] for j in r.get('rejections', [])}))})"
        for r in rejected
    ]

    if not ranked:
        result.rank1_ok = False
        result.failures.append(f"no ranked plan ({result.outcome})")
    else:
        top = ranked[0]["scenario"]
        kinds = plan_kinds(top)
        result.rank1 = {
            "kinds": sorted(kinds),
            "title": top["title"],
            "scenario_id": top["scenario_id"],
            "registration": top.get("registration"),
            "delay_minutes": top.get("delay_minutes"),
            "crew_replacements": top.get("crew_replacements") or {},
        }
        called = sorted(set(expect.unfit_crew) & set((top.get("crew_replacements") or {}).values()))
        if called:
            result.failures.append(f"rank 1 calls out {called}, whom the what-if made unfit")
        if top.get("registration") in expect.unfit_tails:
            result.failures.append(f"rank 1 flies on {top['registration']}, which the what-if grounded")
        acceptable = kinds in {kinds_of(s) for s in expect.rank1}
        documented = expect.rank1_if_documented
        if not acceptable and documented and kinds in {kinds_of(s) for s in documented.kinds}:
            # the better plan is impossible, and the decision says why with a typed reason
            acceptable = any(
                j["code"] == documented.code and documented.mentions.lower() in j["message"].lower()
                for r in rejected
                for j in r.get("rejections", [])
            )
        result.rank1_ok = acceptable
        if kinds in {kinds_of(s) for s in expect.never_rank1}:
            result.failures.append(f"rank 1 is {label(kinds)}, which must never be rank 1")
        elif not acceptable:
            result.failures.append(f"rank 1 is {label(kinds)}, acceptable: {', '.join(expect.rank1)}")
    # valid plans below the top three count as considered too (decision.also_valid: scenario ids, kind first)
    also = [frozenset({sid.split(":")[0]}) for sid in decision.get("also_valid") or []]
    seen = [plan_kinds(r["scenario"]) for r in ranked + rejected] + also
    absent = [spec for spec in expect.consider if not any(kinds_of(spec) <= kinds for kinds in seen)]
    if absent:
        result.failures.append(f"not considered: {', '.join(absent)}")


def understood_of(decision: dict[str, Any] | None, output: dict[str, Any] | None) -> dict[str, Any]:
    """decision.disruption, else the request's (a run that ended before arbitration)."""
    disruption = (decision or {}).get("disruption") or ((output or {}).get("request") or {}).get("disruption")
    if not disruption:
        return {}
    scope = disruption.get("scope") or {}
    return {
        "code": disruption.get("iata_delay_code"),
        "family": disruption.get("family"),
        "scope": scope.get("kind"),
        "flights": scope.get("flights") or [],
        "window": disruption.get("window"),
    }


class WhatIf:
    """The case's rows written over the seeded airline, and put back afterwards (before-image per key)."""

    def __init__(self, account: Any, folder: Path | None):
        self.account, self.folder = account, folder
        self.saved: list[tuple[str, dict[str, Any], dict[str, Any] | None]] = []

    def __enter__(self) -> WhatIf:
        if self.folder is None:
            return self
        from skymarshal.data.loader import item_of, upsert
        from skymarshal.data.schema import TABLES_BY_NAME
        from skymarshal.data.transfer import read_folder

        rows, errors = read_folder(self.folder)
        if errors:
            raise ValueError(f"what-if {self.folder.name}: {'; '.join(errors)}")
        resource = self.account.resource()
        for table, table_rows in rows.items():
            dynamo = resource.Table(self.account.naming(table))
            for row in table_rows:
                item = item_of(row)
                key = {name: item[name] for name in TABLES_BY_NAME[table].key_names}
                self.saved.append((table, key, dynamo.get_item(Key=key).get("Item")))
            upsert(resource, self.account.naming, table, table_rows)
        return self

    def __exit__(self, *exc: object) -> None:
        resource = self.account.resource()
        for table, key, before in reversed(self.saved):
            dynamo = resource.Table(self.account.naming(table))
            if before is None:
                dynamo.delete_item(Key=key)
            else:
                dynamo.put_item(Item=before)


def run_case(client: Any, account: Any, case: Case) -> Result:
    from skymarshal.workflow.models import ApprovalDecision

    result = Result(name=case.name, group=case.group, report=case.report)
    started = time.monotonic()
    name = f"bench-{case.name}-{int(time.time() * 1000) % 10**8}"[:80]
    decision: dict[str, Any] | None = None
    try:
        with WhatIf(account, case.whatif_folder):
            client.start(
                case.report, disruption_id=name, source="bench", reported_at=case.reported_at, ops_date=case.ops_date
            )
            progress = client.follow(name, timeout_s=900, poll_s=0.1)
            if progress.awaiting_approval:
                decision = client.decision(name)
                result.seconds = time.monotonic() - started
                result.outcome = "decision"
                answer = ApprovalDecision(action="reject", decided_by="Decision Bench", comment="bench: read only")
                client.decide(name, answer)
                client.follow(name, timeout_s=900, poll_s=0.1)
            described = client.describe(name)
            output = client.output(name)
            if result.outcome != "decision":
                result.seconds = time.monotonic() - started
                if described["status"] == "SUCCEEDED":
                    decision = client.decision(name)
                    result.outcome = ((output or {}).get("outcome") or {}).get("status") or "escalated"
                else:
                    error = described.get("error")
                    result.outcome = "input_error" if error in INPUT_ERRORS else "failed"
                    result.message = _message(described)
            result.understood = understood_of(decision, output)
        history = account.resource().Table(account.naming("DisruptionHistory"))
        history.delete_item(Key={"disruption_id": f"SM-{name}"})  # Learn's record of the rejection
    except Exception as exc:  # one broken case is a failed case, not a broken bench
        result.outcome, result.message = "failed", f"{type(exc).__name__}: {exc}"
        result.seconds = result.seconds or time.monotonic() - started
    judge(case, result, decision)
    return result


def _message(described: dict[str, Any]) -> str | None:
    cause = described.get("cause")
    try:
        return json.loads(cause).get("errorMessage", cause) if cause else None
    except (ValueError, AttributeError):
        return cause


def show(index: int, total: int, case: Case, result: Result) -> None:
    verdict = "PASS" if result.passed else "FAIL"
    print(f"[{index:2d}/{total}] {verdict}  {case.name}  ({result.seconds:.1f} s)")
    print(f"        report: {case.report}")
    facts = result.understood
    if facts:
        flights = ", ".join(facts["flights"]) or "-"
        print(f"        understood: code {facts['code']} {facts['family']}, scope {facts['scope']}, flights {flights}")
    if result.rank1:
        print(f"        rank 1: {'+'.join(result.rank1['kinds'])} — {result.rank1['title']}")
    elif result.outcome != "decision":
        print(f"        outcome: {result.outcome}" + (f" — {result.message}" if result.message else ""))
    if result.considered:
        print(f"        considered: {'; '.join(result.considered)}")
    for failure in result.failures:
        print(f"        ✗ {failure}")
    sys.stdout.flush()


def totals(cases: list[Case], results: list[Result], setup_s: float, total_s: float) -> dict[str, Any]:
    decisions = [r for c, r in zip(cases, results, strict=True) if c.expect.outcome == "decision"]
    bad_input = [r for c, r in zip(cases, results, strict=True) if c.expect.outcome == "input_error"]
    seconds = sorted(r.seconds for r in results)
    groups: dict[str, Counter[str]] = {}
    for result in results:
        groups.setdefault(result.group, Counter())["cases"] += 1
        groups[result.group]["passed"] += result.passed
    return {
        "cases": len(results),
        "passed": sum(r.passed for r in results),
        "understood": f"{sum(bool(r.understood_ok) for r in decisions)}/{len(decisions)}",
        "rank1_acceptable": f"{sum(bool(r.rank1_ok) for r in decisions)}/{len(decisions)}",
        "illegal_ranked_plans": sum(len(r.illegal_ranked) for r in results),
        "input_errors_as_expected": f"{sum(r.passed for r in bad_input)}/{len(bad_input)}",  # naming the problem
        "unexpected_input_errors": sum(r.outcome == "input_error" for r in decisions),
        "seconds_per_case_p50": round(seconds[len(seconds) // 2], 1) if seconds else 0.0,
        "seconds_per_case_max": round(seconds[-1], 1) if seconds else 0.0,
        "seconds_setup": round(setup_s, 1),
        "seconds_total": round(total_s, 1),
        "by_group": {g: f"{c['passed']}/{c['cases']}" for g, c in sorted(groups.items())},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", default=[], metavar="NAME", help="a case (or part of names)")
    parser.add_argument("--json", action="store_true", help="one JSON object: every case and the totals")
    parser.add_argument("--load-factor", type=float, default=float(os.environ.get("SKYMARSHAL_BENCH_LF", "0.1")))
    args = parser.parse_args(argv)
    cases = [c for c in load_cases() if not args.only or any(part in c.name for part in args.only)]
    if not cases:
        print(f"no case matches {args.only}", file=sys.stderr)
        return 1
    os.environ["SKYMARSHAL_LLM_PROVIDER"] = "offline"
    # the handlers' structured logs would bury the per-case lines; errors still show
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "ERROR")
    from skymarshal.data.generator import GeneratorConfig, generate
    from skymarshal.local import workflow as local_workflow
    from skymarshal.local.emulator import in_process_account
    from skymarshal.local.template import workflow_template

    started = time.monotonic()
    say = (lambda *a: print(*a, file=sys.stderr, flush=True)) if args.json else print
    say(f"generating and seeding the airline (load factor {args.load_factor}) …")
    airline = generate(GeneratorConfig(load_factor=args.load_factor))
    results: list[Result] = []
    with in_process_account(airline) as account:
        local_workflow.install(account, workflow_template(say))
        client = local_workflow.local_client(account)
        setup_s = time.monotonic() - started
        say(f"ready in {setup_s:.0f} s; {len(cases)} case(s)\n")
        for index, case in enumerate(cases, start=1):
            results.append(run_case(client, account, case))
            if not args.json:
                show(index, len(cases), case, results[-1])
            else:
                say(f"  {index}/{len(cases)} {case.name}: {'pass' if results[-1].passed else 'FAIL'}")
    summary = totals(cases, results, setup_s, time.monotonic() - started)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    if args.json:
        json.dump({"commit": commit, "totals": summary, "cases": [asdict(r) for r in results]}, sys.stdout, indent=1)
        print()
        return 0
    print(f"\ndecision bench on {commit or '?'}: {summary['passed']}/{summary['cases']} cases pass")
    for key in (
        "understood",
        "rank1_acceptable",
        "illegal_ranked_plans",
        "input_errors_as_expected",
        "unexpected_input_errors",
        "seconds_per_case_p50",
        "seconds_per_case_max",
        "seconds_setup",
        "seconds_total",
    ):
        print(f"  {key.replace('_', ' '):28s} {summary[key]}")
    print("  by group (passed/cases):   " + ", ".join(f"{g} {v}" for g, v in summary["by_group"].items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
