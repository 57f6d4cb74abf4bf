"""When the cause clears (issue 46 item 1): a stated estimate read in many phrasings and placed in time, the airline's
history as a median and percentile with a minimum of cases, the documented policy otherwise — and a stated estimate
the data contradicts refused. Unit tests: the record's queries are replaced by lists (no AWS)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st
from row_builders import flight, utc

from skymarshal.analysis.base import decision_time
from skymarshal.data import queries as q
from skymarshal.intake import clearance_history as history
from skymarshal.intake.clearance import PAST_GRACE, STATED_MARGIN_MIN, with_clearance
from skymarshal.intake.clearance_policy import clearance_kind
from skymarshal.models.disruption import (
    DELAY_CODES,
    Disruption,
    Fact,
    ReportContradictsData,
    Scope,
    Window,
    family_of,
)
from skymarshal.models.history import DisruptionRecord

STD = utc(2027, 1, 20, 10)
NOW = utc(2027, 1, 20, 6)
FLIGHT = flight(dep=STD, origin="MCT", destination="AUH", block=90)
WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


@pytest.fixture(autouse=True)
def empty_record(monkeypatch):
    """No history and no standby unless a test gives them: reads are lists here."""
    records: list[DisruptionRecord] = []
    monkeypatch.setattr(
        q, "past_disruptions", lambda handle, kind, **kw: [r for r in records if r.disruption_type == kind]
    )
    monkeypatch.setattr(q, "work_orders_for_aircraft", lambda handle, reg: [])
    monkeypatch.setattr(q, "standby_crew", lambda handle, base, day: [])
    return records


def _disruption(code: int, scope: Scope | None = None, facts: list[Fact] | None = None, **kw) -> Disruption:
    scope = scope or Scope(kind="flight", flight_numbers=[FLIGHT.flight_number], flights=[FLIGHT.flight_id])
    return Disruption.of_code(code, scope=scope, facts=facts or [], **kw)


def _clears(report: str, code: int = 41, now: datetime = NOW, f=FLIGHT):
    d = with_clearance(_disruption(code), report, None, now, f)  # type: ignore[arg-type]
    assert d.clears is not None
    return d


def _record(i: int, minutes: int, station: str = "MCT", kind: str = "mechanical", action: str = "delay"):
    return DisruptionRecord(
        disruption_id=f"H-{i}",
        disruption_type=kind,
        occurred_at=utc(2026, 6, 1) + timedelta(days=i),
        flight_number="EY100",
        origin=station,
        destination="AUH",
        aircraft_type="A320",
        initial_delay_minutes=minutes,
        recommended_action=action,
        chosen_action=action,
        overridden=False,
        outcome="on_plan",
        actual_delay_minutes=minutes,
        passengers_affected=100,
        cost_usd=1000.0,
        summary="a past case",
    )


# ------------------------------------------------------------------ stated: many phrasings of one estimate


def _hours_phrase(hours: int, extra: int, form: int) -> tuple[str, int]:
    minutes = hours * 60 + extra
    return [
        (f"{hours}h{extra:02d}", minutes),
        (f"{hours} h {extra}", minutes),
        (f"{hours} hrs {extra} mins", minutes),
        (f"{hours} hours and {extra} minutes", minutes),
        (f"{WORDS[hours - 1]} hours", hours * 60),
        (f"{WORDS[hours - 1]} and a half hours", hours * 60 + 30),
        (f"{hours}.5 hrs", hours * 60 + 30),
        (f"{hours * 60 + extra} minutes", minutes),
        (f"{hours * 60 + extra}MIN", minutes),
    ][form]


@given(
    hours=st.integers(1, 9),
    extra=st.integers(1, 59),
    form=st.integers(0, 8),
    sentence=st.sampled_from(
        [
            "EY123 AOG at MCT, engineers need about {d} to replace the starter",
            "Hydraulic leak on EY123. Rectification expected to take {d}.",
            "EY123 tech: MX estimate {d} for the brake change",
            "Bird strike on EY123, the inspection will need roughly {d}",
            "EY123 U/S - ETR {d} per engineering",
        ]
    ),
)
def test_a_stated_work_estimate_is_read_in_any_phrasing_from_the_decision(hours, extra, form, sentence):
    words, minutes = _hours_phrase(hours, extra, form)
    d = _clears(sentence.format(d=words))
    at = decision_time(FLIGHT, NOW)
    assert d.clears.source == "stated" and d.clears.kind == "aircraft_release"
    assert d.clears.expected == at + timedelta(minutes=minutes), (words, d.clears)
    assert d.clears.latest >= d.clears.expected + timedelta(minutes=STATED_MARGIN_MIN)
    fact = next(f for f in d.facts if f.name == "clears")
    assert fact.source == "stated" and fact.span is not None
    report = sentence.format(d=words)
    assert report[fact.span[0] : fact.span[1]] == fact.evidence


@given(
    minutes=st.integers(5, 600),
    form=st.sampled_from(
        ["ETD +{m}", "EST DLA {m}MIN", "ETD slips by {m} mins", "DLA {m}", "delayed by {m} minutes", "{m} min late"]
    ),
    code=st.sampled_from([18, 32, 41, 93]),
)
def test_a_stated_delay_is_past_the_scheduled_departure(minutes, form, code):
    d = _clears(f"EY123/20JAN {form.format(m=minutes)}", code=code)
    assert d.clears.source == "stated"
    assert d.clears.expected == STD + timedelta(minutes=minutes)


@given(
    low=st.integers(1, 5),
    span=st.integers(1, 4),
    joiner=st.sampled_from(["{a}-{b} hours", "between {a} and {b} hours", "{a} to {b} hrs"]),
)
def test_a_stated_range_is_the_estimate_and_its_own_upper_bound(low, span, joiner):
    d = _clears("EY123 gear problem, fix in " + joiner.format(a=low, b=low + span))
    at = decision_time(FLIGHT, NOW)
    assert d.clears.expected == at + timedelta(hours=low)
    assert d.clears.latest == at + timedelta(hours=low + span)


@given(
    hour=st.integers(10, 23),
    minute=st.integers(0, 59),
    zone=st.sampled_from(["Z", " UTC", " local", "L", " LT"]),
    sentence=st.sampled_from(
        ["fog at MCT expected to lift by {t}", "EY123 captain fatigued, fit again at {t}", "AOG, release at {t}"]
    ),
)
def test_a_stated_clock_time_is_read_in_utc_or_the_stations_zone(hour, minute, zone, sentence):
    text = sentence.format(t=f"{hour:02d}:{minute:02d}{zone}")
    local = zone.strip().lower() in ("local", "l", "lt")
    tz = ZoneInfo("Asia/Muscat") if local else UTC
    wanted = datetime(2027, 1, 20, hour, minute, tzinfo=tz).astimezone(UTC)
    d = _clears(text, code=71 if "fog" in text else 64 if "fatigued" in text else 41)
    assert d.clears.source == "stated" and d.clears.expected == wanted, text


@pytest.mark.parametrize("text", ["CTOT 1115Z", "CTOT 11:15Z", "EY123 REGUL, new slot 1115Z", "ETD 1300Z"])
def test_a_slot_or_departure_estimate_after_the_schedule_is_the_clearance(text):
    d = _clears(text, code=81)
    assert d.clears.kind == "ctot" and d.clears.source == "stated" and d.clears.expected > STD


# ------------------------------------------------------------------ bad input: refused on one line


@pytest.mark.parametrize("text", ["CTOT 0930Z", "EY123 ETD 0845Z", "slot time 09:15Z"])
def test_a_slot_or_departure_before_the_schedule_is_refused(text):
    with pytest.raises(ReportContradictsData, match="before EY123's scheduled departure"):
        with_clearance(_disruption(81), text, None, NOW, FLIGHT)  # type: ignore[arg-type]


@given(early=st.integers(1, int(PAST_GRACE.total_seconds() // 60) - 1))
def test_a_release_already_past_for_a_flight_on_the_ground_is_refused(early):
    released = utc(2027, 1, 20, 9) - timedelta(minutes=early)
    text = f"EY123 AOG, aircraft released at {released:%H:%M}Z"
    with pytest.raises(ReportContradictsData, match="still on the ground"):
        with_clearance(_disruption(41), text, None, utc(2027, 1, 20, 9), FLIGHT)  # type: ignore[arg-type]


def test_a_range_that_ends_before_it_starts_is_refused():
    with pytest.raises(ReportContradictsData, match="ends before it starts"):
        with_clearance(_disruption(41), "engineers say between 5 and 3 hours", None, NOW, FLIGHT)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "the captain called in sick two hours before departure",
        "check-in queues an hour long",
        "a seven hour flight",
        "EY123 departing at 14:20 has a bird strike",
        "ETD TBA",
    ],
)
def test_words_that_time_something_else_state_no_estimate(text):
    assert _clears(text, code=64).clears.source != "stated"


@given(
    minutes=st.integers(5, 400),
    subject=st.sampled_from(["it", "we", "the aircraft", "EY123", "the de-icing rig", "they"]),
    modal=st.sampled_from(
        ["can push", "will be released", "could leave", "is able to go", "gets to push", "may board"]
    ),
    code=st.sampled_from([41, 75, 87, 18]),
)
def test_a_duration_before_the_flight_can_go_is_the_wait_itself(minutes, subject, modal, code):
    """'expects about 60 minutes before it can push' states the wait (the decision bench's MUC de-icing queue fell
    back on the history's 185 minutes and refused the 60-minute delay); 'two hours before departure' still times
    something else."""
    d = _clears(f"EY123 expects about {minutes} minutes before {subject} {modal}", code=code)
    assert d.clears.source == "stated", d.clears
    at = STD if clearance_kind(d) not in ("aircraft_release", "crew_available") else decision_time(FLIGHT, NOW)
    assert d.clears.expected == at + timedelta(minutes=minutes)


@pytest.mark.parametrize(
    ("text", "words", "minutes"),
    [
        ("the captain called in sick two hours before departure", "two hours", 120),
        ("check-in queues an hour long", "an hour", 60),
        ("the first officer reported unfit 90 minutes ago", "90 minutes", 90),
    ],
)
def test_the_readers_duration_fact_timing_something_else_is_no_estimate_either(text, words, minutes):
    """The reader's stated duration (report.py) is the fallback when the words state no estimate: it must not bring
    back what the words left out — a sick captain read as fit again two hours after the decision."""
    at = text.index(words)
    said = Fact(name="duration_minutes", value=minutes, source="stated", evidence=words, span=(at, at + len(words)))
    d = with_clearance(_disruption(64, facts=[said]), text, None, NOW, FLIGHT)  # type: ignore[arg-type]
    assert d.clears is not None and d.clears.source != "stated"
    kept = f"the captain called in sick, delay {words}"  # the same fact, timing the delay: the estimate
    at = kept.index(words)
    said = said.model_copy(update={"span": (at, at + len(words))})
    d = with_clearance(_disruption(64, facts=[said]), kept, None, NOW, FLIGHT)  # type: ignore[arg-type]
    assert d.clears is not None and d.clears.source == "stated"


# ------------------------------------------------------------------ history, with a minimum of cases


@given(minutes=st.lists(st.integers(5, 900), min_size=1, max_size=60), p=st.integers(1, 100))
def test_nearest_rank_is_an_observed_value_with_p_percent_at_or_below(minutes, p):
    value = history.nearest_rank(minutes, p)
    assert value in minutes
    assert sum(m <= value for m in minutes) / len(minutes) >= p / 100


def test_history_gives_the_median_and_the_80th_percentile_of_the_waits_at_the_station(empty_record):
    empty_record += [_record(i, 60 + 10 * i) for i in range(10)]  # 60..150 at MCT
    empty_record += [_record(20 + i, 900, station="LHR") for i in range(10)]  # elsewhere: not this station's
    empty_record += [_record(40 + i, 999, action="tail_swap") for i in range(10)]  # not waited out
    d = _clears("EY123 hydraulic leak")
    assert d.clears.source == "history" and d.clears.cases == 10 and d.clears.percentile == 80
    assert d.clears.expected == STD + timedelta(minutes=100)  # nearest-rank median of 60..150
    assert d.clears.latest == STD + timedelta(minutes=130)  # nearest-rank p80
    assert next(f for f in d.facts if f.name == "clears").source == "data"


def test_too_few_cases_fall_back_to_the_policy_and_say_so(empty_record):
    empty_record += [_record(i, 60) for i in range(history.MIN_CASES - 1)]
    d = _clears("EY123 hydraulic leak")
    assert d.clears.source == "policy" and d.clears.cases is None
    assert "too few" in d.clears.evidence and "ATA 29" in d.clears.evidence


def test_too_few_at_the_station_uses_the_network(empty_record):
    empty_record += [_record(i, 120, station="LHR") for i in range(history.MIN_CASES)]
    d = _clears("EY123 hydraulic leak")
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
    d = _clears("EY123 hydraulic leak")
    at = decision_time(FLIGHT, NOW)
    assert d.clears.source == "history" and d.clears.cases == 9
    assert d.clears.expected == at + timedelta(hours=5) and d.clears.latest == at + timedelta(hours=8)


# ------------------------------------------------------------------ every cause has an end


EXPECTED_KIND = {
    "technical": "aircraft_release",
    "weather": "station_reopens",
    "passengers_baggage": "flight_released",
    "cargo_mail": "flight_released",
    "aircraft_ramp_handling": "flight_released",
    "reactionary": "flight_released",
}


@pytest.mark.parametrize("code", sorted(DELAY_CODES))
def test_every_cause_gets_a_clearance_with_its_source(code):
    d = _clears("EY123 has a problem", code=code)
    assert d.clears.latest >= d.clears.expected >= decision_time(FLIGHT, NOW) - timedelta(hours=1)
    assert d.clears.kind == clearance_kind(d)
    if family_of(code) in EXPECTED_KIND and code not in (94, 95):  # 94, 95: awaiting a crew (reactionary)
        assert d.clears.kind == EXPECTED_KIND[family_of(code)]
    if code in (64, 67, 94, 95):
        assert d.clears.kind == "crew_available"
    if code in (81, 82, 83, 84):
        assert d.clears.kind == "ctot" and d.clears.expected > STD
    assert [f.name for f in d.facts].count("clears") == 1


def test_crew_replacement_at_base_is_sooner_than_away(monkeypatch):
    away = _clears("the captain is sick", code=64).clears
    monkeypatch.setattr(q, "standby_crew", lambda handle, base, day: ["a standby"])
    at_base = _clears("the captain is sick", code=64).clears
    assert at_base.source == away.source == "policy" and at_base.expected < away.expected


def test_an_airport_window_reopens_at_its_stated_end():
    window = Window(start=utc(2027, 1, 20, 14), end=utc(2027, 1, 20, 18))
    said = Fact(name="window", value="14:00-18:00", source="stated", evidence="14:00-18:00Z", span=(20, 32))
    d = Disruption.of_code(87, scope=Scope(kind="airport", airport="MCT"), window=window, facts=[said])
    d = with_clearance(d, "MCT runway closed 14:00-18:00Z", None, NOW, None)  # type: ignore[arg-type]
    assert d.clears is not None and d.clears.kind == "station_reopens" and d.clears.source == "stated"
    assert d.clears.expected == d.clears.latest == window.end


def test_the_clearance_is_printed_among_the_facts(capsys):
    from skymarshal.cli.render import render_understood

    d = _clears("EY123 AOG, engineers need about three hours")
    render_understood(d.model_dump(mode="json"))
    assert "clears = aircraft_release" in capsys.readouterr().out


@given(minutes=st.integers(5, 900))
def test_a_movement_messages_delay_is_past_the_schedule(minutes):
    message = f"MVT\nEY123/20.A6BLA.MCT\nED20{(STD + timedelta(minutes=minutes)):%H%M}\nDL41/{minutes // 60:02d}{minutes % 60:02d}"
    delay = message.index("DL41")
    stated = Fact(
        name="duration_minutes", value=minutes, source="stated", evidence=message[delay:], span=(delay, len(message))
    )
    d = with_clearance(_disruption(41, facts=[stated]), message, None, NOW, FLIGHT)  # type: ignore[arg-type]
    assert d.clears is not None and d.clears.source == "stated"
    assert d.clears.expected == STD + timedelta(minutes=minutes)


@pytest.mark.parametrize(("code", "base"), [(41, "decision"), (81, "departure"), (18, "departure")])
def test_a_corrected_duration_replaces_the_reports_words(code, base):
    from skymarshal.models.disruption import FactCorrection

    corrected = FactCorrection(key="duration", value="150", read="60", by="duty manager")
    d = _disruption(code, severity_minutes=150, corrections=[corrected])
    d = with_clearance(d, "EY123 delayed 60 min", None, NOW, FLIGHT)  # type: ignore[arg-type]
    start = decision_time(FLIGHT, NOW) if base == "decision" else STD
    assert d.clears is not None and d.clears.expected == start + timedelta(minutes=150)
    assert "corrected duration=150" in d.clears.evidence


@given(
    std_minute=st.integers(0, 24 * 60 - 1),
    late=st.integers(1, 11 * 60),
    ahead=st.integers(0, 23 * 60),
    words=st.sampled_from(["ETD {t}Z", "CTOT {t}Z", "Off-blocks expected {t}Z", "off blocks est {t}Z"]),
)
def test_a_departure_time_after_the_schedule_is_kept_whenever_the_report_is_made(std_minute, late, ahead, words):
    std = utc(2027, 1, 18) + timedelta(minutes=std_minute)
    f = flight(dep=std, origin="MCT", destination="AUH", block=90)
    etd = std + timedelta(minutes=late)
    d = _clears(f"EY123 18JAN {words.format(t=f'{etd:%H%M}')}", code=93, now=std - timedelta(minutes=ahead), f=f)
    assert d.clears.source == "stated" and d.clears.expected == etd


@given(first=st.integers(5, 300), second=st.integers(5, 300))
def test_two_durations_listed_with_and_are_a_list_not_a_range(first, second):
    d = _clears(f"CTOTs on EY123 and EY125, {first} and {second} min respectively", code=83)
    assert d.clears.expected == STD + timedelta(minutes=max(first, second))


def test_a_cause_that_outlasted_its_estimate_is_estimated_from_the_cases_that_lasted_longer(empty_record):
    empty_record += [_record(i, 60 + 10 * i) for i in range(20)]  # 60..250 at MCT
    d = _clears("EY123 hydraulic leak", now=STD + timedelta(minutes=120))  # decided again, still on the ground
    assert d.clears.source == "history" and d.clears.cases == 13  # 130..250: the cases longer than 120 min
    assert d.clears.expected == STD + timedelta(minutes=190) and d.clears.latest == STD + timedelta(minutes=230)
    assert "longer than the 120 min it has lasted" in d.clears.evidence


@given(hours=st.integers(3, 20))
def test_a_cause_that_outlasted_the_policy_is_given_it_again_from_the_decision(hours):
    now = STD + timedelta(hours=hours)
    d = _clears("EY123 held by dense fog at MCT", code=71, now=now)
    assert d.clears.source == "policy" and d.clears.expected > now
    assert "outlasted it" in d.clears.evidence
