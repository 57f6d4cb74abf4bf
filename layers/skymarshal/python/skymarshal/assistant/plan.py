"""The planner's output, ``AviationPlan``, and its validation against the tool manifest.

The plan is internal: the UI never sees its schema directly (``ui_payload`` is the stable contract). A plan
naming a tool the manifest does not have — a hallucinated tool — or arguments its model rejects is refused
with a typed ``PlanRefusal``; the planner node then falls back (see ``planner``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from .aviation_plan import AviationPlan
from .tools import MANIFEST

RefusalCode = Literal["UNKNOWN_TOOL", "BAD_ARGUMENTS", "PLANNER_FAILED"]


class PlanRefusal(BaseModel):
    model_config = ConfigDict(frozen=True)

    code: RefusalCode
    tool: str | None = None
    message: str


class PlanRefused(ValueError):
    def __init__(self, refusal: PlanRefusal):
        super().__init__(refusal.message)
        self.refusal = refusal


def validate_plan(plan: AviationPlan) -> AviationPlan:
    """The plan with its arguments normalised by the tool's model; PlanRefused when it cannot run."""
    spec = MANIFEST.get(plan.selected_tool)
    if spec is None:
        raise PlanRefused(
            PlanRefusal(
                code="UNKNOWN_TOOL",
                tool=plan.selected_tool,
                message=f"the planner chose {plan.selected_tool!r}, which is not in the "
                f"tool manifest ({', '.join(MANIFEST)})",
            )
        )
    try:
        arguments = spec.args.model_validate(plan.arguments).model_dump(mode="json", exclude_defaults=True)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"]) or "arguments"
        raise PlanRefused(
            PlanRefusal(
                code="BAD_ARGUMENTS", tool=plan.selected_tool, message=f"{plan.selected_tool}: {where}: {error['msg']}"
            )
        ) from None
    return plan.model_copy(update={"arguments": arguments})
