"""When the cause clears, from the airline's own record (issue 46 item 1): the median and 80th percentile of the
waits at the station, the network when the station has too few, the tail's own work orders by ATA chapter, the
documented policy with the reason when the record falls short, and a cause that outlasted its estimate estimated
again. Unit tests: the record's queries are lists (no AWS)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from clearance_cases import FLIGHT, NOW, STD, clears_of, past_record
from hypothesis import given
from hypothesis import strategies as st
from row_builders import utc

from skymarshal.analysis.base import decision_time
from skymarshal.data import queries as q
from skymarshal.intake import clearance_history as history

pytestmark = pytest.mark.usefixtures("empty_record")


@given(minutes=st.lists(st.integers(5, 900), min_size=1, max_size=60), p=st.integers(1, 100))
def test_nearest_rank_is_an_observed_value_with_p_percent_at_or_below(minutes, p):
    value = history.nearest_rank(minutes, p)
    assert value in minutes
    assert sum(m <= value for m in minutes) / len(minutes) >= p / 100


def test_history_gives_the_median_and_the_80th_percentile_of_the_waits_at_the_station(empty_record):
    empty_record += [past_record(i, 60 + 10 * i) for i in range(10)]  # 60..150 at MCT
    empty_record += [past_record(20 + i, 900, station="LHR") for i in range(10)]  # elsewhere: not this station's
    empty_record += [past_record(40 + i, 999, action="tail_swap") for i in range(10)]  # not waited out
    d = clears_of("EY123 hydraulic leak")
    assert d.clears.source == "history" and d.clears.cases == 10 and d.clears.percentile == 80
    assert d.clears.expected == STD + timedelta(minutes=100)  # nearest-rank median of 60..150
    assert d.clears.latest == STD + timedelta(minutes=130)  # nearest-rank p80
    assert d.clears.earliest == STD + timedelta(minutes=70)  # nearest-rank p20: how soon it may clear
    assert next(f for f in d.facts if f.name == "clears").source == "data"


def test_too_few_cases_fall_back_to_the_policy_and_say_so(empty_record):
    empty_record += [past_record(i, 60) for i in range(history.MIN_CASES - 1)]
    d = clears_of("EY123 hydraulic leak")
    assert d.clears.source == "policy" and d.clears.cases is None
    assert "too few" in d.clears.evidence and "ATA 29" in d.clears.evidence


def test_too_few_at_the_station_uses_the_network(empty_record):
    empty_record += [past_record(i, 120, station="LHR") for i in range(history.MIN_CASES)]
    d = clears_of("EY123 hydraulic leak")
    assert d.clears.source == "history" and "across the network" in d.clears.evidence


def test_the_tails_own_work_orders_give_the_time_to_fix_its_ata_chapter(monkeypatch):
    from skymarshal.models.operational import WorkOrder

    def order(i: int, hours: int, chapter: str = "29") -> WorkOrder:
        opened = utc(2026, 12, 1) + timedelta(days=i)
        return WorkOrder(
            work_order_id=f"WO{i}",
            aircraft_registration=FLIGHT.aircraft_registration,
            opened_at=opened,
            kind="DEFECT",
            status="CLOSED",
            ata_chapter=chapter,
            description="leak",
            station="AUH",
            closed_at=opened + timedelta(hours=hours),
        )

    orders = [order(i, 1 + i) for i in range(9)] + [order(20 + i, 50, chapter="32") for i in range(9)]
    monkeypatch.setattr(q, "work_orders_for_aircraft", lambda handle, reg: orders)
    d = clears_of("EY123 hydraulic leak")
    at = decision_time(FLIGHT, NOW)
    assert d.clears.source == "history" and d.clears.cases == 9
    assert d.clears.expected == at + timedelta(hours=5) and d.clears.latest == at + timedelta(hours=8)


def test_a_cause_that_outlasted_its_estimate_is_estimated_from_the_cases_that_lasted_longer(empty_record):
    empty_record += [past_record(i, 60 + 10 * i) for i in range(20)]  # 60..250 at MCT
    d = clears_of("EY123 hydraulic leak", now=STD + timedelta(minutes=120))  # decided again, still on the ground
    assert d.clears.source == "history" and d.clears.cases == 13  # 130..250: the cases longer than 120 min
    assert d.clears.expected == STD + timedelta(minutes=190) and d.clears.latest == STD + timedelta(minutes=230)
    assert "longer than the 120 min it has lasted" in d.clears.evidence


@given(hours=st.integers(3, 20))
def test_a_cause_that_outlasted_the_policy_is_given_it_again_from_the_decision(hours):
    now = STD + timedelta(hours=hours)
    d = clears_of("EY123 held by dense fog at MCT", code=71, now=now)
    assert d.clears.source == "policy" and d.clears.expected > now
    assert "outlasted it" in d.clears.evidence
