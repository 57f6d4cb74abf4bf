"""`skymarshal checkpoints ID [--json]` (a run's checkpointed rounds and its threads' ordered records; --json is the
export) and `skymarshal continue ID --from initial|revision --reason TEXT` (a new run reusing the rounds up to
that one) against local AWS."""

from __future__ import annotations

import sys

from ..local import control
from .common import print_json


def register(commands) -> None:
    checkpoints = commands.add_parser(
        "checkpoints", help="a run's checkpointed rounds and every thread's ordered records (--json: the export)"
    )
    checkpoints.add_argument("id", help="the run's id (see `skymarshal history`)")
    checkpoints.add_argument("--json", action="store_true", help="print the whole history as one JSON object")
    checkpoints.set_defaults(run=_checkpoints)
    again = commands.add_parser(
        "continue", help="a new run from a checkpointed round: it and the rounds before are reused, the rest re-runs"
    )
    again.add_argument("id")
    again.add_argument("--from", dest="from_round", required=True, choices=("initial", "revision"))
    again.add_argument("--reason", required=True, help="why the run is continued (kept in the log)")
    again.add_argument("--as", dest="decided_by", default=None, help="the duty manager's name (default: your user)")
    again.set_defaults(run=_continue)


def _client(account):
    from ..local.workflow import local_client

    return local_client(account, echo=lambda m: print(m, file=sys.stderr))


def _checkpoints(args) -> int:
    from ..views.run_history import run_history

    with control.account(echo=lambda m: print(m, file=sys.stderr)) as account:
        history = run_history(_client(account), args.id)
    if args.json:
        print_json(history.model_dump(mode="json"))
        return 0
    print(f"{history.execution_name}  {history.status}  started {history.started_at:%Y-%m-%d %H:%M:%S}")
    for r in history.rounds:
        ok = sum(s == "ok" for s in r.statuses.values())
        reused = f", reused from {r.reused_from}" if r.reused_from else ""
        can = "continue with --from " + r.phase if r.can_continue else "a safety agent failed: not continuable"
        print(f"  round {r.phase}: {ok}/{len(r.statuses)} agents ok{reused} — {can}")
    for t in history.threads:
        print(f"  {t.agent:17s} {t.phase:11s} {t.status}" + (f" by {t.status_actor}" if t.status_actor else ""))
        for e in t.records:
            confidence = f"  confidence {e.confidence:.2f}" if e.confidence is not None else ""
            print(f"      {e.seq:>3} {e.timestamp}  {e.event}{confidence}")
    return 0


def _continue(args) -> int:
    import getpass

    from ..workflow.runs.reuse import CheckpointRefused
    from .common import CliError

    if not args.reason.strip():
        raise CliError("--reason: say why the run is continued; it goes into the log")
    with control.account(echo=lambda m: print(m, file=sys.stderr)) as account:
        client = _client(account)
        try:
            started = client.continue_from(args.id, args.from_round, requested_by=args.decided_by or getpass.getuser())
        except (ValueError, CheckpointRefused) as exc:
            raise CliError(str(exc)) from None
    print(f"{started['execution_name']}: started from the {args.from_round} round of {args.id}")
    print(f"  follow it: skymarshal status {started['execution_name']}")
    return 0
