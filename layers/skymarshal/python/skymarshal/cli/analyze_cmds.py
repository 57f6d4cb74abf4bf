"""`skymarshal analyze "PROMPT"`: one disruption through the synthesized state machine on local AWS.

Live progress (each phase, each agent with its status and seconds), the arbitrator's top three, then the
duty manager's decision — asked on a terminal, or given with --approve | --select N | --reject |
--alternatives TEXT — then the execution, the actions applied and the audit file. Exit codes: 0 executed
or rejected, 1 not accepted (input error) or failed, 3 escalated.
"""

from __future__ import annotations

import getpass
import json
import sys

from ..local import control
from .common import print_json
from .render import Progress, render_decision, render_understood, write_audit

EXIT = {"executed": 0, "rejected": 0, "escalated": 3, "input_error": 1, "failed": 1}


def register(commands) -> None:
    cmd = commands.add_parser(
        "analyze", help="analyse a disruption end to end: agents, arbitrator, approval, execution"
    )
    cmd.add_argument("prompt", help='e.g. "Flight EY123 on January 20th had a mechanical failure"')
    choice = cmd.add_mutually_exclusive_group()
    choice.add_argument("--approve", action="store_true", help="approve the top-ranked plan")
    choice.add_argument("--select", type=int, metavar="N", help="approve the plan ranked N instead")
    choice.add_argument("--reject", action="store_true", help="reject: nothing is executed")
    choice.add_argument("--alternatives", metavar="TEXT", help="ask for other plans (once), then approve the new top")
    cmd.add_argument("--as", dest="decided_by", default=None, help="the duty manager's name (default: your user)")
    cmd.add_argument(
        "--comment",
        "--reason",
        dest="comment",
        default=None,
        help="why (kept in the audit): required with --select, --reject and --alternatives",
    )
    cmd.add_argument("--id", dest="disruption_id", default=None, help="the disruption id (default: generated)")
    cmd.add_argument("--json", action="store_true", help="print one JSON object instead")
    cmd.set_defaults(run=_run)


def _answer(args, decision: dict, interactive: bool):
    """The duty manager's answer from the flags, or asked on the terminal."""
    from ..workflow.models import ApprovalDecision

    ranked = decision.get("ranked", [])
    who = args.decided_by or getpass.getuser()
    if args.reject:
        return ApprovalDecision(action="reject", decided_by=who, comment=args.comment)
    if args.select:
        if not 1 <= args.select <= len(ranked):
            raise SystemExit(f"skymarshal: --select {args.select}: choose 1 to {len(ranked)}")
        return ApprovalDecision(
            action="select",
            scenario_id=ranked[args.select - 1]["scenario"]["scenario_id"],
            decided_by=who,
            comment=args.comment,
        )
    if args.alternatives and not decision.get("_alternatives_done"):
        return ApprovalDecision(
            action="alternatives", instruction=args.alternatives, decided_by=who, comment=args.comment
        )
    if args.approve or args.alternatives:
        return ApprovalDecision(action="approve", decided_by=who, comment=args.comment)
    if not interactive:
        raise SystemExit("skymarshal: no terminal to ask the duty manager: pass --approve, --select N or --reject")
    while True:
        reply = (
            input(f"\nDecision — [a]pprove #1, [s]elect 1-{len(ranked)}, [m]ore alternatives, [r]eject: ")
            .strip()
            .lower()
        )
        comment = None
        if reply in ("a", "approve"):
            comment = input("Comment (optional): ").strip() or None
            return ApprovalDecision(action="approve", decided_by=who, comment=comment)
        if reply.startswith("s"):
            number = reply[1:].strip() or input("Which rank? ").strip()
            if number.isdigit() and 1 <= int(number) <= len(ranked):
                comment = _reason("Reason for choosing it instead (required): ")
                return ApprovalDecision(
                    action="select",
                    scenario_id=ranked[int(number) - 1]["scenario"]["scenario_id"],
                    decided_by=who,
                    comment=comment,
                )
        if reply in ("m", "more"):
            text = input("What should the alternatives do differently? ").strip()
            if text:
                comment = _reason("Reason for asking for alternatives (required): ")
                return ApprovalDecision(action="alternatives", instruction=text, decided_by=who, comment=comment)
        if reply in ("r", "reject"):
            comment = _reason("Reason for rejecting (required): ")
            return ApprovalDecision(action="reject", decided_by=who, comment=comment)
        print("  please answer a, s N, m or r")


def _reason(question: str) -> str:
    """Asked until given: every override says why."""
    while not (answer := input(question).strip()):
        print("  a reason is required for an override; it goes into the audit")
    return answer


def checked_request(prompt: str, disruption_id: str | None, requested_by: str | None):
    """The run's request, or one line saying what is wrong with the prompt or the id — before anything starts."""
    from pydantic import ValidationError

    from ..models.common import MAX_PROMPT_CHARS
    from ..workflow.client import new_disruption_id
    from ..workflow.models import DisruptionRequest, field_error
    from . import CliError

    if not prompt.strip():
        raise CliError(
            'the prompt is empty: say what happened, e.g. "Flight EY123 on January 20th had a mechanical failure"'
        )
    if len(prompt) > MAX_PROMPT_CHARS:
        raise CliError(f"the prompt is {len(prompt):,} characters: at most {MAX_PROMPT_CHARS:,}, so shorten it")
    try:
        return DisruptionRequest(
            disruption_id=disruption_id or new_disruption_id(), prompt=prompt, source="cli", requested_by=requested_by
        )
    except ValidationError as exc:
        message = field_error(exc, "analyze")
        if disruption_id is not None and "disruption_id" in message:
            raise CliError(f"--id {disruption_id!r}: {exc.errors()[0]['msg'].removeprefix('Value error, ')}") from None
        raise CliError(message) from None


def _run(args) -> int:
    from ..local.workflow import local_client

    def echo(message: str) -> None:
        print(message, file=sys.stderr)

    request = checked_request(args.prompt, args.disruption_id, args.decided_by)
    # An override from the flags is checked before the run starts, like a bad prompt: its reason, its instruction.
    flags = [("alternatives", None, args.alternatives), ("select", "rank checked later", args.select)]
    flags.append(("reject", None, args.reject))
    for action, scenario, on in flags:
        if not on:
            continue
        from ..workflow.models import missing_for_action
        from . import CliError

        if (problem := missing_for_action(action, scenario, args.alternatives, args.comment)) is not None:
            hint = " (--reason TEXT)" if "reason is required" in problem else ""
            raise CliError(f"--{action}: {problem}{hint}")
    interactive = sys.stdin.isatty() and not args.json
    if not interactive and not (args.approve or args.reject or args.select or args.alternatives):
        # Said before the run starts: otherwise it would wait for an answer this command cannot give.
        from . import CliError

        raise CliError("no terminal to ask the duty manager: pass --approve, --select N or --reject")
    with control.account(echo=echo) as account:
        client = local_client(account, echo=echo)
        started = client.start(args.prompt, disruption_id=request.disruption_id, requested_by=args.decided_by)
        name = started["execution_name"]
        progress = Progress(quiet=args.json)
        progress.header(name, args.prompt, started["started"])
        state = client.follow(name, on_progress=progress.update)
        decision, asked_alternatives = None, False
        while state.awaiting_approval:
            decision = client.decision(name)
            if not args.json:
                render_decision(decision)
            answer = _answer(args, {**decision, "_alternatives_done": asked_alternatives}, interactive)
            asked_alternatives |= answer.action == "alternatives"
            client.decide(name, answer)
            progress.note(
                f"{answer.action} by {answer.decided_by}" + (f" ({answer.scenario_id})" if answer.scenario_id else "")
            )
            state = client.follow(name, on_progress=progress.update)
        described = client.describe(name)
        output = client.output(name) or {}
        status = _status(described, output)
        decision = decision or client.decision(name)
        understood = (output.get("request") or {}).get("disruption")
        if not decision and understood and not args.json:  # escalated before arbitration: say what was understood
            render_understood(understood)
        audit = client.audit(name)
        path = write_audit(name, audit)
    result = {
        "status": status,
        "disruption_id": started["disruption_id"],
        "execution": name,
        "decision": decision,
        "approval": output.get("approval"),
        "actions": (output.get("execution") or {}).get("actions", []),
        "outcome": output.get("outcome"),
        "escalation": output.get("escalation"),
        "disruption": understood,
        "audit_path": str(path),
        "error": described.get("error"),
        "message": _failure(described),
    }
    if args.json:
        print_json(result)
    else:
        progress.finish(result)
    return EXIT[status]


def _status(described: dict, output: dict) -> str:
    if described["status"] == "SUCCEEDED":
        return (output.get("outcome") or {}).get("status", "failed")
    return "input_error" if described.get("error") in ("InvalidDisruption", "InputError") else "failed"


def _failure(described: dict) -> str | None:
    """The error's message, not its JSON envelope (a Lambda error's cause is {"errorMessage": ...})."""
    cause = described.get("cause")
    if not cause:
        return None
    try:
        return json.loads(cause).get("errorMessage", cause)
    except (ValueError, AttributeError):
        return cause
