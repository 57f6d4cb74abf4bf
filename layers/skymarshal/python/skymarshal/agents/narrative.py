"""The recommendation and reasoning text: rendered from the findings offline, or written by an LLM.

Either way the text is only text: binding constraints are attached afterwards from the rules engine.
"""

from __future__ import annotations

import json

from pydantic import BaseModel, Field

from ..analysis.base import Analysis
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


def llm_narrative(llm, agent: str, phase: str, prompt: str, analysis: Analysis, others: dict | None) -> Narrative:
    template = prompt_text(load_behaviour().for_agent(agent).prompt)
    text = template.format(
        agent=agent, prompt=prompt.replace(">>>", "> > >"), phase=phase, facts=json.dumps(analysis.facts),
        findings=json.dumps([{"clause": f.clause, "status": f.status, "message": f.message}
                             for f in analysis.findings if f.status != "legal"][:40]),
        proposals=json.dumps([p.title for p in analysis.proposals]),
        others=json.dumps({name: r.get("recommendation") for name, r in (others or {}).items()}))
    return llm.with_structured_output(Narrative).invoke(text)
