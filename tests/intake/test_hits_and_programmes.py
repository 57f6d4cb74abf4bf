"""Words that name one thing in one family and another elsewhere: a "strike" that hit the aircraft is damage (51),
not staff walking out (97/98); the FAA's traffic programmes are ATFM (81–84); port health is a government check
(86); a crew awaited off another flight is the crew's rotation (95). And a part of the day with no date is the
operating day's, for a flight ("this evening's EY5") or a tail ("went tech this afternoon")."""

from __future__ import annotations

from datetime import date

from cause_helpers import first_code
from hypothesis import given
from hypothesis import strategies as st

from skymarshal.intake.airport_facts import report_day
from skymarshal.intake.flight_sets import parts_of_day


@given(
    hit=st.sampled_from(["lightning strike", "bird strike", "tail strike", "hail strike"]),
    found=st.sampled_from(["reported by the crew after landing", "found at the walk-round", "on the climb out"]),
)
def test_what_struck_the_aircraft_is_damage_not_industrial_action(hit, found) -> None:
    assert first_code(f"EY88 on 3 Feb: {hit} {found}, engineering to inspect.") == 51


@given(who=st.sampled_from(["the fuellers", "ground handlers", "our pilots"]))
def test_staff_on_strike_stay_industrial_action(who) -> None:
    assert first_code(f"EY88 on 3 Feb held: {who} are on strike at the outstation.") in (97, 98)


@given(
    programme=st.sampled_from(["FAA ground stop", "ground delay program", "GDP in force", "EDCT issued"]),
    where=st.sampled_from(["at JFK", "for IAD arrivals", ""]),
)
def test_the_faas_programmes_are_atfm(programme, where) -> None:
    assert first_code(f"EY101 on 3 Feb: {programme} {where}, expect 50 min.") in (81, 83)


@given(
    words=st.sampled_from(["port health team boarding", "health officers checking declarations", "health screening"])
)
def test_port_health_is_a_government_check(words) -> None:
    assert first_code(f"EY2 on 5 Mar at KHI: {words} for all arriving passengers. 25 min.") == 86


@given(
    crew=st.sampled_from(["the pilots", "the operating crew", "the flight deck"]),
    off=st.sampled_from(["off EY612", "off EY 99", "off the inbound"]),
)
def test_a_crew_awaited_off_another_flight_is_crew_rotation(crew, off) -> None:
    assert first_code(f"EY200 on 7 Feb held for {crew} {off}, which landed late.") == 95


def test_a_part_of_the_day_in_the_possessive_is_still_that_part() -> None:
    assert parts_of_day("This evening's EY5 out of Muscat is held") == ("evening",)
    assert parts_of_day("Good evening OCC, EY5 is held") == ()


def test_a_tail_report_with_a_part_of_the_day_is_about_the_operating_day() -> None:
    today = date(2027, 2, 3)
    assert report_day("A6-BLA went tech at MCT this afternoon, bleed fault", today) == today
    assert report_day("A6-BLA went tech at MCT, bleed fault", today) is None
