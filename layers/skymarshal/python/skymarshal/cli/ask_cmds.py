"""`skymarshal ask "QUESTION" [--json] [--thread ID]`: one question to the operations assistant.

Offline by default (deterministic planner, template answers; no AWS, no LLM); with a chat model when
SKYMARSHAL_LLM_PROVIDER names one. ``--thread`` keeps a conversation across invocations: the checkpointer
then defaults to sqlite (SKYMARSHAL_ASSISTANT_SQLITE_PATH, default .skymarshal/assistant-threads.sqlite).
"""

from __future__ import annotations

import os

from .common import print_json


def register(commands) -> None:
    cmd = commands.add_parser("ask", help="ask the operations assistant about airports, alternates or rules")
    cmd.add_argument("question")
    cmd.add_argument("--json", action="store_true", help="print answer, plan and ui_payload (and more) as JSON")
    cmd.add_argument("--thread", help="conversation id: follow-up questions on the same id share memory")
    cmd.set_defaults(run=_run)


def _run(args) -> int:
    from ..assistant.config import AssistantConfigError, AssistantSettings
    from ..assistant.graph import Assistant, checkpointer_for
    from .common import CliError

    if not args.question.strip():
        raise CliError('the question is empty: ask e.g. skymarshal ask "What are the curfew rules at Frankfurt?"')
    env = dict(os.environ)
    if args.thread and "SKYMARSHAL_ASSISTANT_CHECKPOINTER" not in env:
        env["SKYMARSHAL_ASSISTANT_CHECKPOINTER"] = "sqlite"  # a thread must outlive this process
    try:
        settings = AssistantSettings.from_env(env)
        if args.thread and settings.checkpointer != "sqlite":
            raise CliError(
                f"--thread needs SKYMARSHAL_ASSISTANT_CHECKPOINTER=sqlite (it is {settings.checkpointer}): "
                "an in-memory conversation ends with this command"
            )
        with checkpointer_for(settings) as saver:
            reply = Assistant(settings=settings, checkpointer=saver).ask(args.question, args.thread)
    except (AssistantConfigError, ValueError) as exc:
        raise CliError(str(exc)) from None
    if args.json:
        print_json(reply.model_dump(mode="json"))
    else:
        print(reply.answer)
        if reply.ui_payload.get("suggested_queries"):
            print("\nYou could also ask:")
            for query in reply.ui_payload["suggested_queries"]:
                print(f"  - {query}")
    return 0
