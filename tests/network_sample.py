"""A hand-built network decision for the API, CLI and console tests: Abu Dhabi closed by fog 14:00–17:00Z on
22 January 2027, two plans (one valid, one rejected), as the arbitrator's output dict the decision views read.

Built through arbitration.plans.network.network_output, so the ranked scenarios carry the plan ids the
real runs do; the rows hold what the tables show (a retime with a reserve, a tail swap, a cancellation, a row
with markup-like text the renderers must print as written).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from skymarshal.arbitration.plans.network import network_output
from skymarshal.arbitration.ranking import RankingWeights
from skymarshal.models.disruption import Disruption, Scope, Window
from skymarshal.models.network_plan import (
    CrewChange,
    FlightAction,
    FlightRejection,
    NetworkDecision,
    NetworkPlan,
    NetworkRestriction,
    PlanTotals,
    ValidatedNetworkPlan,
)

DAY = datetime(2027, 1, 22, tzinfo=UTC)
WINDOW = Window(start=DAY.replace(hour=14), end=DAY.replace(hour=17))
RETIMED, SWAPPED, CANCELLED = "EY301-20270122", "EY302-20270122", "EY303-20270122"


def _row(flight_id: str, action: str, dep_hour: int, delay: int = 0, **more) -> FlightAction:
    dep = DAY.replace(hour=dep_hour)
    cancelled = action == "cancel"
    return FlightAction(
        flight_id=flight_id,
        flight_number=flight_id.split("-")[0],
        origin="AUH",
        destination=more.pop("destination", "BAH"),
        action=action,
        scheduled_departure=dep,
        scheduled_arrival=dep + timedelta(hours=1),
        new_departure=None if cancelled else dep + timedelta(minutes=delay),
        new_arrival=None if cancelled else dep + timedelta(hours=1, minutes=delay),
        delay_minutes=delay,
        registration=more.pop("registration", "A6-EIA"),
        new_registration=None if cancelled else more.pop("new_registration", "A6-EIA"),
        aircraft_type="A320",
        passengers=more.pop("passengers", 120),
        **more,
    )


def _totals(rows: list[FlightAction], cost: float) -> PlanTotals:
    return PlanTotals(
        flights=len(rows),
        operated=sum(r.operates for r in rows),
        delay_minutes=sum(r.delay_minutes for r in rows),
        max_delay_minutes=max(r.delay_minutes for r in rows),
        cancellations=sum(not r.operates for r in rows),
        tail_swaps=sum(r.action == "tail_swap" for r in rows),
        ferries=0,
        reserves_called=sum(len(r.crew_changes) for r in rows),
        passengers_affected=sum(r.passengers for r in rows),
        passengers_reaccommodated=sum(r.passengers_reaccommodated for r in rows),
        passengers_stranded_overnight=sum(r.passengers_stranded_overnight for r in rows),
        misconnections=0,
        cost_usd=cost,
    )


def network_decision(**changes) -> NetworkDecision:
    reserve = CrewChange(
        rank="CPT",
        replaced="C0301",
        reserve="S01",
        report_at=DAY.replace(hour=16),
        reason="FDP exceeded at the new times",
    )
    rows = [
        _row(RETIMED, "retime", 14, 195, crew_changes=[reserve], reason="in the closure [bold]fog[/bold]"),
        _row(SWAPPED, "tail_swap", 18, 20, new_registration="A6-EIB", reason="inherits EY301's tail"),
        _row(
            CANCELLED,
            "cancel",
            15,
            destination="DOH",
            passengers=90,
            passengers_reaccommodated=90,
            passengers_stranded_overnight=12,
            reason="in the closure",
        ),
    ]
    valid = NetworkPlan(
        plan_id="network:min_delay",
        objective="min_delay",
        title="Minimum delay",
        actions=rows,
        totals=_totals(rows, 84_000),
    )
    late = [r.model_copy(update={"delay_minutes": 0, "action": "operate"}) for r in rows[:1]]
    rejected = NetworkPlan(
        plan_id="network:baseline",
        objective="baseline",
        title="Fly as scheduled",
        actions=late,
        totals=_totals(late, 1),
    )
    closed = FlightRejection(
        code="CLOSED_AIRPORT", flight_id=RETIMED, message="departs AUH at 14:00Z, inside the closure"
    )
    return NetworkDecision(
        restriction=NetworkRestriction(kind="closure", airport="AUH", window=WINDOW, basis="fog"),
        flights_affected=2,
        flights_inheriting=1,
        decision_at=DAY.replace(hour=12),
        plans=[
            ValidatedNetworkPlan(plan=valid, flights_checked=3, checks=40, rejections=[]),
            ValidatedNetworkPlan(plan=rejected, flights_checked=1, checks=12, rejections=[closed]),
        ],
        **changes,
    )


def network_output_dict(**changes) -> dict:
    """The arbitrator's output for the sample, as stored (JSON mode): what GET .../decision and the CLI read."""
    disruption = Disruption.of_code(77, scope=Scope(kind="airport", airport="AUH"), window=WINDOW)
    output = network_output(network_decision(**changes), disruption, RankingWeights())
    return output.model_dump(mode="json")
