"""`skymarshal agent NAME "PROMPT" [--phase initial|revision] [--json]`: one agent against local AWS."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

from ..data.generator.config import GeneratorConfig
from ..data.schema import AGENT_TABLE_ACCESS, AGENTS, OPERATIONAL_TABLES, TABLES
from ..intake.dates import find_dates
from ..local import control
from .common import print_json

NON_OPERATIONAL = tuple(t.name for t in TABLES if t.name not in OPERATIONAL_TABLES)


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
    from .common import CliError

    others = None
    if args.others:
        try:
            others = json.loads(args.others.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise CliError(f"cannot read --others {args.others}: {exc}") from None
    # Without local AWS, a slice: the days the report names, and only the tables this agent may read.
    days, tables = passenger_slice(args.prompt), (*AGENT_TABLE_ACCESS[args.name], *NON_OPERATIONAL)
    with control.account(
        echo=lambda m: print(m, file=sys.stderr), allow_temporary=True, passenger_days=days, tables=tables
    ) as account:
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


def passenger_slice(prompt: str, window: GeneratorConfig | None = None) -> tuple[date, date] | None:
    """The days whose passengers a temporary airline needs for this report: each day of the generated
    window the report names (a date with its month and day, with or without the year), and the day either
    side for connections and re-accommodation; None (every day) when it names none there."""
    window = window or GeneratorConfig()
    days = [window.start + timedelta(days=k) for k in range(window.days)]
    named = {
        d
        for mention in find_dates(prompt)
        if mention.kind in ("explicit", "yearless") and mention.month is not None
        for d in days
        if (d.month, d.day) == (mention.month, mention.day) and mention.year in (None, d.year)
    }
    if not named:
        return None
    return min(named) - timedelta(days=1), max(named) + timedelta(days=1)
