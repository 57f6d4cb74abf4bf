"""Ranking the valid scenarios: four weighted criteria, adjusted by how the same action worked before.

Criteria (each on 0..1, 1 = best; `normalise` says how):
- passenger satisfaction: what the day scorecard counts (day_cost.py) — passenger-hours of delay at the final
  destination of the flight's passengers, of every later flight the plan re-times and of every re-accommodated
  passenger of a cancelled flight, plus OVERNIGHT_HOURS for each passenger stranded overnight; fewer is better;
- cost: the rules engine's plan cost in USD (delay minutes, EU261/UK261 by cause, care, cancelled fares, swaps,
  ferries) plus the compensation and care owed on the knock-on's flights;
- network stability: later flights delayed, plus each flight the plan cancels (a hole in the rotation, 1 each),
  a documented penalty for taking a spare (0.5) and for leaving the aircraft out of position after a diversion (1);
- execution reliability: 1 minus documented risks — waiting on a maintenance release estimate (0.3, estimates
  slip), each check within its margin (0.1), calling out reserves (0.1), a diversion's coach logistics (0.15),
  each execution note such as an extra cabin crew member on a larger type (0.05), each crew member to call
  (0.005: called out, released, or reporting 30 min or more later; at most 0.1).
Safety is never a weight: only valid plans are ranked. A hold that keeps the flight on the ground whatever aircraft
flies it (weather at the station, a slot, a closed runway or station, a security hold) never has a tail or crew swap
as rank 1 while a plan without one leaves as early: the swap saves nothing there (``hold_first``).
Precedent: the smoothed share of past disruptions of the same type where the same action went to plan,
weighted by similarity (same aircraft type, same route), moves the score by up to ±HISTORY_WEIGHT / 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..models.history import DisruptionRecord
from ..rules.finance import OVERNIGHT_HOURS
from .models import Scenario, ValidatedScenario

CRITERIA = ("passenger_satisfaction", "cost", "network_stability", "execution_reliability")
# A passenger stranded overnight loses the local night on top of the delay minutes (rules.finance.OVERNIGHT_HOURS),
# so the criterion sees the scorecard's "stranded overnight" as well as its minutes.
# Plans whose decision is another aircraft or another crew (the kinds hold_first keeps from rank 1 under a flight hold)
SWAP_KINDS = frozenset({"tail_swap", "rescue_aircraft", "crew_swap"})
HISTORY_WEIGHT = 0.1
# Each crew member the execution must call (contacts.py) is one more chance someone is not reached in time: small
# beside a check at risk (0.1), so it orders plans that are otherwise alike, capped so a whole crew never outweighs one.
CONTACT_RISK = 0.005
CONTACT_RISK_CAP = 0.1


class RankingWeights(BaseModel):
    model_config = ConfigDict(frozen=True)

    passenger_satisfaction: float = Field(0.30, ge=0)
    cost: float = Field(0.25, ge=0)
    network_stability: float = Field(0.25, ge=0)
    execution_reliability: float = Field(0.20, ge=0)

    @model_validator(mode="after")
    def _positive(self) -> RankingWeights:
        if sum(self.as_dict().values()) <= 0:
            raise ValueError("at least one ranking weight must be positive")
        return self

    def as_dict(self) -> dict[str, float]:
        return {c: getattr(self, c) for c in CRITERIA}


@dataclass(frozen=True)
class Precedent:
    rate: float  # smoothed, similarity-weighted share that went to plan
    cases: int
    text: str


def raw_criteria(v: ValidatedScenario) -> dict[str, float]:
    """Each criterion in its own unit; lower is better except execution reliability."""
    s = v.scenario
    # every flight a plan cancels is a hole in the day, as every later flight a wait delays is one disruption more:
    # a rotation's cancellation counted as one hole outranked a wait delaying fewer flights than it cancels
    cancelled = max(sum(a.kind == "cancel" for a in s.actions), int(s.kind == "cancel"))
    network = s.downstream_flights_delayed + cancelled + {"tail_swap": 0.5, "divert": 1.0}.get(s.kind, 0.0)
    risk = 0.1 * sum(c.status == "at_risk" for c in v.checks)
    risk += 0.3 if any(c.constraint == "airworthiness" and c.status == "at_risk" for c in v.checks) else 0.0
    risk += 0.1 if s.crew_replacements else 0.0
    risk += 0.15 if s.kind == "divert" else 0.0
    risk += 0.05 * len(s.execution_notes)
    risk += min(CONTACT_RISK_CAP, CONTACT_RISK * s.crew_to_contact)
    minutes = (
        s.passenger_minutes if s.passenger_minutes is not None else s.passengers_impacted * s.arrival_delay_minutes
    )
    return {
        "passenger_satisfaction": minutes / 60 + OVERNIGHT_HOURS * s.overnight_passengers,
        "cost": s.cost_usd + s.knock_on_usd,
        "network_stability": network,
        "execution_reliability": max(0.0, 1.0 - risk),
    }


def normalise(raw: list[dict[str, float]]) -> list[dict[str, float]]:
    """Each criterion on 0..1, 1 = best: a cost-like criterion as the share of the worst valid plan's value it
    avoids (1 − value / worst), execution reliability as it is (already 0..1).

    Not min–max over the plans: that stretched any gap to the full range, so 0.9 against 1.0 reliability
    weighed as much as a day's delay for every passenger, and a cancellation outranked a reserve crew 75
    minutes late. A gap here weighs in proportion to its size."""
    out: list[dict[str, float]] = [{} for _ in raw]
    for criterion in CRITERIA:
        values = [r[criterion] for r in raw]
        worst = max(values, default=0.0)
        for i, value in enumerate(values):
            if criterion == "execution_reliability":
                out[i][criterion] = min(1.0, max(0.0, value))
            elif worst <= 0:
                out[i][criterion] = 1.0
            else:
                out[i][criterion] = 1.0 - max(0.0, value) / worst
    return out


def precedent(
    scenario: Scenario, records: list[DisruptionRecord], aircraft_type: str, route: tuple[str, str]
) -> Precedent:
    same = [r for r in records if r.chosen_action == scenario.kind]
    if not same:
        return Precedent(0.5, 0, f"no past {scenario.kind.replace('_', ' ')} for this kind of disruption on record")
    weights = [1.0 + (r.aircraft_type == aircraft_type) + ((r.origin, r.destination) == route) for r in same]
    went = sum(w for r, w in zip(same, weights) if r.outcome == "on_plan")
    rate = (went + 1) / (sum(weights) + 2)  # Laplace smoothing: a handful of cases moves it little
    on_plan = sum(r.outcome == "on_plan" for r in same)
    delays = sorted(r.actual_delay_minutes for r in same)
    return Precedent(
        rate,
        len(same),
        f"{on_plan} of {len(same)} past {records[0].disruption_type} disruptions resolved by "
        f"{scenario.kind.replace('_', ' ')} went to plan (median actual delay "
        f"{delays[len(delays) // 2]} min)",
    )


def score(criteria: dict[str, float], weights: RankingWeights, history: Precedent) -> float:
    w = weights.as_dict()
    base = sum(w[c] * criteria[c] for c in CRITERIA) / sum(w.values())
    return round(base + HISTORY_WEIGHT * (history.rate - 0.5), 4)


def confidence(
    v: ValidatedScenario, score_value: float, rival_score: float | None, safety_confidence: float, reliability: float
) -> float:
    """How sure the arbitrator is of this scenario: the safety agents' own confidence (data completeness),
    the plan's execution reliability, and how clearly it beats the best plan of another kind (two tails
    for the same swap are not rivals; a swap that barely beats a delay is)."""
    gap = 1.0 if rival_score is None else min(1.0, max(0.0, score_value - rival_score) * 5)
    at_risk = sum(c.status == "at_risk" for c in v.checks)
    value = 0.5 * safety_confidence + 0.3 * reliability + 0.2 * gap - 0.02 * at_risk
    return round(min(1.0, max(0.0, value)), 3)


def hold_first(order: list[int], scenarios: list[Scenario], hold_ends: datetime | None = None) -> list[int]:
    """`order` (indices into `scenarios`, best first) with a tail or crew swap taken off rank 1 when a plan without one
    operates the flight as early: under a hold of the flight (weather at the station, a slot, a closed runway, a
    security hold; `hold_ends`: the estimate of its end) no aircraft or crew leaves before the hold ends, so the swap
    saves nothing and costs the spare's rotation or a reserve's call-out. The best such plan leads instead. A swap
    the rostered crew or tail needs to fly at all (no plan without one operates by then) keeps its rank; a
    cancellation never takes its place."""
    if not order or scenarios[order[0]].kind not in SWAP_KINDS:
        return order
    lead = scenarios[order[0]].departure
    by = max((t for t in (lead, hold_ends) if t is not None), default=None)

    def as_early(s: Scenario) -> bool:
        return s.operates and s.departure is not None and (by is None or s.departure <= by)

    other = next((i for i in order if scenarios[i].kind not in SWAP_KINDS and as_early(scenarios[i])), None)
    return order if other is None else [other, *(i for i in order if i != other)]


def rank_order(
    valid: list[ValidatedScenario],
    weights: RankingWeights,
    precedents: list[Precedent],
    *,
    flight_hold: bool = False,
    hold_ends: datetime | None = None,
) -> list[tuple[int, float, dict[str, float], dict[str, float]]]:
    """(index into `valid`, score, normalised criteria, raw criteria), best first; ties broken by scenario id.
    `flight_hold`: the cause holds the flight whatever flies it (DisruptionContext.holds_the_flight), until
    `hold_ends` when its end is estimated: no swap leads a plan without one that leaves as early (hold_first)."""
    raw = [raw_criteria(v) for v in valid]
    norm = normalise(raw)
    scores = [score(n, weights, p) for n, p in zip(norm, precedents)]
    order = sorted(range(len(valid)), key=lambda i: (-scores[i], valid[i].scenario.scenario_id))
    if flight_hold:
        order = hold_first(order, [v.scenario for v in valid], hold_ends)
    return [(i, scores[i], norm[i], raw[i]) for i in order]
