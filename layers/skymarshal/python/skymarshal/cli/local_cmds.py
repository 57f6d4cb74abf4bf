"""`skymarshal local start | stop | reset | status`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..local import control, memory_guard
from .common import load_factor, print_json
from .data_cmds import say_problems

if TYPE_CHECKING:
    from ..local.schedule_start import Schedule


def register(commands) -> None:
    local = commands.add_parser("local", help="run one emulated AWS account in the background")
    actions = local.add_subparsers(dest="action", required=True, parser_class=type(local))
    start = actions.add_parser("start", help="start and seed local AWS (kept running)")
    start.add_argument("--seed", type=int, default=2027)
    start.add_argument(
        "--load-factor",
        type=load_factor,
        default=0.78,
        help="passenger volume of a first start (0.78: production; 0.1: the tests' airline)",
    )
    start.add_argument(
        "--port", type=int, default=None, help=f"default: the last one used, else {control.DEFAULT_PORT}"
    )
    start.add_argument(
        "--faults",
        metavar="SPEC",
        help="fail a seeded share of AWS calls as the services do, e.g. 5%% or 20%%,seed=7,kinds=throttle+partial "
        "(local/faults.py; the same as SKYMARSHAL_LOCAL_FAULTS)",
    )
    _schedule_arguments(start)
    start.set_defaults(run=_start)
    actions.add_parser("stop", help="stop local AWS (its state is kept)").set_defaults(run=_stop)
    reset = actions.add_parser("reset", help="stop, forget the account's state, start again with the seeded airline")
    reset.add_argument("--seed", type=int, default=2027)
    _schedule_arguments(reset)
    reset.set_defaults(run=_reset)
    actions.add_parser("status", help="is local AWS running").set_defaults(run=_status)


def _schedule_arguments(parser) -> None:
    parser.add_argument(
        "--schedule",
        type=Path,
        help="an IATA SSIM file: a first start takes its flights from it (every other table as seeded)",
    )
    parser.add_argument(
        "--tails", type=Path, help="the schedule's tail file, flight_id,registration (default: FILE.tails.csv)"
    )


def _schedule(args, fresh: bool) -> Schedule | None:
    """The checked schedule of `--schedule` (None without one): a file `data import-ssim` would refuse starts no
    server (its problems, then one line); nor does one the existing account does not hold, unless `fresh`."""
    from ..local.schedule_start import Schedule, ScheduleRefused, check_start, schedule_problems
    from .common import CliError

    if args.schedule is None:
        if args.tails is not None:
            raise CliError("--tails is the tail file of a --schedule")
        return None
    problems = schedule_problems(args.schedule, args.tails)
    if len(problems) == 1:  # the usual bad file: one line
        where = f"{args.schedule} " if problems[0].startswith("line ") else ""
        raise CliError(f"local AWS not started: {where}{problems[0]}")
    if problems:
        say_problems(problems)
        raise CliError(f"local AWS not started: {len(problems)} problem(s) in {args.schedule}")
    schedule = Schedule.of(args.schedule, args.tails)
    if not fresh:
        from ..local.durable import DurableState

        durable = DurableState(control.home() / "local")
        try:
            check_start(schedule, durable.state, durable.exists())
        except ScheduleRefused as exc:
            raise CliError(str(exc)) from None
    return schedule


def _start(args) -> int:
    if args.faults:  # checked here, in one line, before a server starts; the server reads it from its environment
        import os

        from ..local.faults import FAULTS_ENV, FaultSpecError, parse
        from .common import CliError

        try:
            parse(args.faults)
        except FaultSpecError as exc:
            raise CliError(f"local AWS not started: {exc}") from None
        os.environ[FAULTS_ENV] = args.faults
    schedule = _schedule(args, fresh=False)
    control.start(seed=args.seed, port=args.port, load_factor=args.load_factor, schedule=schedule)
    return 0


def _stop(args) -> int:
    state = control.LocalState.read()
    stopped = control.stop()
    # not running is not a failure of `stop`; a server that survived SIGKILL is
    return 0 if stopped or state is None or not control.running() else 1


def _reset(args) -> int:
    schedule = _schedule(args, fresh=True)  # checked before anything is forgotten
    control.stop()
    control.wipe()
    control.start(seed=args.seed, schedule=schedule)
    return 0


def _status(args) -> int:
    state = control.running()
    if state is None:
        pending = control.LocalState.read()
        print_json({"running": False, "status": pending.status if pending else "stopped"})
        return 0
    memory = memory_guard.memory(state.pid, state.memory_limit_mb, state.memory_reserve_mb)
    print_json(
        {
            "running": True,
            "endpoint": state.endpoint,
            "pid": state.pid,
            "seed": state.seed,
            "start_seconds": state.start_seconds,
            "start_cpu_seconds": state.start_cpu_seconds,
            "rss_mb_at_ready": state.rss_mb,
            **memory.as_dict(),
            "refusing_new_runs": memory.refusal(),  # None while there is room
            "recovered": state.recovered or None,
            "schedule": _held_schedule(),  # the SSIM file its flights came from (None: the generated ones)
            "rows": state.counts,
        }
    )
    return 0


def _held_schedule() -> str | None:
    from ..local.schedule_start import held_schedule

    held = held_schedule(control.home() / "local" / "state")
    return held.path if held else None
