"""The two analysis rounds in process: the seven agents in parallel, then again with the full collation.

The state machine does the same with two Map states (one Lambda per agent); this is what the CLI, the
tests and the benchmark use when they want the agents without the orchestration.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

from ...agents.runner import LOCAL_DEADLINE_SECONDS, run_agent
from ...data.access import DataHandle
from ...data.schema import AGENTS
from ...models.agent_response import AgentResponse, Phase

_DEFAULT: Any = object()  # let each agent pick its model from the environment
Progress = Callable[[str, str, AgentResponse], None]  # (phase, agent, response)


def collate(responses: dict[str, AgentResponse]) -> dict[str, dict]:
    """The collation the next step reads: every agent's response as JSON, in the registry's order."""
    return {agent: responses[agent].model_dump(mode="json") for agent in AGENTS if agent in responses}


def run_round(
    prompt: str,
    *,
    handle: DataHandle,
    phase: Phase,
    others: dict | None = None,
    now: datetime | None = None,
    llm: Any = _DEFAULT,
    execution_id: str | None = None,
    progress: Progress | None = None,
    **kwargs,
) -> dict[str, AgentResponse]:
    if llm is not _DEFAULT:
        kwargs["llm"] = llm
    kwargs.setdefault("deadline_seconds", LOCAL_DEADLINE_SECONDS)

    def one(agent: str) -> AgentResponse:
        response = run_agent(
            agent, prompt, handle=handle, phase=phase, others=others, now=now, execution_id=execution_id, **kwargs
        )
        if progress:
            progress(phase, agent, response)
        return response

    with ThreadPoolExecutor(max_workers=len(AGENTS), thread_name_prefix=f"round-{phase}") as pool:
        return dict(zip(AGENTS, pool.map(one, AGENTS)))


def run_rounds(
    prompt: str,
    *,
    handle: DataHandle,
    now: datetime | None = None,
    llm: Any = _DEFAULT,
    execution_id: str | None = None,
    progress: Progress | None = None,
    **kwargs,
) -> tuple[dict[str, dict], dict[str, dict]]:
    """Both rounds; returns the initial and the revised collation."""
    initial = collate(
        run_round(
            prompt,
            handle=handle,
            phase="initial",
            now=now,
            llm=llm,
            execution_id=execution_id,
            progress=progress,
            **kwargs,
        )
    )
    revised = collate(
        run_round(
            prompt,
            handle=handle,
            phase="revision",
            others=initial,
            now=now,
            llm=llm,
            execution_id=execution_id,
            progress=progress,
            **kwargs,
        )
    )
    return initial, revised
