"""`skymarshal agent NAME "PROMPT" [--phase initial|revision] [--json]`: one agent against local AWS."""

from __future__ import annotations

import json
from pathlib import Path

from ..data.schema import AGENTS
from ..local import control
from .common import print_json


def register(commands) -> None:
    cmd = commands.add_parser("agent", help="run one domain agent on a disruption prompt")
    cmd.add_argument("name", choices=AGENTS)
    cmd.add_argument("prompt")
    cmd.add_argument("--phase", choices=("initial", "revision"), default="initial")
    cmd.add_argument("--others", type=Path, help="revision: a JSON file with the initial collation {agent: response}")
    cmd.add_argument("--json", action="store_true", help="print the AgentResponse as JSON")
    cmd.set_defaults(run=_run)


def _run(args) -> int:
    import sys

    from ..agents.runner import run_agent
    from . import CliError

    others = None
    if args.others:
        try:
            others = json.loads(args.others.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise CliError(f"cannot read --others {args.others}: {exc}") from None
    with control.account(echo=lambda m: print(m, file=sys.stderr), allow_temporary=True) as account:
        response = run_agent(args.name, args.prompt, handle=account.handle(), phase=args.phase, others=others)
    if args.json:
        print_json(response.model_dump(mode="json"))
    else:
        print(f"{response.agent_name} [{response.status}] confidence {response.confidence:.2f}")
        print(response.recommendation or response.message)
        for constraint in response.binding_constraints:
            print(f"  BINDING: {constraint}")
        for proposal in response.proposals:
            print(f"  proposal: {proposal.title}")
    return 0 if response.status in ("ok", "degraded") else 1
