"""`skymarshal status ID | history | alerts | audit ID | audit verify ID | resume ID | retry ID | event put FILE.json`
against local AWS."""

from __future__ import annotations

import json
import sys
from datetime import UTC
from pathlib import Path
from typing import cast

from ..local import control
from .common import print_json
from .render import Progress, write_audit


def register(commands) -> None:
    status = commands.add_parser("status", help="where a run is: state, agents, decision, outcome")
    status.add_argument("id", help="the run's id (see `skymarshal history`)")
    status.set_defaults(run=_status)
    history = commands.add_parser("history", help="the latest runs, newest first")
    history.add_argument("--limit", type=int, default=20)
    history.add_argument("--status", choices=("RUNNING", "SUCCEEDED", "FAILED", "TIMED_OUT", "ABORTED"))
    history.add_argument("--json", action="store_true")
    history.set_defaults(run=_history)
    alerts = commands.add_parser("alerts", help="the duty-manager alerts of escalated runs, newest first")
    alerts.add_argument("--limit", type=int, default=20)
    alerts.add_argument("--json", action="store_true")
    alerts.set_defaults(run=_alerts)
    audit = commands.add_parser(
        "audit",
        help="a run's audit record as JSON (also written under .skymarshal/audit/); "
        "`audit verify ID` checks its hash chain and signed head",
    )
    audit.add_argument("words", nargs="+", metavar="[verify] ID")
    audit.add_argument("--json", action="store_true", help="verify: print the verification as JSON")
    audit.set_defaults(run=_audit)
    resume = commands.add_parser("resume", help="run a failed run again, reusing the phases it finished")
    resume.add_argument("id")
    resume.set_defaults(run=_resume)
    retry = commands.add_parser(
        "retry", help="an escalated run again: only the agents that failed re-run, the others' answers are reused"
    )
    retry.add_argument("id")
    retry.set_defaults(run=_retry)
    event = commands.add_parser("event", help="disruption events, as EventBridge delivers them")
    actions = event.add_subparsers(dest="action", required=True, parser_class=type(event))
    put = actions.add_parser("put", help="check FILE.json against the rule's pattern and start its execution")
    put.add_argument("file", type=Path)
    put.set_defaults(run=_event_put)


def _client(account):
    from ..local.workflow import local_client

    return local_client(account, echo=lambda m: print(m, file=sys.stderr))


def _status(args) -> int:
    with control.account(echo=lambda m: print(m, file=sys.stderr)) as account:
        client = _client(account)
        described = client.describe(args.id)
        progress = client.progress(args.id)
        output = json.loads(described["output"]) if described.get("output") else None
        pending = client.pending(args.id)
    print_json(
        {
            "id": args.id,
            "status": described["status"],
            "current_state": progress.current,
            "started_at": described["startDate"],
            "stopped_at": described.get("stopDate"),
            "agents": {
                f"{p}/{a}": {"status": v.status, "seconds": v.seconds} for (p, a), v in sorted(progress.agents.items())
            },
            "awaiting_approval": bool(pending),
            "pending_decision": json.loads(pending["decision"]) if pending else None,
            "outcome": (output or {}).get("outcome"),
            "error": described.get("error"),
            "cause": described.get("cause"),
        }
    )
    return 0


def _history(args) -> int:
    from ..views.run_list import run_lines

    with control.account(echo=lambda m: print(m, file=sys.stderr)) as account:
        runs = run_lines(_client(account), limit=args.limit, status=args.status)
    if args.json:
        print_json([{"id": r.disruption_id, **r.model_dump(mode="json")} for r in runs])
        return 0
    if not runs:
        print('no runs yet: try `skymarshal analyze "Flight EY123 on January 20th had a mechanical failure"`')
    for r in runs:
        print(
            f"{r.started_at:%Y-%m-%d %H:%M:%S}  {r.outcome_text:22s}  {(r.subject or '?'):14s}  {r.report or ''}"
            f"\n{'':21s}{r.disruption_id} ({r.status}){f' — {r.detail}' if r.detail else ''}"
        )
    return 0


def _alerts(args) -> int:
    from ..workflow.alerts import latest_alerts

    with control.account(echo=lambda m: print(m, file=sys.stderr)) as account:
        alerts = latest_alerts(tables=account.tables(), limit=max(1, args.limit))
    if args.json:
        print_json([a.model_dump(mode="json") for a in alerts])
        return 0
    if not alerts:
        print("no alerts: no run has been escalated")
    for a in alerts:
        print(f"{a.raised_at:%Y-%m-%d %H:%M:%S}  {a.reason:20s}  {a.execution_name}  {a.flight or ''}  [{a.delivery}]")
        print(f"    {a.message} — {a.console_link}; `skymarshal retry {a.execution_name}` re-runs its failed agents")
    return 0


def _audit(args) -> int:
    from .common import CliError

    if args.words[0] == "verify":
        if len(args.words) != 2:
            raise CliError("usage: skymarshal audit verify ID")
        return _verify(args.words[1], as_json=args.json)
    if len(args.words) != 1:
        raise CliError(f"usage: skymarshal audit ID, or skymarshal audit verify ID (got {' '.join(args.words)!r})")
    run_id = args.words[0]
    with control.account(echo=lambda m: print(m, file=sys.stderr)) as account:
        document = _client(account).audit(run_id)
    path = write_audit(run_id, document)
    print_json(document)
    print(f"audit written to {path}", file=sys.stderr)
    return 0


def _verify(run_id: str, *, as_json: bool) -> int:
    """Exit 0 when the chain verifies, 1 when it does not (each problem on its own line)."""
    with control.account(echo=lambda m: print(m, file=sys.stderr)) as account:
        result = _client(account).verify(run_id)
    if as_json:
        print_json(result.model_dump(mode="json"))
    elif result.ok:
        print(
            f"audit chain of {result.disruption_id} verified: {result.records} records, head {result.head_hash[:16]}… "
            "signed with KMS"
        )
    else:
        print(f"audit chain of {result.disruption_id} FAILED verification ({result.records} records):")
        for problem in result.problems:
            where = f"record {problem.seq}: " if problem.seq else ""
            print(f"  {problem.code}: {where}{problem.message}")
    return 0 if result.ok else 1


def _resume(args) -> int:
    return _again(args.id, "resume")


def _retry(args) -> int:
    return _again(args.id, "retry")


def _again(run_id: str, how: str) -> int:
    """Start the resume or retry of a run and follow it to its approval or its end."""
    from .common import CliError

    with control.account(echo=lambda m: print(m, file=sys.stderr)) as account:
        client = _client(account)
        try:  # NotRetryable, and resume's refusal, are ValueErrors saying why
            started = client.resume(run_id) if how == "resume" else client.retry(run_id)
        except ValueError as exc:
            raise CliError(str(exc)) from None
        progress = Progress()
        progress.header(
            started["execution_name"], "(resumed)" if how == "resume" else "(retry of the failed agents)", True
        )
        state = client.follow(started["execution_name"], on_progress=progress.update)
    print(
        f"{started['execution_name']}: {state.status} at {state.current}"
        + ("; answer it with `skymarshal analyze`-style flags via the API, or wait" if state.awaiting_approval else "")
    )
    return 0


def _event_put(args) -> int:
    from ..workflow.runs.trigger import RULE_PATTERN, InvalidEvent, start_for_event
    from .common import CliError

    try:
        event = json.loads(args.file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise CliError(f"{args.file}: not a JSON event: {exc}") from None
    if not isinstance(event, dict):
        raise CliError(f"{args.file}: not an event: expected a JSON object, got {type(event).__name__}")
    detail = event.get("Detail")
    if isinstance(detail, str):  # PutEvents takes Detail as a string holding a JSON object
        try:
            parsed = json.loads(detail)
        except ValueError as exc:
            raise CliError(
                f"{args.file}: Detail is not JSON ({exc}); it must be a string holding a JSON object"
            ) from None
        if not isinstance(parsed, dict):
            raise CliError(f"{args.file}: Detail must hold a JSON object, got {type(parsed).__name__}")
    with control.account(echo=lambda m: print(m, file=sys.stderr)) as account:
        client = _client(account)
        # moto's TestEventPattern API is not implemented; its rule matcher (what its PutEvents uses) is.
        from moto.events.models import EventPattern
        from moto.events.utils import EventMessageType

        delivered = cast(EventMessageType, _as_delivered(event))  # the delivered event's shape, as its matcher reads
        if not EventPattern.load(json.dumps(RULE_PATTERN)).matches_event(delivered):
            raise CliError(
                f"{args.file}: the rule does not match this event (it needs source "
                f"{RULE_PATTERN['source'][0]!r} and detail-type {RULE_PATTERN['detail-type'][0]!r})"
            )
        try:
            started = start_for_event(
                _as_delivered(event), executions=client.execution_port, state_machine_arn=client.arn
            )
        except InvalidEvent as exc:
            raise CliError(f"{args.file}: not a disruption report: {exc}") from None
    print_json(started)
    return 0


def _as_delivered(event: dict) -> dict:
    """A PutEvents entry (Source/DetailType/Detail) or a delivered event: the delivered shape, as the target sees it."""
    if "Source" in event or "DetailType" in event:
        import uuid
        from datetime import datetime

        detail = event.get("Detail", "{}")
        return {
            "version": "0",
            "id": event.get("Id") or str(uuid.uuid4()),
            "source": event.get("Source"),
            "detail-type": event.get("DetailType"),
            "account": "123456789012",
            "region": "us-east-1",
            "time": datetime.now(UTC).isoformat(),
            "resources": event.get("Resources", []),
            "detail": json.loads(detail) if isinstance(detail, str) else detail,
        }
    return event
