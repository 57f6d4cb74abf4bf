"""Arbitrate for an airport or airspace disruption: the network planner (network/validation.py) makes
and validates the plans, the arbitrator's ranking orders the valid ones (arbitration/plans/network.py), and the
decision goes to the duty manager like any other — its per-flight tables in the decision artifact (S3, by key).

A second attempt follows the duty manager's answer on the first: alternatives set the shown plans aside; an
exclusion leaves the named flights as scheduled and validates every plan again (network/exclusions.py).
A report the planner cannot plan (a window past the data, too many flights) is an escalation with its one line.
"""

from __future__ import annotations

import logging
from datetime import datetime

from ...data.access import DataHandle
from ...network.restriction import NetworkInputRefused
from ..models import ApprovalDecision, DecisionSummary, ValidatedRequest
from ..payloads import ArtifactStore

log = logging.getLogger("skymarshal.workflow")
# of the arbitrator's deadline, the optimizer's share: reading, crewability and validation take about as long
OPTIMIZER_SHARE = 0.4


def _previous(state: dict, store: ArtifactStore):
    from ...arbitration.models import ArbitratorOutput

    summary = DecisionSummary.model_validate(state["decision"])
    return ArbitratorOutput.model_validate(store.resolve(summary.output))


def with_agents(output, collation: dict | None):
    """The agents' view of the set beside the plans: how many binding findings each safety agent has at the delays
    the restriction imposes (the plans' own times are validated by the same rules), and the business agents' totals."""
    from ...data.schema import SAFETY_AGENTS

    if not collation:
        return output
    safety = {a: len(collation[a].get("binding_constraints", [])) for a in SAFETY_AGENTS if a in collation}
    business = [
        f"{a}: {r['recommendation']}"
        for a, r in collation.items()
        if a not in SAFETY_AGENTS and r.get("recommendation")
    ]
    said = ", ".join(f"{a} {n}" for a, n in safety.items())
    return output.model_copy(
        update={
            "justification": f"{output.justification}; the safety agents' binding findings if every flight waits "
            f"the restriction out: {said}, each re-checked at the plans' own times by the same rules",
            "reasoning": "; ".join([output.reasoning, *business]),
        }
    )


def network_arbitration(
    state: dict,
    request: ValidatedRequest,
    *,
    handle: DataHandle,
    store: ArtifactStore,
    excluded: list[str],
    now: datetime | None = None,
    config=None,
    deadline_s: float | None = None,
    **_unused,
):
    """This attempt's ArbitratorOutput for a network disruption (see the module's docstring); Arbitrate
    (workflow/steps/decision.py) saves and summarises it as any other."""
    from ...arbitration.arbitrator import ArbitratorConfig, arbitrator_deadline_s
    from ...arbitration.plans.network import network_output, refused_output
    from ...network.exclusions import exclude_flights
    from ...network.validation import network_plans

    config = config or ArbitratorConfig()
    disruption = request.disruption
    data = handle.with_overlay(request.overlay).with_read_cache()
    approval = ApprovalDecision.model_validate(state["approval"]) if state.get("approval") else None
    try:
        if approval is not None and approval.action in ("exclude", "alternatives") and state.get("decision"):
            decision = _previous(state, store).network
            assert decision is not None  # a network run's every decision carries its plans
            if approval.action == "exclude":
                decision = exclude_flights(
                    data, disruption, decision, approval.excluded_flights, now=now, config=config.network
                )
        else:
            budget = OPTIMIZER_SHARE * (deadline_s if deadline_s is not None else arbitrator_deadline_s())
            decision = network_plans(data, disruption, now=now, config=config.network, budget_s=budget)
        output = network_output(decision, disruption, config.weights, frozenset(excluded), rostered=_rostered(data))
    except NetworkInputRefused as exc:
        log.info("network plans refused: %s", exc)
        output = refused_output(str(exc), disruption)
    return with_agents(output, store.resolve(state["phase2"]["collation"]) if state.get("phase2") else None)


def _rostered(handle: DataHandle):
    """A flight's rostered crew ids, read once per flight (the plans share most of their flights)."""
    from functools import cache

    from ...data import queries as q

    @cache
    def crew(flight_id: str) -> tuple[str, ...]:
        return tuple(d.crew_id for d in q.crew_assignments(handle, flight_id))

    return lambda flight_id: list(crew(flight_id))
