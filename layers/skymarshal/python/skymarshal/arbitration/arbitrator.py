"""The arbitrator: revised collation + original prompt → seed 000's ArbitratorOutput, with ranked scenarios,
citations and escalation flags.

Order of work: find the flight the agents analysed; build the safety bounds; generate scenarios; validate
each (zero tolerance); rank the valid ones; identify conflicts; retrieve sources; write the text (offline, or
an LLM that may only reorder valid scenarios); decide whether a human must take over.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..data import queries as q
from ..data.access import DataHandle
from ..data.schema import SAFETY_AGENTS
from ..llm import failures
from ..llm.profiles import ModelConfigError
from ..llm.provider import deadline_s as role_deadline_s
from ..llm.provider import load_behaviour
from ..models.agent_response import AgentResponse
from ..models.debate import DebateRecord
from ..models.disruption import Disruption
from ..network.objectives import NetworkPlanConfig
from . import knowledge, ranking, sensitivity
from .actions import describe
from .advice import advise
from .conflicts import identify
from .context import load_context, request_flight
from .crew.contacts import crew_to_contact, moved_flights
from .debate.rule import agreement
from .instructions.grammar import apply_constraints, apply_preferences, read_instruction
from .memo_keys import RosteredIds
from .models import (
    ArbitratorOutput,
    Escalation,
    InstructionRemoval,
    RankedScenario,
    ReadInstruction,
    Sensitivity,
    ValidatedScenario,
)
from .narrative import llm_text, offline_text
from .plans.generator import generate
from .validation.scenario import validate

_UNSET: Any = object()
FINISH_RESERVE_S = 5.0  # of the arbitrator's deadline, kept for citations, escalations and the output
NOT_ASSESSED = Sensitivity(
    delay_plus_30="not assessed (outside the top three)",
    delay_minus_30="not assessed",
    one_spare_fewer="not assessed",
    one_reserve_more="not assessed",
)


class ArbitratorConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    weights: ranking.RankingWeights = Field(default_factory=ranking.RankingWeights)
    top_n: int = Field(3, ge=1)
    low_confidence: float = Field(0.5, ge=0, le=1)  # below this the decision goes to a human
    agent_confidence_gap: float = Field(0.5, ge=0, le=1)  # max − min agent confidence that escalates (and debates)
    # All rounds a run may have, the initial and the revision round included: 3 to 5 lets one to three debate
    # rounds run when a conflict is open after the revision round (arbitration/debate/rule.py); 2 turns debate off.
    debate_max_rounds: int = Field(5, ge=2, le=5)
    history_limit: int = Field(500, ge=0)
    citations: int = Field(5, ge=0)
    # How far below the best valid plan's score the model may promote a plan; None: behaviour.json's
    # limits.reorder_margin.
    reorder_margin: float | None = Field(None, ge=0, le=1)
    # network disruptions (an airport or airspace over a window): the objectives' weights, optimizer time, horizon
    network: NetworkPlanConfig = Field(default_factory=NetworkPlanConfig)


def arbitrator_deadline_s() -> float:
    return role_deadline_s("arbitrator")


def _limits(config: ArbitratorConfig):
    limits = load_behaviour().limits
    return (
        limits if config.reorder_margin is None else limits.model_copy(update={"reorder_margin": config.reorder_margin})
    )


def _configured_model():
    """The arbitrator's chat model, or None: a model that cannot be configured is logged (typed reason) and the
    rules' ranking and text stand, as for any other model failure."""
    from ..llm.provider import chat_model

    try:
        return chat_model("arbitrator")
    except ModelConfigError as exc:
        failures.record(exc, model="(configuration)", agent="arbitrator", stage="configure")
        return None


def _no_decision(status: str, message: str, escalations: list[Escalation], collation) -> ArbitratorOutput:
    return ArbitratorOutput(
        final_decision=message,
        recommendations=[],
        conflicts_identified=[],
        conflict_resolutions=[],
        safety_overrides=[],
        justification=message,
        reasoning=message,
        confidence=0.0,
        status=status,
        escalations=escalations,
    )


def arbitrate(
    collation: dict[str, AgentResponse | dict],
    prompt: str,
    *,
    handle: DataHandle,
    now: datetime | None = None,
    llm: Any = _UNSET,
    config: ArbitratorConfig = ArbitratorConfig(),
    knowledge_base_id: str | None = None,
    remote_retriever=None,
    exclude: frozenset[str] = frozenset(),
    instruction: str | None = None,
    deadline_s: float | None = None,
    disruption: Disruption,
    debate: DebateRecord | None = None,
) -> ArbitratorOutput:
    """`exclude`: scenario ids the duty manager has seen and set aside (they asked for alternatives);
    `instruction`: what they asked for instead, passed to the LLM (offline it is recorded in the reasoning);
    `deadline_s`: the whole arbitration's deadline (default SKYMARSHAL_ARBITRATOR_DEADLINE_SECONDS); the model
    gets what is left of it, and past it the rules' ranking and text stand; `disruption`: the report's facts
    (Validate's), the flight and the kind of disruption taken from them and carried into the decision; `debate`: the debate the agents had after the revision round, recorded
    in the decision with what they agreed on the recommended plan."""
    started = time.monotonic()
    deadline = deadline_s if deadline_s is not None else arbitrator_deadline_s()
    try:
        responses = {
            a: r if isinstance(r, AgentResponse) else AgentResponse.model_validate(r) for a, r in collation.items()
        }
    except ValidationError as exc:  # a malformed collation is bad input, reported, never a traceback
        first = exc.errors()[0]
        text = (
            f"The collation is malformed: {'.'.join(str(x) for x in first['loc'])}: {first['msg']}; "
            "pass each agent's AgentResponse as produced by the agents."
        )
        return _no_decision("input_error", text, [Escalation(code="INPUT_ERROR", message=text)], {})
    if llm is _UNSET:
        llm = _configured_model()
    if handle.cache is None:  # one arbitration, one read cache, whoever calls (the workflow's step gives its own)
        handle = handle.with_read_cache()
    now = now or datetime.now(UTC)
    flight = request_flight(handle, disruption)
    if flight is None:
        text = f"The disruption names no flight the data holds ({disruption.summary()}): nothing to arbitrate."
        return _no_decision("input_error", text, [Escalation(code="INPUT_ERROR", message=text)], responses)
    escalations = [
        Escalation(
            code="SAFETY_AGENT_FAILED",
            message=f"{a}: {responses[a].message or responses[a].status}" if a in responses else f"{a}: no result",
        )
        for a in SAFETY_AGENTS
        if a not in responses or responses[a].status != "ok"
    ]
    ctx = load_context(prompt, flight, responses, handle, now, disruption)
    validated = [validate(ctx, s) for s in generate(ctx) if s.scenario_id not in exclude]
    read, instruction_notes = _read_instruction(instruction, llm)
    valid, removed = apply_constraints(read, [v for v in validated if v.valid], flight.flight_number)
    rejected = [v for v in validated if not v.valid]
    history = (
        q.past_disruptions(handle, ctx.disruption_type, limit=config.history_limit) if config.history_limit else []
    )
    ranked = apply_preferences(read, _rank(ctx, valid, rejected, history, responses, config))
    resolutions, overrides = identify(responses, validated, ctx.bounds)
    citations, mode = _sources(ctx, ranked, rejected, config, knowledge_base_id, remote_retriever)

    def render(order):
        return offline_text(order[: config.top_n], rejected, resolutions, citations)

    justification, reasoning = render(ranked)
    llm_name, llm_overrides = "offline", []
    if llm is not None and ranked:
        asked = f"{prompt}\n\nThe duty manager asked for alternatives: {instruction}" if instruction else prompt
        flight_text = (
            f"{flight.flight_number} {flight.origin}-{flight.destination} "
            f"{flight.scheduled_departure:%Y-%m-%d %H:%MZ} on {flight.aircraft_registration}"
        )
        remaining = deadline - (time.monotonic() - started) - FINISH_RESERVE_S
        advice = advise(
            llm,
            lambda: llm_text(llm, asked, flight_text, ranked, rejected, resolutions, citations),
            ranked=ranked,
            rejected=rejected,
            render=render,
            limits=_limits(config),
            binding=sorted({c for r in responses.values() for c in r.binding_constraints}),
            seconds=remaining,
            citations=citations,
        )
        ranked, justification, reasoning = advice.ranked, advice.justification, advice.reasoning
        llm_name, llm_overrides = advice.llm, advice.overrides
    # Sensitivity for whatever ends in the top three, after any reorder the model was allowed.
    ranked = _assess(ctx, ranked, valid, rejected, config.top_n)
    if exclude or read is not None:
        reasoning += _alternatives_text(read, exclude, removed) + "".join(f" {n}." for n in instruction_notes)
    if not valid and removed:  # the instruction, not a safety constraint, left nothing
        escalations.append(
            Escalation(
                code="NO_VALID_SCENARIO",
                message="the duty manager's instruction removed every valid plan: "
                + "; ".join(f"{r.scenario_id} ({r.constraint})" for r in removed),
            )
        )
    elif not valid:
        escalations.append(
            Escalation(
                code="NO_VALID_SCENARIO",
                message="every scenario, cancellation included, breaks a "
                "binding constraint: " + "; ".join(sorted({r.code for v in rejected for r in v.rejections})),
            )
        )
    escalations += _confidence_escalations(responses, ranked, config)
    top = ranked[: config.top_n]
    if debate is not None:
        actions: list[tuple[str, str]] = [(a.kind, describe(a)) for a in top[0].scenario.actions] if top else []
        debate = debate.model_copy(update={"agreement": agreement(actions, debate.open_issues)})
    decision = (
        f"{top[0].scenario.title} ({top[0].scenario.scenario_id})"
        if top
        else f"Escalate {flight.flight_number}: no valid recovery scenario"
    )
    return ArbitratorOutput(
        final_decision=decision,
        recommendations=[f"#{r.rank} {r.scenario.title}: {r.rationale}" for r in top],
        conflicts_identified=[r.conflict for r in resolutions],
        conflict_resolutions=resolutions,
        safety_overrides=overrides,
        justification=justification,
        reasoning=reasoning,
        confidence=top[0].confidence if top else 0.0,
        status="escalated" if escalations else "decided",
        flight_id=flight.flight_id,
        disruption=disruption,
        ranked=top,
        rejected=rejected,
        also_valid=[r.scenario.scenario_id for r in ranked[config.top_n :]],
        citations=citations,
        knowledge_mode=mode,
        escalations=escalations,
        llm=llm_name,
        llm_overrides=llm_overrides,
        weights=config.weights.as_dict(),
        scenarios_considered=len(validated),
        debate=debate,
        instruction=read,
        removed_by_instruction=removed,
        estimate=disruption.clears,
        redecide_at=disruption.clears.latest if disruption.clears else None,
    )


def _read_instruction(instruction: str | None, llm: Any) -> tuple[ReadInstruction | None, list[str]]:
    """The grammar's reading of the duty manager's instruction; with a model, completed where the grammar failed."""
    if not instruction:
        return None, []
    if llm is None:
        return read_instruction(instruction), []
    from .instructions.llm import read_instruction_with_model

    return read_instruction_with_model(instruction, llm)


def _alternatives_text(read: ReadInstruction | None, exclude: frozenset[str], removed: list[InstructionRemoval]) -> str:
    """What the request for alternatives did, for the reasoning the duty manager reads."""
    parts = []
    if read is not None and read.refused is not None:
        parts.append(f"Instruction refused: {read.refused.message}.")
    elif read is not None:
        understood = "; ".join(c.describe() for c in read.constraints) or "no constraint"
        parts.append(f"Alternatives requested: {read.text} — understood as {understood}.")
        if read.not_understood:
            parts.append("Not understood: " + "; ".join(f"“{w}”" for w in read.not_understood) + ".")
        if removed:
            parts.append("Removed by it: " + "; ".join(f"{r.scenario_id} ({r.constraint})" for r in removed) + ".")
    if exclude:
        parts.append("Set aside: " + ", ".join(sorted(exclude)) + ".")
    return " " + " ".join(parts)


def _rank(
    ctx, valid: list[ValidatedScenario], rejected, history, collation, config: ArbitratorConfig
) -> list[RankedScenario]:
    valid = [_with_contacts(ctx, v) for v in valid]
    route = (ctx.flight.origin, ctx.flight.destination)
    precedents = [ranking.precedent(v.scenario, history, ctx.flight.aircraft_type, route) for v in valid]
    order = ranking.rank_order(
        valid,
        config.weights,
        precedents,
        flight_hold=ctx.holds_the_flight,
        hold_ends=ctx.clears.expected if ctx.clears else None,
    )
    safety = [collation[a].confidence for a in SAFETY_AGENTS if a in collation]
    safety_confidence = min(safety) if safety else 0.0
    weights = config.weights.as_dict()
    ranked = []
    for position, (i, score, norm, raw) in enumerate(order):
        v = valid[i]
        rival = max((sc for j, sc, _, _ in order if valid[j].scenario.kind != v.scenario.kind), default=None)
        best = max(norm, key=lambda c: norm[c] * weights[c])
        ranked.append(
            RankedScenario(
                rank=position + 1,
                scenario=v.scenario,
                score=score,
                criteria={k: round(x, 3) for k, x in norm.items()},
                confidence=ranking.confidence(v, score, rival, safety_confidence, raw["execution_reliability"]),
                rationale=f"valid under every binding constraint; strongest on {best.replace('_', ' ')}",
                pros=v.scenario.pros,
                cons=v.scenario.cons,
                compliance=v.checks,
                precedent=precedents[i].text,
                sensitivity=NOT_ASSESSED,
            )
        )  # assessed once the final order is known (_assess)
    return ranked


def _with_contacts(ctx, v: ValidatedScenario) -> ValidatedScenario:
    """The plan with the count of crew its execution must call (the execution-risk criterion counts them)."""

    def rostered(flight_id: str) -> list[str]:
        return ctx.memo(RosteredIds(flight_id), lambda: [d.crew_id for d in q.crew_assignments(ctx.handle, flight_id)])

    crew = {fid: rostered(fid) for fid in moved_flights(v.scenario)}
    counted = v.scenario.model_copy(update={"crew_to_contact": crew_to_contact(v.scenario, crew)})
    return v.model_copy(update={"scenario": counted})


def _assess(
    ctx, ranked: list[RankedScenario], valid: list[ValidatedScenario], rejected, top_n: int
) -> list[RankedScenario]:
    by_id = {v.scenario.scenario_id: v for v in valid}
    return [
        r.model_copy(update={"sensitivity": sensitivity.analyse(ctx, by_id[r.scenario.scenario_id], valid, rejected)})
        if r.rank <= top_n
        else r
        for r in ranked
    ]


def _sources(ctx, ranked, rejected, config, knowledge_base_id, remote):
    if not config.citations:
        return [], "none"
    queries = [
        f"{ctx.disruption_type} disruption {ranked[0].scenario.kind.replace('_', ' ')} recovery policy precedent"
        if ranked
        else f"{ctx.disruption_type} disruption escalation no valid option"
    ]
    codes = sorted({r.code for v in rejected for r in v.rejections})
    if codes:
        queries.append(" ".join(c.lower().replace("_", " ") for c in codes) + " " + ctx.flight.destination)
    found, modes = [], []
    for query in queries:
        citations, mode = knowledge.retrieve(query, knowledge_base_id=knowledge_base_id, remote=remote)
        found += citations
        modes.append(mode)
    return knowledge.dedupe(found)[: config.citations], next((m for m in modes if m != "bedrock"), modes[0])


def _confidence_escalations(collation, ranked, config) -> list[Escalation]:
    out = []
    scores = [r.confidence for r in collation.values() if r.status == "ok"]
    if scores and max(scores) - min(scores) > config.agent_confidence_gap:
        low = min(collation.values(), key=lambda r: r.confidence if r.status == "ok" else 2)
        out.append(
            Escalation(
                code="AGENT_CONFIDENCE_GAP",
                message=f"agent confidence ranges {min(scores):.2f}–"
                f"{max(scores):.2f} (lowest: {low.agent_name}); a human should review",
            )
        )
    if ranked and ranked[0].confidence < config.low_confidence:
        out.append(
            Escalation(
                code="LOW_CONFIDENCE",
                message=f"arbitrator confidence {ranked[0].confidence:.2f} is below {config.low_confidence:.2f}",
            )
        )
    return out
