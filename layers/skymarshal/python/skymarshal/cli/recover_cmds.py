"""`skymarshal recover INSTANCE_DIR --out DIR --time-limit SECONDS [--seed N] [--connections strict|lenient]
[--keep-unbooked] [--json]`: the network recovery optimizer on a ROADEF/EURO 2009 instance; writes
sol_rotations.csv and sol_itineraries.csv. The readings are recovery.model.Rules (strict connections by default)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .common import print_json


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid time limit {text!r}: give seconds, e.g. 60") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"invalid time limit {text!r}: it must be positive")
    return value


def register(commands) -> None:
    cmd = commands.add_parser("recover", help="network recovery optimizer on a ROADEF 2009 instance folder")
    cmd.add_argument("instance", type=Path, help="instance folder (config.csv, flights.csv, ...)")
    cmd.add_argument("--out", type=Path, required=True, help="folder for sol_rotations.csv and sol_itineraries.csv")
    cmd.add_argument("--time-limit", type=_seconds, default=60.0, help="seconds of search (default 60)")
    cmd.add_argument("--seed", type=int, default=0)
    cmd.add_argument(
        "--connections",
        choices=("strict", "lenient"),
        default="strict",
        help="strict (default): a connection broken before the window is repaired; lenient: such "
        "connections are history and not checked",
    )
    cmd.add_argument(
        "--keep-unbooked",
        action="store_true",
        help="cancel a flight no itinerary books only where no slot is left (fewest such first)",
    )
    cmd.add_argument("--json", action="store_true", help="print the result as JSON")
    cmd.set_defaults(run=_run)


def _run(args) -> int:
    from ..recovery.model import Rules
    from ..recovery.parser import InstanceError, read_instance
    from ..recovery.solver import NoFeasibleSolution, solve
    from ..recovery.writer import write_solution
    from .common import CliError

    try:
        instance = read_instance(args.instance)
    except InstanceError as exc:
        raise CliError(str(exc)) from None
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"cannot create --out {args.out}: {exc.strerror}") from None
    try:
        # Every incumbent is written as soon as it is found, so an interrupted run leaves a feasible plan.
        rules = Rules(connections=args.connections, keep_unbooked=args.keep_unbooked)
        solution, result = solve(
            instance,
            args.time_limit,
            seed=args.seed,
            rules=rules,
            on_incumbent=lambda sol, _cost: write_solution(instance, sol, args.out),
        )
    except NoFeasibleSolution as exc:
        raise CliError(str(exc)) from None
    write_solution(instance, solution, args.out)
    if args.json:
        print_json({**result.model_dump(mode="json"), "feasible": result.feasible, "out": str(args.out)})
        return 0 if result.feasible else 1
    for label, value in result.cost.lines():
        print(f"{label:<52} {value:>16,.2f}")
    print(f"{'Time (s)':<52} {result.seconds:>16.2f}")
    print(f"{'Search iterations / improvements':<52} {result.iterations:>10} / {result.improvements}")
    print(
        f"{'Connections read / unbooked flights cancelled':<52} {rules.connections:>10} / {result.unbooked_cancelled}"
    )
    verdict = "feasible" if result.feasible else f"INFEASIBLE ({len(result.violations)} violations)"
    print(f"{'Checker verdict':<52} {verdict:>16}")
    for violation in result.violations[:10]:
        print(f"  {violation.kind}: {violation.message}")
    print(f"Solution written to {args.out}/sol_rotations.csv and sol_itineraries.csv")
    return 0 if result.feasible else 1
