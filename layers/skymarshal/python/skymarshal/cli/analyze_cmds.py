"""`skymarshal analyze "PROMPT" [--json]`: both agent rounds and the arbitrator against local AWS; prints
the top three scenarios with their explanations, constraint compliance and citations."""

from __future__ import annotations

import sys
import time

from ..local import control
from .common import print_json


def register(commands) -> None:
    cmd = commands.add_parser("analyze", help="analyse a disruption: seven agents in two rounds, then the arbitrator")
    cmd.add_argument("prompt", help='e.g. "Flight EY123 on January 20th had a mechanical failure"')
    cmd.add_argument("--json", action="store_true", help="print one JSON object (the collations and the decision)")
    cmd.set_defaults(run=_run)


def _run(args) -> int:
    from ..arbitration.arbitrator import arbitrate
    from ..workflow import rounds

    started = time.monotonic()

    def progress(phase, agent, response) -> None:
        print(f"  {phase:8s} {agent:17s} {response.status:11s} {(response.duration_ms or 0) / 1000:5.1f} s",
              file=sys.stderr)

    with control.account(echo=lambda m: print(m, file=sys.stderr)) as account:
        handle = account.handle()
        initial, revised = rounds.run_rounds(args.prompt, handle=handle, progress=progress)
        decision = arbitrate(revised, args.prompt, handle=handle)
    if args.json:
        print_json({"status": decision.status, "prompt": args.prompt, "initial": initial, "revision": revised,
                    "decision": decision.model_dump(mode="json"), "seconds": round(time.monotonic() - started, 1)})
    else:
        render(decision)
    return 0 if decision.status == "decided" else 1 if decision.status == "input_error" else 3


def render(decision) -> None:
    print(f"\nDecision [{decision.status}]: {decision.final_decision}  (confidence {decision.confidence:.0%})")
    for e in decision.escalations:
        print(f"  ESCALATE {e.code}: {e.message}")
    for r in decision.ranked:
        s = r.scenario
        print(f"\n#{r.rank} {s.title}  [{s.scenario_id}]  score {r.score:.2f}  confidence {r.confidence:.0%}")
        print(f"   delay {s.delay_minutes} min, {s.passengers_impacted} passengers, USD {s.cost_usd:,.0f}")
        for line in r.pros:
            print(f"   + {line}")
        for line in r.cons:
            print(f"   - {line}")
        for check in r.compliance:
            if check.source == "rules":
                print(f"   [{check.status}] {check.constraint}: {check.message} ({check.clause})")
        print(f"   precedent: {r.precedent}")
        sens = r.sensitivity
        print(f"   sensitivity: {sens.delay_plus_30}; {sens.delay_minus_30}; {sens.one_spare_fewer}; {sens.one_reserve_more}")
    print(f"\n{len(decision.rejected)} scenario(s) rejected:")
    for v in decision.rejected:
        print(f"   x {v.scenario.title}: " + "; ".join(f"{r.code} {r.message}" for r in v.rejections[:2]))
    print(f"\nJustification: {decision.justification}")
    print(f"Reasoning: {decision.reasoning}")
    print(f"Sources ({decision.knowledge_mode}):")
    for c in decision.citations:
        print(f"   {c.document} § {c.section}")
