"""DisruptionHistory: deterministic, valid precedents on the real network, seeded into the emulated account and
read back newest first through disruption-type-index — by an unrestricted handle only."""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from datetime import timedelta
from statistics import mean

import pytest

from skymarshal.data import queries as q
from skymarshal.data import schema as s
from skymarshal.data.access import AccessDenied
from skymarshal.data.generator import GeneratorConfig
from skymarshal.data.generator.config import local_to_utc
from skymarshal.data.generator.history import build_history
from skymarshal.data.generator.history_cases import network_legs
from skymarshal.data.rows import parse_row
from skymarshal.data.transfer import import_folder, write_generated
from skymarshal.models.fleet import AIRCRAFT_TYPES
from skymarshal.models.history import DisruptionRecord

TYPES = ("mechanical", "crew", "weather", "atc", "other")


def _history(seed: int, **settings) -> list[DisruptionRecord]:
    return build_history(GeneratorConfig(seed=seed, **settings), random.Random(f"{seed}:history"))


@pytest.fixture(scope="module")
def history(airline) -> list[DisruptionRecord]:
    return airline.tables[s.DISRUPTION_HISTORY]


def test_generate_seeds_the_history_from_its_own_stream(airline, history):
    config = airline.config
    assert [r.to_item() for r in history] == [
        r.to_item() for r in build_history(config, random.Random(f"{config.seed}:history"))
    ]


def test_same_seed_same_history_and_another_seed_another():
    first, second = _history(7), _history(7)
    assert [r.to_item() for r in first] == [r.to_item() for r in second]
    assert [r.summary for r in _history(8)] != [r.summary for r in first]


def test_every_record_validates_and_round_trips_through_the_import_model(history):
    assert 300 <= len(history) <= 600
    for record in history:
        item = record.to_item()
        assert DisruptionRecord.model_validate(item) == record
        assert parse_row(s.DISRUPTION_HISTORY, item) == record
        assert record.summary.endswith(".") and record.summary.count(".") <= 2  # one sentence
        assert record.overridden == (record.chosen_action != record.recommended_action)


@pytest.mark.parametrize("seed, settings", [(2027, {}), (0, {"scale": 3}), (2**32 - 1, {"days": 31})])
def test_each_type_has_at_least_fifty_records_all_before_the_window(seed, settings):
    records = _history(seed, **settings)
    config = GeneratorConfig(seed=seed, **settings)
    window_start = local_to_utc(config.start, "00:00", "Asia/Dubai")
    counts = Counter(r.disruption_type for r in records)
    assert set(counts) == set(TYPES) and min(counts.values()) >= 50, counts
    assert all(window_start - timedelta(days=366) <= r.occurred_at < window_start for r in records)


def test_ids_are_unique_by_year_in_time_order(history):
    ids = [r.disruption_id for r in history]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"H-\d{4}-\d{4}", i) and i[2:6] == str(r.occurred_at.year) for i, r in zip(ids, history))
    assert [r.occurred_at for r in history] == sorted(r.occurred_at for r in history)
    assert history[0].disruption_id.endswith("-0001")


def test_records_use_the_generated_network_and_plausible_loads(airline, history):
    legs = {
        (f"EY{leg.number}", leg.origin, leg.destination, leg.aircraft_type)
        for leg in network_legs(airline.config.scale)
    }
    flown = {(f.flight_number, f.origin, f.destination, f.aircraft_type) for f in airline.tables[s.FLIGHTS]}
    assert legs == flown
    for r in history:
        assert (r.flight_number, r.origin, r.destination, r.aircraft_type) in legs
        assert 0 < r.passengers_affected <= AIRCRAFT_TYPES[r.aircraft_type].seats
        assert r.cost_usd > 0 and r.decided_by


def _by_action(records):
    groups = defaultdict(list)
    for r in records:
        groups[(r.disruption_type, r.chosen_action)].append(r)
    return groups


def _share(records, outcome: str) -> float:
    return sum(r.outcome == outcome for r in records) / len(records)


def test_outcomes_are_informative_for_a_ranking_that_learns_from_history():
    records = [r for seed in (1, 2, 3) for r in _history(seed)]  # pooled: the shares are stable
    groups = _by_action(records)
    assert _share(groups["mechanical", "tail_swap"], "on_plan") > 0.65
    assert _share(groups["mechanical", "delay"], "late") > 0.3
    assert _share(groups["mechanical", "tail_swap"], "on_plan") > _share(groups["mechanical", "delay"], "on_plan") + 0.2
    assert _share(groups["crew", "crew_swap"], "on_plan") > 0.7
    assert _share(groups["weather", "delay"], "on_plan") > 0.65 and groups["weather", "divert"]
    for kind in TYPES:
        cancelled = groups[kind, "cancel"]
        assert cancelled and all(r.outcome == "on_plan" for r in cancelled)
        others = [r for (k, action), rs in groups.items() if k == kind and action != "cancel" for r in rs]
        assert mean(r.cost_usd for r in cancelled) > 1.5 * mean(r.cost_usd for r in others), kind
    overridden = sum(r.overridden for r in records) / len(records)
    assert 0.08 <= overridden <= 0.16


def test_history_does_not_depend_on_the_window_load_factor():
    config = GeneratorConfig(seed=5, load_factor=0.05)
    assert [r.to_item() for r in build_history(config, random.Random("5:history"))] == [
        r.to_item() for r in _history(5)
    ]


def _seeded(records: list) -> list:
    """The generator's records: a run's own (`SM-{run}`) that a test in the same worker left are not the seed's."""
    return [r for r in records if not r.disruption_id.startswith("SM-")]


def test_the_seeded_account_holds_every_record(account, history):
    assert account.seed_info()["counts"][s.DISRUPTION_HISTORY] == len(history)
    handle = account.handle()
    found = _seeded([r for kind in TYPES for r in q.past_disruptions(handle, kind)])
    assert sorted(r.disruption_id for r in found) == sorted(r.disruption_id for r in history)


@pytest.mark.parametrize("kind", TYPES)
def test_past_disruptions_are_of_the_type_newest_first(handle, history, kind):
    found = _seeded(q.past_disruptions(handle, kind))
    expected = sorted((r for r in history if r.disruption_type == kind), key=lambda r: r.occurred_at, reverse=True)
    assert [r.disruption_id for r in found] == [r.disruption_id for r in expected]
    assert found == expected  # every field survives DynamoDB (numbers come back as Decimal)
    assert handle.calls.get("Scan:DisruptionHistory") is None and handle.calls["Query:DisruptionHistory"] >= 1


def test_past_disruptions_since_and_limit(handle, history):
    weather = [r for r in history if r.disruption_type == "weather"]
    since = weather[len(weather) // 2].occurred_at
    recent = q.past_disruptions(handle, "weather", since=since)
    assert recent and all(r.occurred_at >= since for r in recent)
    assert len(_seeded(recent)) == sum(r.occurred_at >= since for r in weather)
    newest = q.past_disruptions(handle, "weather", limit=5)
    assert newest == recent[:5]
    assert q.past_disruptions(handle, "weather", since=since + timedelta(days=400)) == []
    assert q.past_disruptions(handle, "volcano") == []


def test_no_agent_reads_the_history_but_an_unrestricted_handle_does(account):
    for agent, tables in s.AGENT_TABLE_ACCESS.items():
        assert s.DISRUPTION_HISTORY not in tables
        restricted = account.handle(agent)
        with pytest.raises(AccessDenied):
            q.past_disruptions(restricted, "mechanical")
        assert restricted.calls.get("Query:DisruptionHistory") is None  # refused before any request
    assert q.past_disruptions(account.handle(), "mechanical", limit=1)


def test_generated_history_imports_into_a_fresh_table(blank_account, history, tmp_path):
    write_generated(tmp_path, {s.DISRUPTION_HISTORY: history[:60]})
    report = import_folder(tmp_path, blank_account.resource(), blank_account.naming)
    assert report.ok and report.written == {s.DISRUPTION_HISTORY: 60}
    handle = blank_account.handle()
    imported = [r for kind in TYPES for r in q.past_disruptions(handle, kind)]
    assert sorted(r.disruption_id for r in imported) == sorted(r.disruption_id for r in history[:60])


def test_a_limited_query_asks_dynamodb_for_that_many_items_only(handle, history, monkeypatch):
    """The limit goes to DynamoDB as Limit (a precedent search reads five items, not the type's whole history)."""
    table = handle._table(s.DISRUPTION_HISTORY)
    asked: list[dict] = []
    real = table.query
    monkeypatch.setattr(table, "query", lambda **kw: asked.append(kw) or real(**kw))
    newest = q.past_disruptions(handle, "weather", limit=5)
    assert len(newest) == 5 and [a.get("Limit") for a in asked] == [5]
