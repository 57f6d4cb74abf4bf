"""The four graph nodes. Each returns only the state fields it sets and never raises: a failure becomes a
note, a fallback or ``error``, which the nodes after it respect.

- planner     LLM with structured output ``AviationPlan`` validated against the manifest; a refused or failed
              LLM plan falls back to the deterministic planner (whose last resort is an airport search).
- predictor   follow-up questions derived from the plan (behind the next_query_prediction flag).
- tool_runner runs the planned tool; DATA only. Skipped when ``error`` is set.
- formatter   strategy by ``_tool_type`` (comparison prompt for comparisons), LLM or template; ``thinking``
              composed from state fields, not parsed out of the model's text.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any, Literal, Protocol

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from pydantic import ValidationError

from .aviation_plan import AviationPlan
from .config import AssistantBehaviour, Role, prompt_text
from .offline_planner import airports_named, fallback_plan, plan_offline
from .plan import PlanRefusal, PlanRefused, validate_plan
from .state import AssistantState
from .templates import TEMPLATES
from .tools import ToolContext, ToolInputError, manifest_for_prompt, run_tool
from .ui_payload import build_ui_payload

log = logging.getLogger("skymarshal.assistant")
MAX_TOOL_JSON_CHARS = 12000  # what the formatter LLM is shown of a tool result; the UI gets all of it


class Node(Protocol):
    """A graph node: langgraph may pass the state by keyword, so a protocol rather than a Callable."""

    def __call__(self, state: AssistantState) -> dict[str, Any]: ...


def _history(state: AssistantState, limit: int) -> Sequence[BaseMessage]:
    return list(state.get("messages", []))[-limit:] if limit else []


def make_planner(llm: Any, behaviour: AssistantBehaviour) -> Node:
    def plan_turn(state: AssistantState) -> dict:
        question = state["question"]
        previous = state.get("plan")
        notes: list[str] = []
        plan, source = None, "offline"
        if llm is not None:
            try:
                system = prompt_text(behaviour.planner.prompt).replace("{manifest}", manifest_for_prompt())
                messages = [
                    SystemMessage(system),
                    *_history(state, behaviour.max_history_messages),
                    HumanMessage(question),
                ]
                raw = llm.with_structured_output(AviationPlan).invoke(messages)
                plan, source = (
                    validate_plan(raw if isinstance(raw, AviationPlan) else AviationPlan.model_validate(raw)),
                    "llm",
                )
            except PlanRefused as refused:
                notes.append(f"Planner refused: {refused.refusal.code} — {refused.refusal.message}.")
            except Exception as exc:  # a provider error, a malformed reply: fall back, never crash
                refusal = PlanRefusal(code="PLANNER_FAILED", message=f"{type(exc).__name__}: {exc}")
                log.warning("assistant planner failed: %s", refusal.message)
                notes.append(f"Planner failed: {refusal.message}.")
        if plan is None:
            plan = _offline(question, previous, notes)
            source = "offline" if llm is None else "fallback"
        return {
            "plan": plan.model_dump(mode="json"),
            "plan_source": source,
            "planner_notes": notes,
            "error": None,
            "tool_result": {},
            "messages": [HumanMessage(question)],
        }

    return plan_turn


def _offline(question: str, previous: dict | None, notes: list[str]) -> AviationPlan:
    try:
        return validate_plan(plan_offline(question, previous))
    except PlanRefused as refused:  # e.g. a follow-up reusing arguments that no longer validate
        notes.append(f"Offline plan refused: {refused.refusal.message}; searching airports instead.")
        return validate_plan(fallback_plan(question, refused.refusal.message))


def suggest_queries(plan: dict) -> list[str]:
    """Follow-ups a duty manager typically asks next, filled in from this plan's subjects — only those the
    planner reads as a question a tool answers (never "Is EASA in curfew at 23:30?")."""
    return [q for q in _follow_ups(plan) if answerable(q)]


def answerable(question: str) -> bool:
    """The planner gives it a tool other than the fallback airport search, its plan validates, and an airport
    it names is an airport."""
    try:
        planned = validate_plan(plan_offline(question))
    except PlanRefused:
        return False
    if planned.selected_tool == "search_airports":
        return False
    code = planned.arguments.get("code") or planned.arguments.get("location")
    return not code or bool(airports_named(str(code)))


def _named(code: str) -> str:
    """A jurisdiction by the name the planner reads ('United Kingdom', not 'GB')."""
    from .rules import load_rules

    return load_rules().rules.jurisdictions.get(code, code)


def _follow_ups(plan: dict) -> list[str]:
    tool, args = plan.get("selected_tool"), plan.get("arguments", {})
    if tool == "find_airports_near_route":
        dep, dest = args.get("departure"), args.get("destination")
        return [
            f"Which of these are usable at night on the {dep}–{dest} route?",
            f"What are the curfew rules at {dest}?",
            f"Airports within 100 nm of {dest} for a B777",
        ]
    if tool in (
        "find_airports_near_location",
        "get_airport_details",
        "get_notification_for_airport",
        "search_airports",
    ):
        code = args.get("code") or args.get("location") or args.get("query")
        return [f"Tell me about {code}", f"Is {code} in curfew at 23:30?", f"Airports near {code} within 100 nm"]
    if tool == "compute_max_fdp":
        more = int(args.get("sectors", 1)) + 1
        return [f"max FDP starting at {args.get('start')} with {more} sectors under {args.get('regime', 'EASA')}"]
    if tool == "compare_rules_between_countries":
        countries = " and ".join(_named(c) for c in args.get("countries", []))
        return [f"Compare care and hotel rules between {countries}", f"Compare claim time limits between {countries}"]
    country = _named(args.get("country") or "GB")
    return [
        f"Compare passenger compensation rules between {country} and the EU",
        f"List the crew duty rules in {country}",
        f"What are the night flight rules in {country}?",
    ]


def make_predictor(behaviour: AssistantBehaviour) -> Node:
    def predict_queries(state: AssistantState) -> dict:
        if not behaviour.features.next_query_prediction:
            return {"suggested_queries": []}
        return {"suggested_queries": suggest_queries(state.get("plan", {}))}

    return predict_queries


def make_tool_runner(context: ToolContext) -> Node:
    def run_planned_tool(state: AssistantState) -> dict:
        if state.get("error"):
            return {"tool_result": {}}
        plan = state["plan"]
        try:
            return {"tool_result": run_tool(plan["selected_tool"], plan["arguments"], context)}
        except (ToolInputError, ValidationError) as exc:
            return {"tool_result": {}, "error": str(exc).splitlines()[0]}
        except Exception as exc:  # a data source failed: degrade to an explained empty answer
            log.exception("assistant tool %s failed", plan["selected_tool"])
            return {"tool_result": {}, "error": f"{plan['selected_tool']} failed: {type(exc).__name__}: {exc}"}

    return run_planned_tool


def formatter_strategy(tool_type: str | None) -> Literal["formatter", "comparison_formatter"]:
    """Which behaviour role (and so which prompt) formats a tool type."""
    return "comparison_formatter" if tool_type == "rules_comparison" else "formatter"


def compose_thinking(state: AssistantState, strategy: str, mode: str) -> str:
    plan = state.get("plan", {})
    lines = [
        f"Plan ({state.get('plan_source', 'offline')}): {plan.get('selected_tool')} with "
        f"{json.dumps(plan.get('arguments', {}), sort_keys=True)}.",
        plan.get("reasoning", ""),
    ]
    lines += state.get("planner_notes", [])
    result = state.get("tool_result") or {}
    if state.get("error"):
        lines.append(f"The tool could not answer: {state['error']}.")
    elif "count" in result:
        lines.append(f"The tool returned {result['count']} airports.")
    elif "results" in result:
        lines.append(f"Retrieval kept {len(result['results'])} entries above the similarity threshold.")
    elif "topics" in result:
        lines.append(f"Compared {len(result['topics'])} topics.")
    lines.append(f"Formatted with the {strategy} strategy ({mode}).")
    return "\n".join(line for line in lines if line)


def _error_answer(state: AssistantState) -> str:
    return (
        f"I could not answer that: {state['error']}.\n\nTry naming airports by IATA code (AUH, LHR) and "
        "countries by name (UK, France)."
    )


def make_formatter(llms: dict[str, Any], behaviour: AssistantBehaviour) -> Node:
    def format_answer(state: AssistantState) -> dict:
        result = state.get("tool_result") or {}
        strategy = formatter_strategy(result.get("_tool_type"))
        plan = state.get("plan", {})
        mode = "template"
        if state.get("error"):
            answer = _error_answer(state)
        elif llms.get(strategy) is not None:
            try:
                answer, mode = _llm_answer(llms[strategy], behaviour, strategy, state), "llm"
            except Exception as exc:  # the model failed: the template still answers from the data
                log.warning("assistant formatter LLM failed: %s", exc)
                answer = TEMPLATES[result["_tool_type"]](result)
                mode = f"template after LLM failure ({type(exc).__name__})"
        else:
            answer = TEMPLATES[result["_tool_type"]](result)
        payload = build_ui_payload(plan, result, state.get("suggested_queries", []))
        return {
            "answer": answer,
            "thinking": compose_thinking(state, strategy, mode),
            "ui_payload": payload,
            "formatter_mode": mode,
            "messages": [AIMessage(answer)],
        }

    return format_answer


def _llm_answer(llm: Any, behaviour: AssistantBehaviour, strategy: Role, state: AssistantState) -> str:
    plan = state.get("plan", {})
    system = prompt_text(behaviour.role(strategy).prompt).replace("{answer_style}", plan.get("answer_style", "brief"))
    data = json.dumps(state.get("tool_result", {}), default=str)[:MAX_TOOL_JSON_CHARS]
    human = f"Question: {state['question']}\n\nPlan: {json.dumps(plan)}\n\nTool data:\n{data}"
    reply = llm.invoke([SystemMessage(system), HumanMessage(human)])
    text = (
        reply.content
        if isinstance(reply.content, str)
        else "".join(part.get("text", "") for part in reply.content if isinstance(part, dict))
    )
    if not text.strip():
        raise ValueError("the formatter model returned an empty answer")
    return text
