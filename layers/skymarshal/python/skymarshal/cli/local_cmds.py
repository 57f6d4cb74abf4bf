"""`skymarshal local start | stop | reset | status`."""

from __future__ import annotations

from ..local import control
from .common import print_json


def register(commands) -> None:
    local = commands.add_parser("local", help="run one emulated AWS account in the background")
    actions = local.add_subparsers(dest="action", required=True, parser_class=type(local))
    start = actions.add_parser("start", help="start and seed local AWS (kept running)")
    start.add_argument("--seed", type=int, default=2027)
    start.add_argument("--port", type=int, default=control.DEFAULT_PORT)
    start.set_defaults(run=lambda a: control.start(seed=a.seed, port=a.port) and 0)
    actions.add_parser("stop", help="stop local AWS").set_defaults(run=lambda a: control.stop() and 0)
    reset = actions.add_parser("reset", help="stop, then start again with freshly generated data")
    reset.add_argument("--seed", type=int, default=2027)
    reset.set_defaults(run=_reset)
    actions.add_parser("status", help="is local AWS running").set_defaults(run=_status)


def _reset(args) -> int:
    control.stop()
    control.start(seed=args.seed)
    return 0


def _status(args) -> int:
    state = control.running()
    if state is None:
        pending = control.LocalState.read()
        print_json({"running": False, "status": pending.status if pending else "stopped"})
        return 0
    print_json(
        {"running": True, "endpoint": state.endpoint, "pid": state.pid, "seed": state.seed, "rows": state.counts}
    )
    return 0
