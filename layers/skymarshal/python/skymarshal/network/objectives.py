"""What each network plan is optimised for: the objectives' re-weighting of the ROADEF 2009 cost coefficients
(network/plans.py solves once per objective), and the configuration plans are made with."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..intake.airport_facts import MAX_FLIGHTS
from ..recovery.model import Instance
from .scope import RECOVERY_HOURS

OptimizedObjective = Literal["min_delay", "min_cancellations", "protect_connections"]


class ObjectiveWeights(BaseModel):
    """Multipliers of the ROADEF 2009 cost coefficients for one objective (1.0: the benchmark's own)."""

    model_config = ConfigDict(frozen=True)

    delay: float = Field(1.0, gt=0)  # passenger delay cost per minute
    cancellation: float = Field(1.0, gt=0)  # outbound and inbound trip cancellation cost
    premium: float = Field(1.0, gt=0)  # every F and J coefficient, on top of the above
    connection: float = Field(1.0, gt=0)  # the fare of a connecting itinerary (its cancellation's refund)


DEFAULT_OBJECTIVES: dict[OptimizedObjective, ObjectiveWeights] = {
    "min_delay": ObjectiveWeights(delay=4.0),
    "min_cancellations": ObjectiveWeights(cancellation=4.0, delay=0.5),
    "protect_connections": ObjectiveWeights(premium=3.0, connection=4.0),
}


class NetworkPlanConfig(BaseModel):
    """How network plans are made: the objectives' weights, the optimizer's time, the recovery horizon."""

    model_config = ConfigDict(frozen=True)

    objectives: dict[OptimizedObjective, ObjectiveWeights] = Field(default_factory=lambda: dict(DEFAULT_OBJECTIVES))
    # per objective and rating group (anytime search); against 2 s, 1 s moved the recommended plans' costs on the
    # AUH closures and the 50 % afternoon by a few percent either way (make bench-network) and keeps a 46-flight run
    # under a minute end to end
    seconds_per_solve: float = Field(1.0, gt=0)
    recovery_hours: int = Field(RECOVERY_HOURS, ge=1, le=24)
    max_flights: int = Field(MAX_FLIGHTS, ge=1)
    seed: int = 0
    hold: bool = True  # the hold plan (network.hold) beside the optimizer's: waiting, for the others to beat


def _scaled(values: dict[str, float], factor: float, premium: float) -> dict[str, float]:
    return {k: v * factor * (premium if k[0] in "FB" else 1.0) for k, v in values.items()}


def weighted(instance: Instance, w: ObjectiveWeights) -> Instance:
    """The instance with its cost coefficients re-weighted for one objective (same flights, same constraints)."""
    cfg = instance.config
    config = cfg.model_copy(
        update={
            "delay_per_minute": _scaled(cfg.delay_per_minute, w.delay, w.premium),
            "outbound_cancellation": _scaled(cfg.outbound_cancellation, w.cancellation, w.premium),
            "inbound_cancellation": _scaled(cfg.inbound_cancellation, w.cancellation, w.premium),
        }
    )
    itineraries = tuple(
        it.model_copy(update={"price": it.price * w.connection}) if len(it.legs) > 1 else it
        for it in instance.itineraries
    )
    return instance.model_copy(update={"config": config, "itineraries": itineraries})
