"""The why beside every plan, shaped for a person: the binding findings a plan keeps (one row per distinct
finding, its subjects gathered, never twenty identical rows), the plans refused grouped by their typed reason, and
each escalation with what the duty manager can do about it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

# What the duty manager can do about each escalation code (arbitration.models.EscalationCode and the workflow's
# own escalations): the banner's second line.
ESCALATION_ACTIONS: dict[str, str] = {
    "SAFETY_AGENT_FAILED": "a safety agent did not answer: retry the failed agents, or decide by hand",
    "NO_VALID_SCENARIO": "no plan keeps every binding constraint: ask for alternatives or handle the flight by hand",
    "AGENT_CONFIDENCE_GAP": "the agents disagree on how sure they are: read the findings before approving",
    "LOW_CONFIDENCE": "the recommendation is uncertain: check the facts and the refused plans before approving",
    "INPUT_ERROR": "the report could not be read as a disruption: report it again naming the flight and the day",
    "NETWORK_DISRUPTION": "no legal network plan: re-plan the affected flights by hand",
    "NO_VALID_PLAN": "every plan breaks a binding safety constraint: handle the flight by hand",
    "ARBITRATION_FAILED": "the arbitrator failed: resume the run, or decide by hand from the agents' findings",
    "APPROVAL_TIMEOUT": "nobody decided in the approval window: report the disruption again if it still stands",
    "RUN_FAILED": "a step of the run failed past its retries; its flight is free: resume the run or report it again",
}

# The refusal codes in words (arbitration.models.RejectionCode), for the refused plans' group headings.
REJECTION_LABELS: dict[str, str] = {
    "CREW_ILLEGAL": "crew not legal to operate",
    "CREW_LIMIT_EXCEEDED": "crew over a duty limit",
    "AIRCRAFT_NOT_AIRWORTHY": "aircraft not airworthy",
    "TAIL_SWAP_INELIGIBLE": "tail swap not possible",
    "CURFEW": "lands in a curfew",
    "WEATHER_BELOW_LIMITS": "weather below limits",
    "NOT_CANCELLABLE": "cannot be cancelled",
    "DATA_MISSING": "data missing",
    "SAFETY_ANALYSIS_MISSING": "no safety analysis",
    "ROTATION_BROKEN": "breaks an aircraft's rotation",
    "CREW_CHAIN_BROKEN": "breaks a crew member's next duty",
    "HELD_BY_CAUSE": "leaves before the cause is expected to clear",
    # a network plan's flight refusals (models.network_plan.FlightRejectionCode)
    "CLOSED_AIRPORT": "moves at the airport while it is closed",
    "CAPACITY_EXCEEDED": "more movements an hour than the restriction allows",
    "BEFORE_SLOT": "leaves before its ATC slot",
    "CREW_NOT_IN_POSITION": "crew not in position",
    "RESERVE_REUSED": "one reserve called out twice",
}

STATUS_ORDER = {"illegal": 0, "at_risk": 1, "legal": 2}


class FindingRow(BaseModel):
    """One binding finding a plan was held to: what, the clause, its standing, its sentences, and whom it covers."""

    constraint: str
    source: str = Field(description="'rules' (computed again under the plan) or the agent whose constraint it is")
    clause: str
    status: str = Field(description="legal | at_risk | illegal")
    message: str = Field(description="the first check's sentence")
    messages: list[str] = Field(description="every distinct sentence of the checks this row stands for, in order")
    subjects: list[str] = Field(description="the crew, tails or airports the checks were about")
    count: int = Field(description="how many checks this row stands for")


class RefusedPlan(BaseModel):
    scenario_id: str
    title: str
    reasons: list[str] = Field(description="each typed refusal's sentence, without repeats")


class RefusedGroup(BaseModel):
    code: str = Field(description="the typed refusal code, e.g. AIRCRAFT_NOT_AIRWORTHY")
    label: str
    plans: list[RefusedPlan]


class EscalationBanner(BaseModel):
    code: str
    message: str
    action: str = Field(description="what the duty manager can do about it")


def finding_rows(compliance: list[dict[str, Any]]) -> list[FindingRow]:
    """The plan's checks as one row per finding (same constraint, source, clause and standing), its distinct
    sentences and subjects gathered; the broken and at-risk first, then the rules' own before the agents'."""
    rows: dict[tuple[str, str, str, str], FindingRow] = {}
    for check in compliance:
        key = (check["constraint"], check["source"], check["clause"], check["status"])
        row = rows.get(key)
        if row is None:
            row = rows[key] = FindingRow(
                constraint=check["constraint"],
                source=check["source"],
                clause=check["clause"],
                status=check["status"],
                message=check["message"],
                messages=[],
                subjects=[],
                count=0,
            )
        row.count += 1
        if check["message"] not in row.messages:
            row.messages.append(check["message"])
        if check.get("subject") and check["subject"] not in row.subjects:
            row.subjects.append(check["subject"])
    return sorted(rows.values(), key=lambda r: (STATUS_ORDER.get(r.status, 3), r.source != "rules"))


def refused_groups(rejected: list[dict[str, Any]]) -> list[RefusedGroup]:
    """The plans the arbitrator refused, grouped by their first typed reason (the most common group first)."""
    groups: dict[str, list[RefusedPlan]] = {}
    for validated in rejected:
        rejections = validated.get("rejections") or []
        if not rejections:
            continue
        reasons = list(dict.fromkeys(r["message"] for r in rejections))
        scenario = validated["scenario"]
        plan = RefusedPlan(scenario_id=scenario["scenario_id"], title=scenario["title"], reasons=reasons)
        groups.setdefault(rejections[0]["code"], []).append(plan)
    ordered = sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))
    return [RefusedGroup(code=code, label=REJECTION_LABELS.get(code, code), plans=plans) for code, plans in ordered]


def network_refusals(network: dict[str, Any] | None) -> list[dict[str, Any]]:
    """A network decision's rejected plans in the shape of the arbitrator's rejected scenarios: each flight that
    makes the plan illegal is one typed reason, named by the flight."""
    return [
        {
            "scenario": {"scenario_id": v["plan"]["plan_id"], "title": v["plan"]["title"]},
            "rejections": [
                {"code": r["code"], "message": f"{r['flight_id']}: {r['message']}"} for r in v["rejections"]
            ],
        }
        for v in (network or {}).get("plans", [])
        if v["rejections"]
    ]


def escalation_banners(escalations: list[dict[str, Any]]) -> list[EscalationBanner]:
    return [
        EscalationBanner(
            code=e["code"],
            message=e["message"],
            action=ESCALATION_ACTIONS.get(e["code"], "read the reason, then decide or report again"),
        )
        for e in escalations
    ]


def run_escalation(escalation: dict[str, Any] | None) -> EscalationBanner | None:
    """The workflow's own escalation of a run (`$.escalation`: reason and message), as a banner."""
    if not escalation or not escalation.get("reason"):
        return None
    return escalation_banners([{"code": escalation["reason"], "message": escalation.get("message", "")}])[0]
