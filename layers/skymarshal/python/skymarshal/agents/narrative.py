"""The recommendation and reasoning text: rendered from the findings offline, or written by an LLM.

Either way the text is only text: binding constraints are attached afterwards from the rules engine.
"""

from __future__ import annotations

import json

from langchain_core.messages import HumanMessage, ToolMessage
from pydantic import BaseModel, Field

from ..analysis.base import Analysis
from ..llm import text_guard
from ..llm.provider import load_behaviour, prompt_text


class Narrative(BaseModel):
    recommendation: str = Field(description="the action this agent recommends, one or two sentences")
    reasoning: str = Field(description="short reasoning over the facts and findings, citing clauses")


def offline_narrative(analysis: Analysis) -> Narrative:
    binding = [f"{f.message} [{f.clause}]" for f in analysis.binding]
    at_risk = [f"{f.message} [{f.clause}]" for f in analysis.findings if f.status == "at_risk"]
    parts = list(analysis.facts)
    if binding:
        parts.append("Binding: " + " ".join(binding[:8]) + (f" (+{len(binding) - 8} more)" if len(binding) > 8 else ""))
    if at_risk:
        parts.append("At risk: " + " ".join(at_risk[:4]))
    checked = sorted({f.clause for f in analysis.findings})
    parts.append(f"Checked: {'; '.join(checked[:10])}." if checked else "No rule applied to the data found.")
    return Narrative(recommendation=analysis.recommendation, reasoning=" ".join(parts))


MAX_TOOL_ROUNDS = 4


def llm_narrative(
    llm, agent: str, phase: str, prompt: str, analysis: Analysis, others: dict | None, tools: list | None = None
) -> Narrative:
    """The model may call the agent's data tools (a bounded loop), then writes the structured narrative."""
    template = prompt_text(load_behaviour().for_agent(agent).prompt)
    text = template.format(
        agent=agent,
        prompt=prompt.replace(">>>", "> > >"),
        phase=phase,
        facts=json.dumps(analysis.facts),
        findings=json.dumps(
            [
                {"clause": f.clause, "status": f.status, "message": f.message}
                for f in analysis.findings
                if f.status != "legal"
            ][:40]
        ),
        proposals=json.dumps([p.title for p in analysis.proposals]),
        others=json.dumps(peer_recommendations(others)),
    )
    messages: list = [HumanMessage(content=text)]
    if tools:
        by_name = {t.name: t for t in tools}
        bound = llm.bind_tools(tools)
        for _ in range(MAX_TOOL_ROUNDS):
            reply = bound.invoke(messages)
            if not getattr(reply, "tool_calls", None):
                break
            messages.append(reply)
            for call in reply.tool_calls:
                chosen = by_name.get(call["name"])
                result = chosen.invoke(call["args"]) if chosen else {"error": f"no tool named {call['name']}"}
                messages.append(ToolMessage(content=json.dumps(result, default=str)[:20000], tool_call_id=call["id"]))
    return llm.with_structured_output(Narrative).invoke(messages)


def _binding_text(analysis: Analysis) -> list[str]:
    return [f"{f.subject}: {f.message} [{f.clause}]" for f in analysis.binding] + list(analysis.limits)


def guard_narrative(text: Narrative, analysis: Analysis) -> tuple[Narrative, list[str]]:
    """The model's narrative, bounded in length, or the rendered one if it argues a binding constraint away;
    with what was done, to record."""
    limits = load_behaviour().limits
    binding = _binding_text(analysis)
    recommendation, note_r = text_guard.checked(text.recommendation, limits.recommendation_chars, binding)
    reasoning, note_w = text_guard.checked(text.reasoning, limits.reasoning_chars, binding)
    notes = [f"{name} {note}" for name, note in (("recommendation", note_r), ("reasoning", note_w)) if note]
    if recommendation is None or reasoning is None:
        return offline_narrative(analysis), notes
    return Narrative(recommendation=recommendation, reasoning=reasoning), notes


def peer_recommendations(others: dict | None) -> dict[str, str]:
    """What the revision prompt shows of the other agents: each recommendation bounded, and withheld if it
    contradicts any binding constraint of the collation (a hostile narrative does not travel)."""
    others = others or {}
    limit = load_behaviour().limits.recommendation_chars
    binding = sorted({c for r in others.values() for c in (r.get("binding_constraints") or [])})
    shown = {}
    for name, response in others.items():
        kept, _ = text_guard.checked(str(response.get("recommendation") or ""), limit, binding)
        shown[name] = kept if kept is not None else "(withheld: it contradicted a binding constraint)"
    return shown
