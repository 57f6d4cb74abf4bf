"""One agent as a LangGraph graph: extract → analyse → explain → finalize.

- extract: `FlightInfo` from the prompt (LLM structured output when a model is configured, else the
  parser); a prompt naming no flight, an unknown flight or an ambiguous day ends at finalize as input_error;
- analyse: the agent's domain analysis over its own tables and the rules engine (in the revision round at
  the delay the other agents' findings imply, see revision.py);
- explain: the recommendation and reasoning text (LLM or rendered offline);
- finalize: the AgentResponse — binding constraints are the rules engine's findings, attached here, after
  any LLM step, so no model can drop or soften one.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, TypedDict, cast

from langgraph.graph import END, START, StateGraph

from ..analysis.base import Analysis
from ..data import queries as q
from ..data.access import DataHandle
from ..intake.extraction import extract_offline, extract_with_llm
from ..intake.extraction_core import FlightInfo
from ..llm import failures
from ..models.agent_response import AgentResponse
from ..models.debate import StatedConflict
from ..models.disruption import Disruption
from ..models.operational import Flight
from ..network.window_analysis import analyse_set, is_network, reused_set_analysis
from .confidence import agent_confidence
from .narrative import guard_narrative, llm_narrative, offline_narrative
from .registry import AGENT_SPECS
from .revision import concede, delay_from_collation, describe_revision
from .tools import agent_tools

REVISING = ("revision", "debate")  # the rounds that read the others' collation and may revise


class AgentState(TypedDict, total=False):
    agent: str
    phase: str
    prompt: str
    now: str  # ISO instant the prompt's relative dates are read against
    others: dict  # the full initial collation (revision round), the previous round's (debate round)
    conflict: dict | None  # a debate round: the conflict stated (models/debate.py StatedConflict)
    extraction: dict
    flight: dict
    analysis: dict
    probed: bool
    basis: str | None
    narrative: dict
    confidence: float  # kept from the first round when its analysis is (a network set's revision)
    llm: str
    error: str
    response: dict


def build_graph(
    agent: str, handle: DataHandle, llm: Any = None, checkpointer: Any = None, disruption: Disruption | None = None
):
    spec = AGENT_SPECS[agent]

    def flight_dates(number: str):
        return [f.flight_date for f in q.flights_by_number(handle, number)]

    def extract(state: AgentState) -> AgentState:
        now = datetime.fromisoformat(state["now"])
        if disruption is not None and disruption.scope.flights:  # resolved once at Validate: not read again
            return from_facts(disruption, q.get_flight(handle, disruption.scope.flights[0]))
        if llm is not None:
            result = extract_with_llm(state["prompt"], llm=llm, now=now, flight_dates=flight_dates, agent=agent)
        else:
            result = extract_offline(state["prompt"], now=now, flight_dates=flight_dates)
        update: AgentState = {"extraction": result.model_dump(mode="json")}
        if result.ok:
            assert result.flight_info is not None  # an "ok" extraction always carries the flight
            flight = q.find_flight(handle, result.flight_info.flight_number, result.flight_info.date)
            if flight is None:  # removed between the date check and this read (e.g. a concurrent import)
                update["extraction"] = {
                    **update["extraction"],
                    "message": f"{result.flight_info.flight_number} on {result.flight_info.date} is no longer "
                    "in the schedule: check the flight and try again",
                }
            else:
                update["flight"] = flight.model_dump(mode="json")
        return update

    def analyse(state: AgentState) -> AgentState:
        if is_network(
            disruption
        ):  # an airport or airspace over a window: every flight in it (network/window_analysis.py)
            assert disruption is not None
            own = (state.get("others") or {}).get(agent) if state["phase"] in REVISING else None
            if own and own.get("status") == "ok":
                return cast(AgentState, reused_set_analysis(agent, own))
            try:
                analysis = analyse_set(
                    agent, spec.analyse, spec.takes_delay, handle, disruption, datetime.fromisoformat(state["now"])
                )
            except Exception as exc:  # as for one flight: an error response, and "no dispatch" from a safety agent
                return {"error": f"{type(exc).__name__}: {exc}", "basis": None}
            return {"analysis": analysis.model_dump(mode="json"), "probed": False, "basis": None}
        flight = Flight.model_validate(state["flight"])
        delay, basis = (None, None)
        if state["phase"] in REVISING:
            delay, basis = delay_from_collation(flight, state.get("others") or {})
        kwargs = {"delay_minutes": delay} if spec.takes_delay and delay is not None else {}
        try:
            analysis = spec.analyse(handle, flight, now=datetime.fromisoformat(state["now"]), **kwargs)
        except Exception as exc:  # reported as an error response; safety agents then say "no dispatch"
            return {"error": f"{type(exc).__name__}: {exc}", "basis": basis}
        probed = spec.takes_delay and delay is None and not flight.delay_minutes and agent != "crew_compliance"
        return {"analysis": analysis.model_dump(mode="json"), "probed": probed, "basis": basis}

    def explain(state: AgentState) -> AgentState:
        analysis = Analysis.model_validate(state["analysis"])
        if llm is None:
            return {"narrative": offline_narrative(analysis).model_dump(), "llm": "offline"}
        model = failures.model_name(llm)
        try:
            tools = agent_tools(agent, handle, Flight.model_validate(state["flight"]))
            conflict = _conflict(state)
            asked = state["prompt"] + (f"\n\n{conflict.text()}" if conflict else "")  # the debate, stated
            text = llm_narrative(llm, agent, state["phase"], asked, analysis, state.get("others"), tools)
        except Exception as exc:  # the rules' own account stands; say the model failed, and why
            reason = failures.record(exc, model=model, agent=agent, stage="narrative")
            narrative = offline_narrative(analysis)
            narrative.reasoning += f" (LLM unavailable: {reason}; rendered from the findings.)"
            return {"narrative": narrative.model_dump(), "llm": f"offline (fallback: {reason})"}
        kept, notes = guard_narrative(text, analysis)
        return {"narrative": kept.model_dump(), "llm": model + (f" ({'; '.join(notes)})" if notes else "")}

    def finalize(state: AgentState) -> AgentState:
        return {"response": _response(agent, state).model_dump(mode="json")}

    graph = StateGraph(AgentState)
    for name, node in (("extract", extract), ("analyse", analyse), ("explain", explain), ("finalize", finalize)):
        graph.add_node(name, node)
    graph.add_edge(START, "extract")
    graph.add_conditional_edges("extract", lambda s: "analyse" if s.get("flight") else "finalize")
    # a narrative already written (a network set's revision keeps the first round's) goes straight to the response
    graph.add_conditional_edges("analyse", lambda s: "finalize" if s.get("error") or s.get("narrative") else "explain")
    graph.add_edge("explain", "finalize")
    graph.add_edge("finalize", END)
    return graph.compile(checkpointer=checkpointer)


def from_facts(disruption: Disruption, flight: Flight | None) -> AgentState:
    """The extraction step's result when the facts name the flight: the flight as the overlay shows it."""
    if flight is None:
        return {
            "extraction": {"status": "input_error", "message": f"{disruption.scope.flights[0]} is not in the schedule"}
        }
    info = FlightInfo(
        flight_number=flight.flight_number,
        date=flight.flight_date,
        disruption_description=disruption.cause,
        carrier=flight.carrier,
        date_text=flight.flight_date.isoformat(),
        resolution="resolved at Validate",
    )
    extraction = {"status": "ok", "flight_info": info.model_dump(mode="json"), "message": "", "method": "facts"}
    return {"extraction": extraction, "flight": flight.model_dump(mode="json")}


def _response(agent: str, state: AgentState) -> AgentResponse:
    extraction = state.get("extraction") or {}
    info = extraction.get("flight_info") or {}
    base: dict[str, Any] = dict(agent_name=agent, phase=state["phase"], extracted_flight_info=info, data_sources=[])
    if not state.get("flight"):
        return AgentResponse(
            **base,
            status="input_error",
            recommendation="",
            confidence=0.05,
            binding_constraints=[],
            reasoning="",
            message=extraction.get("message") or "no flight found in the prompt",
        )
    if state.get("error"):
        return failure_response(agent, state["phase"], info, state["error"], status="error")
    analysis = Analysis.model_validate(state["analysis"])
    narrative = state["narrative"]
    binding = [
        (f"{f.message}" if f.subject in f.message else f"{f.subject}: {f.message}") + f" [{f.clause}]"
        for f in analysis.binding
    ]
    binding += [limit for limit in analysis.limits if limit not in binding]
    revision = None
    proposals = analysis.proposals
    own = (state.get("others") or {}).get(agent)
    if state["phase"] in REVISING and own:
        if AGENT_SPECS[agent].safety:  # a revision may add constraints, never relax one
            binding += [c for c in own.get("binding_constraints", []) if c not in binding]
        impact = analysis.impact.model_dump(mode="json") if analysis.impact else None
        proposals, withdrawn = concede(agent, proposals, _conflict(state))
        revision = describe_revision(
            own,
            {"recommendation": narrative["recommendation"], "binding_constraints": binding, "impact": impact},
            sorted(a for a in state["others"] if a != agent),
            state.get("basis"),
        )
        if withdrawn:
            revision = revision.model_copy(update={"revised": True, "changes": [*revision.changes, *withdrawn]})
    return AgentResponse(
        **{**base, "data_sources": analysis.data_sources},
        status="ok",
        recommendation=narrative["recommendation"],
        confidence=state.get("confidence") or agent_confidence(analysis, state.get("probed", False)),
        binding_constraints=binding,
        reasoning=narrative["reasoning"],
        findings=analysis.findings,
        constraints=analysis.constraints,
        impact=analysis.impact,
        proposals=proposals,
        revision=revision,
        llm=state.get("llm", "offline"),
    )


def _conflict(state: AgentState) -> StatedConflict | None:
    raw = state.get("conflict") if state["phase"] == "debate" else None
    return StatedConflict.model_validate(raw) if raw else None


def failure_response(agent: str, phase: str, info: dict, reason: str, status: str = "degraded") -> AgentResponse:
    """A safety agent that could not finish returns the most restrictive constraint: no dispatch."""
    safety = AGENT_SPECS[agent].safety
    constraint = (
        f"NO DISPATCH: the {agent} agent could not complete its analysis ({reason}); the flight may not "
        "operate until it does or a duty manager clears it"
    )
    return AgentResponse(
        agent_name=agent,
        phase=phase,
        status=status,
        extracted_flight_info=info,
        data_sources=[],
        recommendation=constraint if safety else f"{agent} analysis unavailable: {reason}",
        confidence=0.05,
        binding_constraints=[constraint] if safety else [],
        reasoning=reason,
        message=reason,
    )


def now_utc() -> datetime:
    return datetime.now(UTC)


__all__ = ["AgentState", "build_graph", "failure_response", "now_utc"]
