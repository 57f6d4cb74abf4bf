"""The agents on a network disruption's flight set, without AWS: the delay the restriction alone imposes on each
flight, the set's totals, and the merge keeping every flight's binding finding (hypothesis)."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given
from hypothesis import strategies as st
from network.test_plans_unit import DAY, disruption, flight

from skymarshal.analysis.base import Analysis
from skymarshal.models.agent_response import CargoImpact, GuestImpact
from skymarshal.models.findings import Finding
from skymarshal.network.window_analysis import imposed_delay, merge


def test_a_closure_holds_a_flight_until_the_airport_reopens():
    closed = disruption("closed")
    assert imposed_delay(closed, flight(1, "AUH", "LHR", DAY.replace(hour=15, minute=40))) == 80
    assert imposed_delay(closed, flight(2, "LHR", "AUH", DAY.replace(hour=15, minute=10))) == 50  # lands 16:10
    assert imposed_delay(closed, flight(3, "AUH", "LHR", DAY.replace(hour=18))) is None
    assert imposed_delay(disruption(slot_delay_minutes=45), flight(4, "AUH", "LHR", DAY.replace(hour=15))) == 45
    assert imposed_delay(disruption(capacity_share=0.5), flight(5, "AUH", "LHR", DAY.replace(hour=15))) is None


def _finding(n: int, binding: bool) -> Finding:
    return Finding(
        rule="crew.max_fdp",
        clause="ORO.FTL.205(b)(1)",
        status="illegal" if binding else "legal",
        binding=binding,
        subject=f"C{n}",
        message=f"crew member C{n} over the FDP limit" if binding else f"C{n} legal",
    )


@given(st.lists(st.lists(st.booleans(), max_size=4), min_size=1, max_size=8))
def test_the_merge_keeps_every_flights_binding_finding_and_names_its_flight(per_flight):
    parts = []
    for i, bindings in enumerate(per_flight):
        f = flight(100 + i, "AUH", "LHR", DAY.replace(hour=14) + timedelta(minutes=10 * i))
        analysis = Analysis(
            agent="crew_compliance",
            recommendation="",
            findings=[_finding(j, b) for j, b in enumerate(bindings)],
        )
        parts.append((f, 180 - 10 * i, analysis))
    merged = merge("crew_compliance", "AUH", parts)
    assert len(merged.binding) == sum(sum(b) for b in per_flight)
    messages = {m.message for m in merged.findings}
    for f, delay, a in parts:
        assert all(f"{f.flight_number} (held {delay} min): {x.message}" in messages for x in a.findings)
    assert f"{len(parts)} flights at AUH" in merged.facts[0] and merged.proposals == []


def test_the_business_totals_sum_counts_and_keep_the_worst():
    def guest(n: int, misconnections: int, nps: float) -> tuple:
        impact = GuestImpact(
            pax_affected=n, misconnections=misconnections, elite_pax=1, nps_impact_estimate=nps, vulnerable_pax=0
        )
        return (
            flight(n, "AUH", "LHR", DAY),
            None,
            Analysis(agent="guest_experience", recommendation="", impact=impact),
        )

    merged = merge("guest_experience", "AUH", [guest(1, 5, -2.0), guest(2, 40, -9.5), guest(3, 0, -1.0)])
    total = merged.impact
    assert isinstance(total, GuestImpact)
    assert (total.pax_affected, total.misconnections, total.elite_pax, total.nps_impact_estimate) == (6, 45, 3, -9.5)
    assert merged.facts[1] == "Worst: EY2 40 misconnections, EY1 5 misconnections"
    cargo = [
        (
            flight(n, "AUH", "LHR", DAY),
            None,
            Analysis(
                agent="cargo",
                recommendation="",
                impact=CargoImpact(
                    total_awbs=2, high_yield_awbs=0, perishable_awbs=n, cold_chain_at_risk=n == 2, revenue_at_risk=1.5
                ),
            ),
        )
        for n in (1, 2)
    ]
    both = merge("cargo", "AUH", cargo).impact
    assert isinstance(both, CargoImpact) and both.cold_chain_at_risk and both.total_awbs == 4
    assert both.revenue_at_risk == 3.0
