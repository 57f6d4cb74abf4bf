"""How far the hindsight's optimizer is from the best its own model allows (issue 47): its plan's cost by the
model's objective (the day scorecard's costs in the 2009 cost terms, ``recovery.objectives.day_config``) beside
an LP lower bound on that objective over every plan of the model's planned flights its checker accepts
(``recovery.lower_bound`` with the aircraft flow over time: tails, unavailabilities, turn-rounds, airport capacity
by the hour, each leg's crews' slack, first and last legs' seats). The day objective allows no new flight (the
day writes only the planned flights' changes, ``recovery.adapter.planned_changes``): nor does the bound then.

The bound relaxes the model (no crews, fractional flights and passengers, no turn-rounds), so the gap it measures
is the optimizer's distance from the model's optimum *at most*. It bounds the model, not the judged day: the
scorecard then realizes the plan (queues, re-accommodation, crews made legal), which the model simplifies.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..recovery.lower_bound import lower_bound
from ..recovery.model import Instance

# minutes: the grid of the time-space network (60 gave 6–16 % lower bounds on seeds 1 and 3 in a fifth of the time)
BOUND_STEP = 15
BOUND_SECONDS = 60.0  # the LP's time limit: a stopped dual simplex still gives a valid, lower, bound


@dataclass(frozen=True, slots=True)
class ModelGap:
    """The optimizer's plan's cost and the LP's lower bound, both by the model's objective."""

    cost: float
    bound: float | None  # None: the LP gave no duals in its time, or refused the model (no bound claimed)
    seconds: float
    refused: str = ""  # why the LP took no bound of this model (lower_bound's ValueError)

    @property
    def gap(self) -> float | None:
        """(cost − bound) / |cost|: how much of the plan's cost the bound cannot prove necessary."""
        if self.bound is None or self.cost == 0:
            return None
        return (self.cost - self.bound) / abs(self.cost)

    def line(self) -> str:
        if self.refused:
            return f"hindsight model: plan {self.cost:,.0f}, no lower bound: {self.refused}"
        if self.bound is None:
            return f"hindsight model: plan {self.cost:,.0f}, no lower bound within {BOUND_SECONDS:.0f} s"
        return (
            f"hindsight model: plan {self.cost:,.0f} ≥ LP lower bound {self.bound:,.0f} "
            f"(gap {self.gap:.1%}, bound in {self.seconds:.0f} s)"
        )


def model_gap(instance: Instance, cost: float) -> ModelGap:
    """The bound of the instance the optimizer searched, beside its plan's `cost` on it."""
    try:
        found = lower_bound(instance, step=BOUND_STEP, time_limit=BOUND_SECONDS)
    except ValueError as e:  # weights the bound's argument cannot take: said on one line, the run goes on
        return ModelGap(cost, None, 0.0, str(e))
    return ModelGap(cost, found.value if found else None, found.seconds if found else 0.0)
