"""Run one agent on one prompt: a thread per (execution, agent, phase), an internal deadline below the
Lambda timeout, lifecycle records (start, decision, error, completion), never an exception for bad input.

A deadline overrun returns a degraded response at once; for a safety agent that is the most restrictive
constraint (no dispatch) with the reason.
"""

from __future__ import annotations

import logging
import time
import uuid
from datetime import UTC, datetime
from typing import Any

from ..checkpoint.guarded import CheckpointStoreDown, GuardedSaver, memory_copy_of_last
from ..checkpoint.registry_memory import InMemoryThreadRegistry
from ..checkpoint.threads import BaseThreadRegistry, thread_id
from ..data.access import DataHandle
from ..data.overlay import Overlay
from ..data.schema import AGENTS
from ..llm import failures
from ..models.agent_response import AgentResponse, Phase
from ..models.debate import StatedConflict
from ..models.disruption import Disruption
from .graph import build_graph, failure_response

log = logging.getLogger("skymarshal.agents")
DEFAULT_DEADLINE_SECONDS = 30.0
# In process (CLI, local runner, tests) the seven agents of a round share this machine's cores instead of
# having a Lambda each, so a wall-clock deadline must leave room for an agent that is only queued.
LOCAL_DEADLINE_SECONDS = 180.0
_UNSET = object()


def run_agent(
    agent: str,
    prompt: str,
    *,
    handle: DataHandle,
    phase: Phase = "initial",
    others: dict | None = None,
    now: datetime | None = None,
    llm: Any = _UNSET,
    execution_id: str | None = None,
    checkpointer: Any = None,
    registry: BaseThreadRegistry | None = None,
    deadline_seconds: float = DEFAULT_DEADLINE_SECONDS,
    disruption: Disruption | None = None,
    overlay: Overlay | None = None,
    conflict: StatedConflict | None = None,
) -> AgentResponse:
    """One agent's response. `disruption` and `overlay`: the report's facts as Validate resolved them; the agent
    then analyses that flight through the what-if overlay instead of reading the prompt again. `conflict`: a
    debate round's stated conflict (phase "debate"; its round names the agent's thread)."""
    if phase == "debate" and conflict is None:
        raise ValueError("a debate round needs the conflict it is told (its round number names the thread)")
    if agent not in AGENTS:
        raise ValueError(f"unknown agent {agent!r}; expected one of {', '.join(AGENTS)}")
    configuration = None
    if llm is _UNSET:
        from ..llm.profiles import ModelConfigError
        from ..llm.provider import chat_model

        try:
            llm = chat_model("agent", agent)
        except ModelConfigError as exc:  # logged once per call with its one-line reason; the rules' text stands
            configuration = failures.record(exc, model="(configuration)", agent=agent, stage="configure")
            llm = None
    started = time.monotonic()
    execution_id = execution_id or f"local-{uuid.uuid4().hex[:12]}"
    thread_phase = f"debate-{conflict.round}" if phase == "debate" and conflict else phase
    thread = thread_id(execution_id, agent, thread_phase)
    registry = registry or InMemoryThreadRegistry()
    registry.start(execution_id, agent, thread_phase, detail={"prompt_chars": len(prompt or "")})
    # One read cache per invocation: the analysis re-reads rows (a crew member's duties, a tail's work orders).
    reader = handle.for_agent(agent).with_overlay(overlay).with_read_cache()
    state = {
        "agent": agent,
        "phase": phase,
        "prompt": prompt if isinstance(prompt, str) else "",
        "now": (now or datetime.now(UTC)).isoformat(),
        "others": others or {},
        "conflict": conflict.model_dump(mode="json") if conflict else None,
    }
    config = {"configurable": {"thread_id": thread}}
    saver = GuardedSaver(checkpointer) if checkpointer is not None else None
    stored = "none" if checkpointer is None else "stored"

    def invoke() -> dict:
        nonlocal stored
        try:
            return build_graph(agent, reader, llm, saver, disruption).invoke(state, config)
        except CheckpointStoreDown as exc:  # seed 003: continue in memory, once, from the last checkpoint
            memory, resumed = memory_copy_of_last(checkpointer, config)
            stored = f"memory (checkpoint store unavailable: {exc}; retried once from {'its last checkpoint' if resumed else 'the start'})"
            registry_note(registry, thread, stored)
            return build_graph(agent, reader, llm, memory, disruption).invoke(None if resumed else state, config)

    try:  # a daemon thread, never joined past the deadline: a stuck model holds neither caller nor exit
        result = failures.call_with_deadline(invoke, deadline_seconds, name=f"agent-{agent}")
        response = AgentResponse.model_validate(result["response"])
    except failures.ModelDeadline:
        response = failure_response(agent, phase, {}, f"no answer within the {deadline_seconds:.0f} s deadline")
    except Exception as exc:  # a bug, not bad input: report it as an error response, never a traceback
        response = failure_response(agent, phase, {}, f"{type(exc).__name__}: {exc}", status="error")
    update: dict = {"duration_ms": int((time.monotonic() - started) * 1000), "checkpoints": stored}
    if configuration and response.status == "ok":
        update["llm"] = f"offline (fallback: {configuration})"
    response = response.model_copy(update=update)
    if response.status in ("ok", "degraded", "input_error"):
        registry.record(
            thread,
            "decision",
            confidence=response.confidence,
            detail={"status": response.status, "binding": len(response.binding_constraints)},
        )
        registry.complete(thread, confidence=response.confidence, detail={"status": response.status})
    else:
        registry.fail(thread, response.message or "error")
    return response


def registry_note(registry: BaseThreadRegistry, thread: str, note: str) -> None:
    """The fallback in the thread's records when the registry can take it (it shares the store that failed)."""
    try:
        registry.record(thread, "checkpoint_store_down", detail={"checkpoints": note[:500]})
    except Exception:  # the response carries the note into the round's audit record either way
        log.warning("thread %s: %s (not recorded in the registry either)", thread, note)
