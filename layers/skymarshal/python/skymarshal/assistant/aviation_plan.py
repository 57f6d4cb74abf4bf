"""The planner's choice, ``AviationPlan``: one tool from the manifest, its arguments and the answer's style. Apart
from its validation (plan.py) so a tool's own planner (rule_compute.py) can make one without the manifest."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

AnswerStyle = Literal["brief", "detailed", "table", "list", "comparison"]
PlanSource = Literal["llm", "offline", "fallback"]


class AviationPlan(BaseModel):
    """One tool call chosen for the question, with its arguments and the style the answer should take."""

    selected_tool: str = Field(description="exactly one tool name from the manifest")
    arguments: dict[str, Any] = Field(default_factory=dict, description="the tool's arguments, filters included")
    answer_style: AnswerStyle = "brief"
    reasoning: str = Field("", description="one or two sentences: why this tool and these arguments")
