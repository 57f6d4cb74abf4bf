"""Cargo time limits by handling code (company policy), offload handling, revenue at risk."""

from __future__ import annotations

from datetime import date

import pytest
from ops_rows import assignment, flight, shipment

from skymarshal.rules.cargo import (
    HANDLING_LIMITS,
    CargoConfig,
    HandlingLimit,
    cargo_impact,
    shipment_risk,
    shipments_on_flight,
    tightest_limit,
)

FLIGHT = flight()


def test_the_policy_table_holds_the_agreed_limits():
    assert {code: row.max_extra_delay_minutes for code, row in HANDLING_LIMITS.items()} == {
        "AVI": 240,
        "PIL": 360,
        "COL": 480,
        "FRO": 360,
        "PER": 720,
        "HUM": 1440,
        "GEN": 2880,
    }
    assert HANDLING_LIMITS["FRO"].extended_with == {"ICE": 720}
    assert [c for c, row in HANDLING_LIMITS.items() if row.over_limit == "illegal"] == ["AVI"]


@pytest.mark.parametrize(
    "delay, status, margin",
    [(120, "legal", 120), (180, "legal", 60), (181, "at_risk", 59), (240, "at_risk", 0), (241, "illegal", -1)],
)
def test_live_animals_over_four_hours_are_illegal_for_welfare(delay, status, margin):
    horses = shipment(1, ["AVI"], commodity="live animals: horses")
    risk = shipment_risk(assignment(horses, FLIGHT.flight_id), horses, delay)
    assert (risk.status, risk.margin_minutes, risk.limiting_code) == (status, margin, "AVI")
    if status == "illegal":
        finding = risk.findings[0]
        assert "Live Animals Regulations" in finding.clause and "company policy" in finding.clause
        assert not finding.binding and "animal welfare" in finding.message


@pytest.mark.parametrize(
    "codes, limiting, minutes",
    [
        (["PIL", "COL"], "PIL", 360),
        (["PER", "COL"], "COL", 480),
        (["PER", "FRO", "ICE"], "FRO", 720),
        (["FRO"], "FRO", 360),
        (["PER"], "PER", 720),
        (["HUM"], "HUM", 1440),
        ([], "GEN", 2880),
        (["DGR"], "GEN", 2880),
        (["VAL"], "GEN", 2880),
    ],
)
def test_the_tightest_code_limits_the_shipment(codes, limiting, minutes):
    row, limit = tightest_limit(shipment(1, codes))
    assert (row.code, limit) == (limiting, minutes)


def test_vaccines_over_six_hours_are_at_risk_of_temperature_excursion():
    vaccines = shipment(2, ["PIL", "COL"], commodity="vaccines (2-8 °C)")
    risk = shipment_risk(assignment(vaccines, FLIGHT.flight_id), vaccines, 361)
    assert risk.status == "at_risk" and "temperature excursion" in risk.findings[0].message
    assert "TCR" in risk.findings[0].clause


def test_offloaded_dangerous_goods_need_re_acceptance():
    batteries = shipment(3, ["DGR"])
    calm = shipment_risk(assignment(batteries, FLIGHT.flight_id), batteries, 60)
    assert calm.status == "legal"
    offloaded = shipment_risk(assignment(batteries, FLIGHT.flight_id), batteries, 60, offloaded=True)
    assert offloaded.status == "at_risk" and offloaded.findings[-1].rule == "cargo.offload_handling"
    assert "re-acceptance" in offloaded.findings[-1].message and "9.1" in offloaded.findings[-1].clause


def test_revenue_at_risk_is_prorated_by_the_weight_on_the_flight():
    fish = shipment(4, ["PER", "COL"], weight=1000, revenue=8000)
    general = shipment(5, [], weight=500, revenue=1000)
    horses = shipment(6, ["AVI"], weight=800, revenue=9000)
    rows = [
        assignment(fish, FLIGHT.flight_id, weight=250),
        assignment(general, FLIGHT.flight_id, priority=2),
        assignment(horses, FLIGHT.flight_id, status="OFFLOADED"),
        assignment(general, "EY9-20270120"),
    ]
    impact = cargo_impact(FLIGHT, rows, [fish, general, horses], 500)
    assert [s.shipment_id for s in impact.shipments] == [fish.shipment_id, general.shipment_id]
    assert impact.revenue_usd == 3000.0 and impact.revenue_at_risk_usd == 2000.0  # a quarter of the fish
    assert impact.by_status == {"legal": 1, "at_risk": 1, "illegal": 0} and impact.weight_kg == 750
    assert [f.subject for f in impact.findings] == [fish.shipment_id]


def test_limits_are_configurable_data():
    strict = CargoConfig(
        limits={
            **HANDLING_LIMITS,
            "PER": HandlingLimit(
                code="PER", max_extra_delay_minutes=60, over_limit="illegal", risk="spoilage", source="test"
            ),
        }
    )
    fruit = shipment(7, ["PER"])
    assert shipment_risk(assignment(fruit, FLIGHT.flight_id), fruit, 61, config=strict).status == "illegal"


def test_bad_delay_and_unknown_waybills():
    ghost = shipment(8)
    assert shipments_on_flight(FLIGHT, [assignment(ghost, FLIGHT.flight_id)], []) == []
    with pytest.raises(ValueError):
        cargo_impact(FLIGHT, [], [], -5)


def test_real_ey123_cargo_numbers_match_the_rows(ops):
    flight_row = ops.flight("EY123", date(2027, 1, 20))
    mine = [a for a in ops.assignments if a.flight_id == flight_row.flight_id]
    impact = cargo_impact(flight_row, ops.assignments, ops.shipments, 405)
    assert len(impact.shipments) == len(mine) > 0
    by_id = {s.shipment_id: s for s in ops.shipments}
    assert impact.revenue_usd == pytest.approx(sum(by_id[a.shipment_id].revenue_usd for a in mine))
    risky = [s for s in impact.shipments if s.status != "legal"]
    assert impact.revenue_at_risk_usd == pytest.approx(sum(s.revenue_usd for s in risky))
    for s in impact.shipments:  # 6 h 45 min: past PIL's 6 h (and AVI's 4 h); COL (8 h) and the rest within
        assert (s.status != "legal") == (s.margin_minutes < 60)
        assert (s.margin_minutes < 0) == (s.limiting_code in ("PIL", "AVI"))
    assert any(s.limiting_code == "PIL" and s.status == "at_risk" for s in impact.shipments)
    offload = cargo_impact(flight_row, ops.assignments, ops.shipments, 405, offloaded=True)
    dgr = [s for s in offload.shipments if "DGR" in s.handling_codes]
    assert dgr and all(s.status == "at_risk" for s in dgr)
