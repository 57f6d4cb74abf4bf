"""The arbitrator's words: rendered from the analysis offline, or written by an LLM that may reorder only
among valid scenarios. Whatever the model returns, an id it names that is not valid is refused and the
refusal recorded (LlmOverride); the ranking it cannot reach is the rules engine's."""

from __future__ import annotations

import json

from pydantic import BaseModel, Field

from ..llm.provider import load_behaviour, prompt_text
from .models import Citation, LlmOverride, RankedScenario, ResolutionDetail, ValidatedScenario


class LlmArbitration(BaseModel):
    preferred_order: list[str] = Field(description="ids of the VALID scenarios, best first")
    reorder_reason: str = Field("", description="why the order differs from the computed one, if it does")
    justification: str = Field(description="3-6 sentences for the duty manager, citing [document § section]")
    reasoning: str = Field(description="how the conflicts between the agents were resolved")


def cite(c: Citation) -> str:
    return f"[{c.document} § {c.section}]"


def offline_text(
    ranked: list[RankedScenario],
    rejected: list[ValidatedScenario],
    resolutions: list[ResolutionDetail],
    citations: list[Citation],
) -> tuple[str, str]:
    """Justification and reasoning rendered from the computed decision."""
    if not ranked:
        reasons = sorted({r.code for v in rejected for r in v.rejections})
        return (
            "No recovery scenario satisfies every binding constraint (" + ", ".join(reasons) + "): the decision "
            "goes to the duty manager. " + " ".join(cite(c) for c in citations[:2])
        ), "Every scenario, including cancellation, was rejected by the rules; nothing may be executed automatically."
    top = ranked[0]
    s = top.scenario
    kept = [c for c in top.compliance if c.status != "illegal" and c.source == "rules"]
    text = [
        f"Recommended: {s.title} (score {top.score:.2f}, confidence {top.confidence:.0%}).",
        "It keeps every binding constraint: "
        + "; ".join(f"{c.constraint} — {c.message.rstrip('.')}" for c in kept[:5])
        + ".",
        f"Passengers: {s.passengers_impacted} affected, arrival {s.arrival_delay_minutes} min late; cost USD "
        f"{s.cost_usd:,.0f}; {s.downstream_flights_delayed} later flight(s) delayed.",
        top.precedent + ".",
    ]
    if len(ranked) > 1:
        text.append(
            "Next: " + "; ".join(f"#{r.rank} {r.scenario.title} (score {r.score:.2f})" for r in ranked[1:]) + "."
        )
    if rejected:
        text.append(
            f"{len(rejected)} scenario(s) rejected by the rules, e.g. {rejected[0].scenario.title}: "
            f"{rejected[0].rejections[0].message.rstrip('.')}."
        )
    if citations:
        text.append("Sources: " + " ".join(cite(c) for c in citations) + ".")
    reasoning = (
        " ".join(
            f"{r.conflict.conflict_type.replace('_', ' ')}: {r.conflict.description} → {r.resolution}. {r.rationale}"
            for r in resolutions[:6]
        )
        or "No conflict between the agents' outputs."
    )
    return " ".join(text), reasoning


def llm_text(
    llm,
    prompt: str,
    flight: str,
    ranked: list[RankedScenario],
    rejected: list[ValidatedScenario],
    resolutions: list[ResolutionDetail],
    citations: list[Citation],
) -> LlmArbitration:
    template = prompt_text(load_behaviour().arbitrator.prompt)
    text = template.format(
        prompt=prompt.replace(">>>", "> > >"),
        flight=flight,
        valid=json.dumps(
            [
                {
                    "id": r.scenario.scenario_id,
                    "title": r.scenario.title,
                    "score": r.score,
                    "pros": r.pros,
                    "cons": r.cons,
                }
                for r in ranked
            ]
        ),
        rejected=json.dumps(
            [
                {"id": v.scenario.scenario_id, "title": v.scenario.title, "why": [x.message for x in v.rejections[:2]]}
                for v in rejected
            ][:12]
        ),
        conflicts=json.dumps(
            [
                {"type": r.conflict.conflict_type, "what": r.conflict.description, "resolution": r.resolution}
                for r in resolutions
            ][:10]
        ),
        sources=json.dumps([{"cite": cite(c), "text": c.excerpt} for c in citations]),
    )
    return llm.with_structured_output(LlmArbitration).invoke(text)


def apply_order(
    ranked: list[RankedScenario], requested: list[str], rejected: list[ValidatedScenario], margin: float = 0.0
) -> tuple[list[RankedScenario], list[LlmOverride]]:
    """The LLM's order, where the rules allow it, re-numbered. The model may reorder only the valid scenarios
    scoring within `margin` of the best one; an id beyond the margin, rejected by the rules or not on offer is
    refused and recorded, and everything it does not reach keeps the rules' order."""
    by_id = {r.scenario.scenario_id: r for r in ranked}
    why = {v.scenario.scenario_id: "; ".join(x.message for x in v.rejections[:2]) for v in rejected}
    best = ranked[0].score if ranked else 0.0
    eligible = [r.scenario.scenario_id for r in ranked if r.score >= best - margin - 1e-9]
    overrides, order = [], []
    for scenario_id in requested:
        if scenario_id in eligible and scenario_id not in order:
            order.append(scenario_id)
        elif scenario_id in by_id and scenario_id not in eligible:
            # Promoting it would bury a better plan: only within the margin, never beyond.
            if requested.index(scenario_id) + 1 < by_id[scenario_id].rank:  # asked to move it up
                overrides.append(
                    LlmOverride(
                        requested=scenario_id,
                        reason=(
                            f"score {by_id[scenario_id].score:.2f} is {best - by_id[scenario_id].score:.2f} below the best valid "
                            f"plan ({best:.2f}); the model may reorder only within {margin:.2f} of it: the rules' order stands"
                        ),
                    )
                )
        elif scenario_id not in by_id:
            overrides.append(
                LlmOverride(
                    requested=scenario_id,
                    reason=(
                        f"rejected by the rules: {why[scenario_id]}"
                        if scenario_id in why
                        else "not a scenario on offer"
                    ),
                )
            )
    order += [i for i in eligible if i not in order]
    order += [r.scenario.scenario_id for r in ranked if r.scenario.scenario_id not in order]
    return [by_id[i].model_copy(update={"rank": n}) for n, i in enumerate(order, start=1)], overrides
