"""The duty manager excludes flights from a network plan: each excluded flight is left as the schedule has it
(its tail, its times, its rostered crew) in every plan, and every plan is measured and validated again with the
same zero-tolerance checks — an exclusion never makes a plan legal, it can only make it illegal.

An exclusion that leaves no valid plan is refused in one line naming the flight and what it breaks (a flight
left in a closed airport's window, a tail no longer where the next flight needs it); the plans stand as they
were, so the duty manager's mistake never ends the run.
"""

from __future__ import annotations

from datetime import datetime

from ..data.access import DataHandle
from ..models.disruption import Disruption
from ..models.network_plan import FlightAction, NetworkDecision, NetworkPlan
from .crew import CrewData
from .groups import load_groups
from .objectives import NetworkPlanConfig
from .plans import plan_data
from .scope import network_scope
from .tails import scheduled_row
from .totals import PlanData, measure
from .validation import Checker, validate_plan


def _as_scheduled(plan: NetworkPlan, data: PlanData, excluded: dict[str, str]) -> list[FlightAction]:
    rows = []
    for a in plan.actions:
        if a.flight_id not in excluded:
            rows.append(a)
        elif a.flight_id in data.flights:  # a ferry the plan added is simply not flown
            kept = scheduled_row(data.flights[a.flight_id])
            rows.append(kept.model_copy(update={"reason": f"excluded by the duty manager: {excluded[a.flight_id]}"}))
    return rows


def exclude_flights(
    handle: DataHandle,
    disruption: Disruption,
    decision: NetworkDecision,
    excluded: dict[str, str],
    *,
    now: datetime | None = None,
    config: NetworkPlanConfig | None = None,
) -> NetworkDecision:
    """`decision` with the flights in `excluded` (flight id → reason, added to those excluded before) left as
    scheduled in every plan, re-measured and re-validated; refused (`exclusion_refused`) when no plan stays valid."""
    config = config or NetworkPlanConfig()
    touched = {a.flight_id for v in decision.plans for a in v.plan.actions}
    unknown = sorted(set(excluded) - touched)
    if unknown:
        return decision.model_copy(
            update={"exclusion_refused": f"no plan touches {', '.join(unknown)}: exclude flights from the table"}
        )
    wanted = {**decision.excluded, **excluded}
    scope = network_scope(
        handle, disruption, now=now, recovery_hours=config.recovery_hours, max_flights=config.max_flights
    )
    data = plan_data(handle, scope, load_groups(handle, scope), disruption)
    checker = Checker(CrewData(data, scope.decision), scope)
    plans = []
    for v in decision.plans:
        rows, totals = measure(_as_scheduled(v.plan, data, wanted), data, optimizer_cost=v.plan.totals.optimizer_cost)
        plans.append(validate_plan(checker, v.plan.model_copy(update={"actions": rows, "totals": totals})))
    if not any(p.valid for p in plans):
        named: dict[tuple[str, str], str] = {}  # each flight's each reason once, the first plan's words
        for r in (r for p in plans for r in p.rejections if r.flight_id in wanted):
            named.setdefault((r.flight_id, r.code), r.message)
        why = "; ".join(f"{f} {code}: {m}" for (f, code), m in list(named.items())[:4])
        reason = why or "; ".join(f"{p.plan.title}: {p.rejections[0].message}" for p in plans if p.rejections)
        return decision.model_copy(
            update={
                "exclusion_refused": f"excluding {', '.join(sorted(excluded))} leaves no legal plan ({reason}); "
                "the plans are as before"
            }
        )
    plans.sort(key=lambda p: (not p.valid, p.plan.objective == "baseline", p.plan.totals.cost_usd))
    return decision.model_copy(update={"plans": plans, "excluded": wanted, "exclusion_refused": None})
