"""`skymarshal local start | stop | reset | status`."""

from __future__ import annotations

from ..local import control, memory_guard
from .common import load_factor, print_json


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
    start.set_defaults(run=lambda a: control.start(seed=a.seed, port=a.port, load_factor=a.load_factor) and 0)
    actions.add_parser("stop", help="stop local AWS (its state is kept)").set_defaults(run=_stop)
    reset = actions.add_parser("reset", help="stop, forget the account's state, start again with the seeded airline")
    reset.add_argument("--seed", type=int, default=2027)
    reset.set_defaults(run=_reset)
    actions.add_parser("status", help="is local AWS running").set_defaults(run=_status)


def _stop(args) -> int:
    state = control.LocalState.read()
    stopped = control.stop()
    # not running is not a failure of `stop`; a server that survived SIGKILL is
    return 0 if stopped or state is None or not control.running() else 1


def _reset(args) -> int:
    control.stop()
    control.wipe()
    control.start(seed=args.seed)
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
            "rows": state.counts,
        }
    )
    return 0
