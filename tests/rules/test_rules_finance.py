"""Plan cost: each component, the USD total, and the exchange rates as data."""

from __future__ import annotations

from datetime import date

import pytest
from ops_rows import booking, flight

from skymarshal.rules.cargo import cargo_impact
from skymarshal.rules.finance import (
    A4A_COST_PER_BLOCK_MINUTE_USD,
    FX_TO_USD,
    FinanceConfig,
    PlanCostInput,
    cancellation_cost,
    compensation_cost,
    crew_overtime_cost,
    delay_cost,
    ferry_cost,
    plan_cost,
    tail_swap_cost,
    to_usd,
)
from skymarshal.rules.guest import assess_guest_impact, compensation_liability, duty_of_care
from skymarshal.rules.network import propagate_delay

LHR_AUH = flight(number="EY18", origin="LHR", destination="AUH", block=420, distance_km=5517)


def test_delay_cost_is_a4a_per_minute_of_each_affected_flight():
    assert A4A_COST_PER_BLOCK_MINUTE_USD == 81.18
    line = delay_cost({"EY1": 100, "EY2": 35})
    assert line.amount_usd == pytest.approx(135 * 81.18) and line.quantity == 135 and line.rate_usd == 81.18
    assert delay_cost({"EY1": 10}, FinanceConfig(delay_cost_per_minute_usd=50)).amount_usd == 500


def test_currencies_are_converted_with_the_configured_rates():
    assert FX_TO_USD["EUR"] == 1.08 and FX_TO_USD["GBP"] == 1.27
    assert to_usd(100, "eur") == pytest.approx(108) and to_usd(100, "USD") == 100
    with pytest.raises(ValueError, match="no exchange rate"):
        to_usd(1, "CHF")
    rows = [booking(f"B{i}", LHR_AUH.flight_id, final="AUH") for i in range(2)]
    liability = compensation_liability(LHR_AUH, rows, "delay", arrival_delay_minutes=200)
    line = compensation_cost([liability])
    assert line.amount_usd == pytest.approx(2 * 520 * 1.27) and line.quantity == 2
    assert compensation_cost([liability], FinanceConfig(fx_to_usd={"GBP": 1.0})).amount_usd == 1040


def test_cancellation_is_refunded_fares_plus_re_accommodation():
    rows = [booking("B1", "X", fare=1000), booking("B2", "X", fare=500, currency="EUR")]
    line = cancellation_cost(rows)
    assert line.amount_usd == pytest.approx(1000 + 540 + 2 * 150)
    half = cancellation_cost(rows, FinanceConfig(refund_share=0.5))
    assert half.amount_usd == pytest.approx(0.5 * 1540 + 300) and half.details["refund_share"] == 0.5


def test_fixed_and_rate_lines():
    assert crew_overtime_cost(3.5).amount_usd == 525.0
    assert tail_swap_cost(2).amount_usd == 10000.0
    assert ferry_cost(90).amount_usd == pytest.approx(90 * 81.18)


def test_plan_cost_lists_every_component_and_adds_them_up():
    rows = [booking(f"B{i}", LHR_AUH.flight_id, final="AUH", fare=800) for i in range(4)]
    care = duty_of_care(LHR_AUH, rows, "delay", departure_delay_minutes=300)
    plan = PlanCostInput(
        flight_delays={LHR_AUH.flight_id: 300},
        compensation=(compensation_liability(LHR_AUH, rows, "delay", arrival_delay_minutes=300),),
        care=(care,),
        crew_overtime_member_hours=12,
        tail_swaps=1,
        ferry_block_minutes=60,
        cancelled_bookings=tuple(rows[:1]),
    )
    cost = plan_cost(plan)
    parts = cost.by_component()
    assert list(parts) == [
        "delay",
        "compensation",
        "care",
        "crew_overtime",
        "tail_swap",
        "ferry",
        "cancellation",
        "cargo",
    ]
    assert cost.total_usd == pytest.approx(sum(parts.values())) and cost.currency == "USD"
    assert parts["care"] == pytest.approx(4 * 15 * 1.08) and parts["cargo"] == 0
    assert "live rate" in cost.fx_note and cost.fx_to_usd["EUR"] == 1.08
    assert plan_cost(PlanCostInput()).total_usd == 0


def test_real_ey123_delay_plan_cost_is_consistent(ops):
    flight_row = ops.flight("EY123", date(2027, 1, 20))
    rows = ops.bookings_on(flight_row.flight_id)
    inbound = [ops.flights[b.inbound_flight_id] for b in rows if b.inbound_flight_id]
    delay = 405  # waiting for the estimated release at 17:10Z
    guest = assess_guest_impact(
        flight_row, rows, "delay", delay_minutes=delay, cause="technical", inbound_flights=inbound
    )
    cargo = cargo_impact(flight_row, ops.assignments, ops.shipments, delay)
    knock_on = propagate_delay(ops.rotation(flight_row.aircraft_registration), flight_row.flight_id, delay)
    cost = plan_cost(
        PlanCostInput(
            flight_delays=knock_on.delays(), compensation=(guest.compensation,), care=(guest.care,), cargo=(cargo,)
        )
    )
    parts = cost.by_component()
    assert parts["delay"] == pytest.approx(knock_on.total_delay_minutes * 81.18)
    assert parts["compensation"] == pytest.approx(sum(to_usd(v, k) for k, v in guest.compensation.totals.items()))
    assert parts["care"] == pytest.approx(to_usd(guest.care.total, "EUR")) and parts["care"] > 0
    assert parts["cargo"] == pytest.approx(cargo.revenue_at_risk_usd) and parts["cargo"] > 0
    assert parts["compensation"] > 0 and cost.total_usd == pytest.approx(sum(parts.values()))
    swap = plan_cost(PlanCostInput(tail_swaps=1, flight_delays={flight_row.flight_id: 0}))
    assert swap.total_usd < cost.total_usd  # the swap plan costs less than waiting for the repair
