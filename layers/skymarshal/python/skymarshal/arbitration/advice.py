"""The arbitrator model advises; the rules rank.

One model call, in a daemon thread the arbitrator stops waiting for at its deadline (a stalled model then
costs nothing but the wait: the rules' ranking and rendered text stand). What the reply may change:
- the order, only among the valid plans within the configured score margin of the best (narrative.apply_order);
- the justification and reasoning, only if the reply asked for nothing the rules refuse, the texts fit their
  length limits, and neither argues a binding constraint away (llm/text_guard.py).
Everything refused, discarded, cut or replaced is recorded as an LlmOverride, and every failure is logged with
its typed reason (llm/failures.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..llm import failures, text_guard
from ..llm.provider import Limits
from .models import Citation, LlmOverride, RankedScenario
from .narrative import LlmArbitration, apply_order, cite

Render = Callable[[list[RankedScenario]], tuple[str, str]]  # final order → (justification, reasoning)


@dataclass
class Advice:
    ranked: list[RankedScenario]
    justification: str
    reasoning: str
    llm: str
    overrides: list[LlmOverride] = field(default_factory=list)


def advise(
    llm,
    call: Callable[[], LlmArbitration],
    *,
    ranked: list[RankedScenario],
    rejected,
    render: Render,
    binding: list[str],
    limits: Limits,
    seconds: float,
    citations: Sequence[Citation] = (),
) -> Advice:
    model = failures.model_name(llm)
    justification, reasoning = render(ranked)
    try:
        if seconds <= 0:
            raise failures.ModelDeadline("no time left for the model before the arbitrator's deadline")
        written = failures.call_with_deadline(call, seconds, name="arbitrator-model")
        if not isinstance(written, LlmArbitration):
            written = LlmArbitration.model_validate(written)
    except Exception as exc:  # the computed decision stands; say the model failed and why
        reason = failures.record(exc, model=model, agent="arbitrator", stage="arbitrate")
        return Advice(ranked, justification, reasoning, f"offline (fallback: {reason})")
    ordered, overrides = apply_order(ranked, written.preferred_order, rejected, limits.reorder_margin)
    rendered = render(ordered)
    if overrides:  # a reply asking for what the rules refuse does not get to explain it
        overrides.append(
            LlmOverride(
                requested="justification",
                reason=(
                    "discarded: the reply asked for an order the rules refuse; the rendered justification stands "
                    f"(model wrote: {' '.join(written.justification.split())[:200]!r})"
                ),
            )
        )
        return Advice(ordered, *rendered, model, overrides)
    texts = []
    for name, value, limit, fallback in (
        ("justification", written.justification, limits.justification_chars, rendered[0]),
        ("reasoning", written.reasoning, limits.reasoning_chars, rendered[1]),
    ):
        kept, note = text_guard.checked(value, limit, binding)
        if note:
            overrides.append(LlmOverride(requested=name, reason=note))
        texts.append(kept if kept is not None else fallback)
    justification, reasoning = texts
    if citations and kept_model_text(texts[0], rendered[0]) and not any(c.section in justification for c in citations):
        justification += " Sources: " + " ".join(cite(c) for c in citations) + "."
    reorder, note = text_guard.checked(written.reorder_reason, 400, binding)
    if reorder and ordered != ranked:
        reasoning += f" Order changed by the model: {reorder}"
    elif note and written.reorder_reason:
        overrides.append(LlmOverride(requested="reorder_reason", reason=note))
    return Advice(ordered, justification, reasoning, model, overrides)


def kept_model_text(kept: str, rendered: str) -> bool:
    return kept is not rendered
