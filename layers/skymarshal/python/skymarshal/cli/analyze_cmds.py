"""`skymarshal analyze "PROMPT"`: one disruption through the synthesized state machine on local AWS.

Live progress (each phase, each agent with its status and seconds), the arbitrator's top three, then the
duty manager's decision — asked on a terminal, or given with --approve | --select N | --reject |
--alternatives TEXT | --exclude FLIGHT=REASON (a network decision: those flights left as scheduled, then the new
top approved) — then the execution, the actions applied and the audit file. Exit codes: 0 executed or rejected,
1 not accepted (input error), failed or an --exclude refused, 3 escalated.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys

from ..local import control
from .common import iso_date, print_json
from .render import Progress, render_decision, render_understood, write_audit

EXIT = {"executed": 0, "rejected": 0, "escalated": 3, "input_error": 1, "failed": 1}


def register(commands) -> None:
    cmd = commands.add_parser(
        "analyze", help="analyse a disruption end to end: agents, arbitrator, approval, execution"
    )
    cmd.add_argument(
        "prompt", nargs="?", help='e.g. "Flight EY123 on January 20th had a mechanical failure" (or --mvt FILE)'
    )
    cmd.add_argument(
        "--mvt",
        metavar="FILE",
        default=None,
        help="analyse an IATA movement message (MVT, MVA or DIV) from FILE instead of a report in words; "
        "a malformed message is one line and starts nothing",
    )
    choice = cmd.add_mutually_exclusive_group()
    choice.add_argument("--approve", action="store_true", help="approve the top-ranked plan")
    choice.add_argument("--select", type=int, metavar="N", help="approve the plan ranked N instead")
    choice.add_argument("--reject", action="store_true", help="reject: nothing is executed")
    choice.add_argument("--alternatives", metavar="TEXT", help="ask for other plans (once), then approve the new top")
    choice.add_argument(
        "--exclude",
        type=exclusion,
        action="append",
        metavar="FLIGHT=REASON",
        help="a network decision: leave FLIGHT (its number or id) as scheduled in every plan, then approve the new "
        "top; repeat for more flights (nothing is executed if the exclusion leaves no valid plan)",
    )
    cmd.add_argument("--as", dest="decided_by", default=None, help="the duty manager's name (default: your user)")
    cmd.add_argument(
        "--comment",
        "--reason",
        dest="comment",
        default=None,
        help="why (kept in the audit): required with --select, --reject and --alternatives",
    )
    cmd.add_argument("--id", dest="disruption_id", default=None, help="the disruption id (default: generated)")
    cmd.add_argument(
        "--ops-date",
        type=iso_date,
        default=None,
        help="the operating day the report's 'today' and 'tomorrow' mean, YYYY-MM-DD (default: SKYMARSHAL_OPS_DATE, "
        "else today, or the first day of the data where it starts later, as local data does)",
    )
    cmd.add_argument(
        "--fact",
        dest="facts",
        type=fact,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="correct what the report is read as, checked against the data like the report (repeat for more): "
        "code, family, flights, date, crew_position, window, duration — e.g. --fact code=36 --fact duration=120",
    )
    cmd.add_argument("--json", action="store_true", help="print one JSON object instead")
    cmd.set_defaults(run=_run)


def _report(args) -> str:
    """The report in words, or the movement message in --mvt FILE (read by the message parser first)."""
    from .common import CliError

    if args.mvt is None:
        if args.prompt is None:
            raise CliError(
                'say what happened, e.g. "Flight EY123 on January 20th had a mechanical failure", or --mvt FILE'
            )
        return args.prompt
    if args.prompt is not None:
        raise CliError("give a report in words or --mvt FILE, not both")
    from ..intake.movement import MalformedMessage, read_movement

    try:
        with open(args.mvt, encoding="utf-8") as file:
            text = file.read(8192)
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"--mvt {args.mvt}: cannot read it ({exc.__class__.__name__})") from None
    try:
        read_movement(text)
    except MalformedMessage as exc:
        raise CliError(f"--mvt {args.mvt}: {exc}") from None
    return text.strip()


def fact(text: str) -> tuple[str, str]:
    """--fact KEY=VALUE: one correction, its value checked (a bad one is the one line argparse prints)."""
    from ..models.corrections import CorrectionRefused, parse_fact

    try:
        return parse_fact(text)
    except CorrectionRefused as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def exclusion(text: str) -> tuple[str, str]:
    """--exclude FLIGHT=REASON: the flight and why it stays as scheduled (both required)."""
    flight, _, reason = text.partition("=")
    if not flight.strip() or not reason.strip():
        raise argparse.ArgumentTypeError(f"{text!r}: use FLIGHT=REASON, e.g. EY301='slot already filed'")
    return flight.strip(), reason.strip()


def _flight_ids(decision: dict, wanted: dict[str, str]) -> dict[str, str]:
    """Flight numbers (or ids) → the network tables' flight ids; one line when a flight is in no table."""
    from ..api.views import exclusion_ids

    try:
        return exclusion_ids(decision.get("network"), wanted)
    except ValueError as exc:
        raise SystemExit(f"skymarshal: --exclude: {exc}") from None


def _ask_exclusions(network: dict) -> dict[str, str]:
    """Flights to leave as scheduled, each with its reason, asked until an empty answer."""
    from ..api.views import exclusion_ids

    wanted: dict[str, str] = {}
    while flight := input("Flight to leave as scheduled (number or id; empty when done): ").strip():
        try:
            [flight_id] = exclusion_ids(network, {flight: "-"})
        except ValueError as exc:
            print(f"  {exc}")
            continue
        wanted[flight_id] = _reason(f"Why leave {flight_id} as scheduled (required): ")
    return wanted


def _answer(args, decision: dict, interactive: bool):
    """The duty manager's answer from the flags, or asked on the terminal."""
    from ..workflow.models import ApprovalDecision

    ranked = decision.get("ranked", [])
    network = decision.get("network")
    who = args.decided_by or getpass.getuser()
    if args.exclude and not decision.get("_exclusion_done"):
        flights = _flight_ids(decision, dict(args.exclude))
        return ApprovalDecision(action="exclude", excluded_flights=flights, decided_by=who, comment=args.comment)
    if args.exclude and (refused := (network or {}).get("exclusion_refused")):
        # The plans stand as they were, with the flights the duty manager wanted left alone: nothing is executed.
        return ApprovalDecision(action="reject", decided_by=who, comment=f"--exclude refused: {refused}")
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
    if args.approve or args.alternatives or args.exclude:
        return ApprovalDecision(action="approve", decided_by=who, comment=args.comment)
    if not interactive:
        raise SystemExit("skymarshal: no terminal to ask the duty manager: pass --approve, --select N or --reject")
    choices = f"[a]pprove #1, [s]elect 1-{len(ranked)}, [m]ore alternatives, [r]eject"
    choices += ", e[x]clude flights" if network else ""
    while True:
        reply = input(f"\nDecision — {choices}: ").strip().lower()
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
        if reply in ("x", "exclude") and network:
            if flights := _ask_exclusions(network):
                return ApprovalDecision(action="exclude", excluded_flights=flights, decided_by=who)
            continue
        print("  please answer a, s N, m, r" + (" or x" if network else ""))


def _reason(question: str) -> str:
    """Asked until given: every override says why."""
    while not (answer := input(question).strip()):
        print("  a reason is required for an override; it goes into the audit")
    return answer


def checked_request(prompt: str, disruption_id: str | None, requested_by: str | None):
    """The run's request, or one line saying what is wrong with the prompt or the id — before anything starts."""
    from pydantic import ValidationError

    from ..models.common import MAX_PROMPT_CHARS
    from ..workflow.models import DisruptionRequest, field_error
    from ..workflow.runs.client import new_disruption_id
    from .common import CliError

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

    args.prompt = _report(args)
    request = checked_request(args.prompt, args.disruption_id, args.decided_by)
    # An override from the flags is checked before the run starts, like a bad prompt: its reason, its instruction.
    flags = [("alternatives", None, args.alternatives), ("select", "rank checked later", args.select)]
    flags.append(("reject", None, args.reject))
    for action, scenario, on in flags:
        if not on:
            continue
        from ..workflow.models import missing_for_action
        from .common import CliError

        if (problem := missing_for_action(action, scenario, args.alternatives, args.comment)) is not None:
            hint = " (--reason TEXT)" if "reason is required" in problem else ""
            raise CliError(f"--{action}: {problem}{hint}")
    interactive = sys.stdin.isatty() and not args.json
    if not interactive and not (args.approve or args.reject or args.select or args.alternatives or args.exclude):
        # Said before the run starts: otherwise it would wait for an answer this command cannot give.
        from .common import CliError

        raise CliError("no terminal to ask the duty manager: pass --approve, --select N or --reject")
    with control.account(echo=echo) as account:
        client = local_client(account, echo=echo)
        started = client.start(
            args.prompt,
            disruption_id=request.disruption_id,
            requested_by=args.decided_by,
            ops_date=args.ops_date,
            facts=dict(args.facts),
        )
        name = started["execution_name"]
        progress = Progress(quiet=args.json)
        progress.header(name, args.prompt, started["started"])
        state = client.follow(name, on_progress=progress.update)
        decision, asked_alternatives, asked_exclusion = None, False, False
        while state.awaiting_approval:
            decision = client.decision(name)
            if not args.json:
                render_decision(decision)
                _render_messages(decision, account)
            done = {"_alternatives_done": asked_alternatives, "_exclusion_done": asked_exclusion}
            answer = _answer(args, {**decision, **done}, interactive)
            asked_alternatives |= answer.action == "alternatives"
            asked_exclusion |= answer.action == "exclude"
            client.decide(name, answer)
            progress.note(
                f"{answer.action} by {answer.decided_by}"
                + (f" ({answer.scenario_id})" if answer.scenario_id else "")
                + "".join(f"; {flight}: {why}" for flight, why in answer.excluded_flights.items())
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
    refused = args.exclude and ((decision or {}).get("network") or {}).get("exclusion_refused")
    return 1 if refused and status == "rejected" else EXIT[status]


def _render_messages(decision: dict | None, account) -> None:
    """What each ranked plan will send (issue 36), read from the tables as Execute will read them."""
    from ..workflow.execution.outbox import preview
    from .render_messages import render_messages

    if decision and decision.get("ranked"):
        render_messages(preview(decision, account.handle()))


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
