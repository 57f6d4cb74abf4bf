"""`skymarshal` command line: one parser, subcommands registered by the modules beside this one.

Bad arguments exit with code 2 and one line saying what is wrong; failures exit 1 with a message, never
a stack trace.
"""

from __future__ import annotations

import argparse
import os
import sys

from . import (
    agent_cmds,
    analyze_cmds,
    ask_cmds,
    data_cmds,
    demo_cmds,
    local_cmds,
    recover_cmds,
    rules_cmds,
    run_cmds,
    serve_cmds,
)


class CliError(Exception):
    """A failure to report on one line (exit 1)."""


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
        serve_cmds,
        ask_cmds,
        recover_cmds,
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
    from ..workflow.client import RunNotFound

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


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        from ..llm.provider import check_models

        check_models()  # a model id Bedrock would refuse stops here, on one line, not at the first call
        return int(args.run(args) or 0)
    except BrokenPipeError:  # output piped into `head` and closed: not an error
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (stdout for the rest of the process: never closed)
        return 0
    except Exception as exc:
        if not isinstance(exc, _reported_errors()):
            raise
        print(f"skymarshal: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("skymarshal: interrupted", file=sys.stderr)
        return 130
