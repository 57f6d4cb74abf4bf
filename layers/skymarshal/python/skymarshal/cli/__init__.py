"""`skymarshal` command line: one parser, subcommands registered by the modules beside this one.

Bad arguments exit with code 2 and one line saying what is wrong; failures exit 1 with a message, never
a stack trace: a failure the command anticipated says what to do; local AWS not answering says so; anything
else is reported on one line with its traceback written to `$SKYMARSHAL_HOME/cli-errors.log`
(`SKYMARSHAL_DEBUG=1` lets it through instead).
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from contextlib import nullcontext
from datetime import UTC, datetime

from . import (
    agent_cmds,
    analyze_cmds,
    ask_cmds,
    data_cmds,
    demo_cmds,
    history_cmds,
    local_cmds,
    quarantine_cmds,
    recover_cmds,
    replay_cmds,
    rules_cmds,
    run_cmds,
    serve_cmds,
)
from .common import CliError


class Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> Parser:
    parser = Parser(prog="skymarshal", description="Airline disruption management (SkyMarshal).")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for module in (
        local_cmds,
        data_cmds,
        demo_cmds,
        rules_cmds,
        agent_cmds,
        analyze_cmds,
        run_cmds,
        history_cmds,
        serve_cmds,
        ask_cmds,
        recover_cmds,
        replay_cmds,
        quarantine_cmds,
    ):
        module.register(commands)
    return parser


def _reported_errors() -> tuple[type[Exception], ...]:
    """Failures a user can act on, reported on one line: the message says what was wrong and what to do."""
    from ..llm.profiles import ModelConfigError
    from ..local.control import LocalError
    from ..local.template import SynthError
    from ..local.workflow import LocalWorkflowMissing, TemplateError
    from ..workflow.approvals import ApprovalError
    from ..workflow.runs.client import RunNotFound

    return (
        CliError,
        SynthError,
        TemplateError,
        LocalWorkflowMissing,
        LocalError,
        ApprovalError,
        RunNotFound,
        TimeoutError,
        ModelConfigError,
    )


def one_line(exc: BaseException) -> str:
    """The exception as one line a user reads: known failures as they are, connection loss and the rest named."""
    from botocore.exceptions import ConnectionClosedError, EndpointConnectionError, ReadTimeoutError

    text = " ".join(str(exc).split())  # a multi-line message (a Rich or pydantic one) on one line
    if isinstance(exc, _reported_errors()):
        return text
    if _error_code(exc) == "ExecutionLimitExceeded":  # no new run now (local AWS short of memory): its line
        return str(exc.response["Error"].get("Message") or text)  # type: ignore[attr-defined]
    if isinstance(exc, (EndpointConnectionError, ConnectionClosedError, ReadTimeoutError, ConnectionError)):
        return (
            f"AWS stopped answering ({text or type(exc).__name__}); if it is local AWS, "
            "check it with `skymarshal local status` and start it with `skymarshal local start`"
        )
    return f"unexpected error: {type(exc).__name__}: {text}"[:500] + f" (details in {_log_unexpected(exc)})"


def _error_code(exc: BaseException) -> str | None:
    response = getattr(exc, "response", None)
    return response.get("Error", {}).get("Code") if isinstance(response, dict) else None


def _log_unexpected(exc: BaseException) -> str:
    """The traceback goes to a file, not the terminal: the user gets one line and a place to look."""
    from ..local import control

    try:
        path = control.home() / "cli-errors.log"
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as log:
            log.write(f"--- {datetime.now(UTC).isoformat()} skymarshal {' '.join(sys.argv[1:])}\n")
            log.write("".join(traceback.format_exception(exc)))
        return str(path)
    except OSError:
        return "no log: the home folder is not writable"


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from .machine_output import machine_output

    try:
        # --json: stdout is the JSON document alone, every log line goes to stderr (restored on every exit path);
        # a failure is reported inside it too: the error path's own imports log (the workflow handlers' "bedrock
        # models"), and a script reading stdout gets the failure as its one document
        with machine_output() if getattr(args, "json", False) else nullcontext():
            return _run(args)
    except BrokenPipeError:  # output piped into `head` and closed: not an error
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (stdout for the rest of the process: never closed)
        return 0


def _run(args: argparse.Namespace) -> int:
    """The command, its failures said on one line (and, under --json, as the one JSON document when the command
    wrote none)."""
    from ..llm.provider import check_models

    try:
        check_models()  # a model id Bedrock would refuse stops here, on one line, not at the first call
        return int(args.run(args) or 0)
    except BrokenPipeError:
        raise
    except KeyboardInterrupt:
        return _failed(args, "interrupted", "KeyboardInterrupt", code=130)
    except Exception as exc:
        if os.environ.get("SKYMARSHAL_DEBUG") == "1" and not isinstance(exc, _reported_errors()):
            raise
        return _failed(args, one_line(exc), type(exc).__name__)


def _failed(args: argparse.Namespace, line: str, error: str, code: int = 1) -> int:
    from .common import print_json
    from .machine_output import document_written

    print(f"skymarshal: {line}", file=sys.stderr)
    if getattr(args, "json", False) and not document_written():
        print_json({"status": "error", "error": error, "message": line})
    return code
