"""A duty manager's correction of a fact: each value checked and written one way, a bad one refused in one line;
the corrected disruption replaces the reading's cause, position, window or duration and keeps who and what had been
read; what the reading is unsure of is said, not guessed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from intake.test_disruption_facts import KNOWN, flight

from skymarshal.intake.corrected_facts import corrected_disruption, with_unsure
from skymarshal.intake.disruption_facts import flight_disruption
from skymarshal.intake.report import read_report
from skymarshal.models.corrections import (
    CORRECTION_KEYS,
    CorrectionRefused,
    checked_facts,
    parse_fact,
    uncertainties,
)
from skymarshal.models.disruption import DELAY_CODES, POSITION_RANKS, family_of

CODES = st.sampled_from(sorted(DELAY_CODES))
TIMES = st.tuples(st.integers(0, 23), st.integers(0, 59))
GOOD = st.one_of(
    st.tuples(st.just("code"), CODES.map(str)),
    st.tuples(st.just("family"), CODES.map(family_of)),
    st.tuples(st.just("crew_position"), st.sampled_from([*POSITION_RANKS, *POSITION_RANKS.values()])),
    st.tuples(st.just("duration"), st.integers(1, 48 * 60).map(str)),
    st.tuples(
        st.just("window"),
        st.tuples(TIMES, TIMES)
        .filter(lambda w: w[0] != w[1])
        .map(lambda w: f"{w[0][0]}:{w[0][1]:02d}-{w[1][0]:02d}{w[1][1]:02d}"),
    ),
    st.tuples(
        st.just("flights"),
        st.lists(st.from_regex(r"EY[1-9]\d{0,3}", fullmatch=True), min_size=1, max_size=5).map(", ".join),
    ),
    st.tuples(st.just("date"), st.dates().map(lambda d: d.isoformat())),
)


@given(GOOD)
def test_a_checked_value_is_written_one_way(pair):
    key, value = pair
    once = checked_facts({key: value})
    assert list(once) == [key]
    assert checked_facts(once) == once  # checking the written value again changes nothing
    assert parse_fact(f"{key}={value}") == (key, once[key])


@given(st.text(max_size=30), st.text(max_size=30))
def test_anything_else_is_one_line_or_a_value(key, value):
    try:
        out = checked_facts({key: value})
    except CorrectionRefused as exc:
        assert "\n" not in str(exc) and str(exc)
    else:
        assert set(out) <= set(CORRECTION_KEYS)


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        ({"code": "7"}, "code=7: not an IATA AHM 730 delay code"),
        ({"code": "53"}, "code=53: not an IATA AHM 730"),
        ({"crew_position": "navigator"}, "crew_position=navigator: one of CAPTAIN"),
        ({"window": "25:00-26:00"}, "window=25:00-26:00: HH:MM-HH:MM in UTC"),
        ({"duration": "0"}, "duration=0: 1 to 2880 minutes"),
        ({"flights": "EY 12"}, "flights=EY 12: flight numbers"),
        ({"date": "20/01/2027"}, "date=20/01/2027: the flights' day as YYYY-MM-DD"),
        ({"aircraft": "A6-BLA"}, "aircraft: not a fact that can be corrected"),
        ({"code": "41", "family": "weather"}, "code=41 is in the technical family, not weather"),
        ({"code": ""}, "code: give a value"),
    ],
)
def test_a_bad_value_is_refused_naming_it(facts, message):
    with pytest.raises(CorrectionRefused, match=message.replace("(", r"\(")):
        checked_facts(facts)


FUEL = "EY124 on January 20th: the fuel truck broke down at FRA, no uplift for about two hours"


def test_a_misread_cause_is_replaced_and_the_correction_kept_with_who_and_what_was_read():
    read = flight_disruption(read_report(FUEL, KNOWN), flight())
    fixed = corrected_disruption(read, {"code": "36"}, [flight()], "Dev Duty Manager")
    assert (fixed.iata_delay_code, fixed.family) == (36, "aircraft_ramp_handling")
    [correction] = fixed.corrections
    assert (correction.key, correction.value, correction.read, correction.by) == (
        "code",
        "36",
        str(read.iata_delay_code),
        "Dev Duty Manager",
    )
    stated_codes = [f.value for f in fixed.facts if f.source == "stated" and f.value in DELAY_CODES]
    assert stated_codes == [36] or read.iata_delay_code == 36
    assert "aircraft_defect" not in {f.name for f in fixed.facts}  # the misreading's defect goes with it
    # the flight as the data holds it and the stated duration stay
    assert [f.source for f in fixed.facts if f.name == "flight"] == ["data"]
    assert fixed.severity_minutes == read.severity_minutes == 120


def test_a_crew_position_needs_a_crew_cause_and_makes_the_scope_the_crew_member():
    read = flight_disruption(read_report("EY124 on January 20th: hydraulic leak", KNOWN), flight())
    with pytest.raises(CorrectionRefused, match="the cause \\(code 41\\) is not the crew's"):
        corrected_disruption(read, {"crew_position": "CAPTAIN"}, [flight()], "dm")
    fixed = corrected_disruption(read, {"code": "64", "crew_position": "cpt"}, [flight()], "dm")
    assert fixed.scope.kind == "crew_member" and fixed.unavailable_rank() == "CPT"


def test_a_family_alone_keeps_a_code_read_in_it_and_never_picks_one():
    read = flight_disruption(read_report("EY124 on January 20th: hydraulic leak", KNOWN), flight())
    assert corrected_disruption(read, {"family": "technical"}, [flight()], "dm").iata_delay_code == 41
    with pytest.raises(CorrectionRefused, match=r"family=weather: the code read is 41.*code=71"):
        corrected_disruption(read, checked_facts({"family": "weather"}), [flight()], "dm")


def test_a_window_and_a_duration_replace_the_reading_on_the_flights_day():
    read = flight_disruption(read_report("EY124 on January 20th held 30 min for ATC", KNOWN), flight())
    fixed = corrected_disruption(read, checked_facts({"window": "23:00-01:30", "duration": "2h"}), [flight()], "dm")
    assert fixed.severity_minutes == 120 and fixed.window is not None
    assert (fixed.window.end - fixed.window.start).total_seconds() == 2.5 * 3600  # past midnight
    assert [c.read for c in fixed.corrections] == [None, "30"]


def test_an_unsure_reading_says_what_and_a_correction_settles_it():
    guess = with_unsure(flight_disruption(read_report("EY124 on January 20th: something failed", KNOWN), flight()))
    assert [u.code for u in guess.unsure] == ["LOW_CONFIDENCE"] and guess.unsure[0].key == "code"
    crew = with_unsure(flight_disruption(read_report("EY124 on January 20th: crew shortage", KNOWN), flight()))
    assert "NO_CREW_POSITION" in {u.code for u in crew.unsure}
    assert uncertainties(crew, {"crew_position"}) == [u for u in crew.unsure if u.key != "crew_position"]
    from_row = with_unsure(flight_disruption(read_report("EY124 is late"), flight(delay_reason="ATC_FLOW")))
    assert [u.code for u in from_row.unsure] == ["CAUSE_FROM_DATA"]
    sure = with_unsure(flight_disruption(read_report("EY124 on January 20th: hydraulic leak", KNOWN), flight()))
    assert sure.unsure == []


@given(st.dictionaries(st.sampled_from(["code", "duration", "window"]), st.just(""), max_size=0), GOOD)
def test_a_correction_never_drops_what_the_data_says(_, pair):
    key, value = pair
    if key in ("flights", "date", "family"):
        return
    read = flight_disruption(read_report("EY124 on January 20th: hydraulic leak", KNOWN), flight())
    facts = checked_facts({key: value})
    try:
        fixed = corrected_disruption(read, facts, [flight()], "dm")
    except CorrectionRefused as exc:
        assert "\n" not in str(exc)
        return
    data = [f for f in read.facts if f.source == "data"]
    assert all(f in fixed.facts for f in data)
    assert [(c.key, c.value) for c in fixed.corrections] == list(facts.items())
