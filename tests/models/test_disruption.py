"""The disruption model: AHM 730 codes and families as data, and the facts' own consistency rules."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from skymarshal.models.disruption import DELAY_CODES, FAMILY_RANGES, Disruption, Fact, Scope, Window, family_of

T0 = datetime(2027, 1, 22, 14, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("code", "family"),
    [
        (11, "passengers_baggage"),
        (29, "cargo_mail"),
        (31, "aircraft_ramp_handling"),
        (41, "technical"),
        (51, "damage_automation"),
        (64, "flight_operations_crew"),
        (67, "flight_operations_crew"),
        (71, "weather"),
        (75, "weather"),
        (81, "atfm_airport_government"),
        (87, "atfm_airport_government"),
        (89, "atfm_airport_government"),
        (93, "reactionary"),
        (99, "miscellaneous"),
    ],
)
def test_the_design_briefs_codes_fall_in_their_families(code, family):
    assert family_of(code) == family and code in DELAY_CODES


@given(st.integers(min_value=-5, max_value=120))
def test_a_code_has_a_family_exactly_when_it_lies_in_one_range(code):
    in_range = any(first <= code <= last for first, last, _ in FAMILY_RANGES)
    if in_range:
        assert family_of(code) in {f for _, _, f in FAMILY_RANGES}
    else:
        with pytest.raises(ValueError, match="AHM 730"):
            family_of(code)


def test_every_tabled_code_has_a_family_and_a_title():
    assert all(family_of(code) and title for code, title in DELAY_CODES.items())
    assert not {49, 50, 53, 54, 59, 60, 70, 74, 78, 79, 80, 90} & set(DELAY_CODES)  # unused in AHM 730


def test_of_code_takes_family_and_cause_from_the_table():
    sick = Disruption.of_code(
        64,
        scope=Scope(kind="crew_member", flight_numbers=["EY20"], crew_position="CAPTAIN"),
        facts=[
            Fact(
                name="crew_unavailable",
                value="CAPTAIN",
                source="stated",
                evidence="captain ... called in sick",
                span=(20, 47),
            )
        ],
    )
    assert sick.family == "flight_operations_crew" and "sickness" in sick.cause
    assert Disruption.model_validate_json(sick.model_dump_json()) == sick


def test_the_summary_names_cause_code_family_scope_and_window():
    scope = Scope(kind="airport", airport="AUH")
    fog = Disruption.of_code(71, cause="fog", scope=scope, window=Window(start=T0, end=T0 + timedelta(hours=3)))
    assert fog.summary() == "fog (AHM 730 code 71, weather) - airport AUH, 2027-01-22 14:00Z-17:00Z"
    sick = Disruption.of_code(64, scope=Scope(kind="crew_member", flight_numbers=["EY20"], crew_position="CAPTAIN"))
    assert sick.summary().endswith("(AHM 730 code 64, flight operations crew) - crew member CAPTAIN of EY20")


def test_a_family_that_contradicts_the_code_is_refused():
    with pytest.raises(ValidationError, match="in the technical family"):
        Disruption(iata_delay_code=41, family="weather", cause="x", scope=Scope(kind="flight", flight_numbers=["EY1"]))


def test_an_airport_closure_needs_a_window_that_ends_after_it_starts():
    scope = Scope(kind="airport", airport="AUH")
    with pytest.raises(ValidationError, match="needs a time window"):
        Disruption.of_code(87, scope=scope)
    with pytest.raises(ValidationError, match=r"ends .* before it starts"):
        Window(start=T0, end=T0 - timedelta(hours=1))
    fog = Disruption.of_code(71, scope=scope, window=Window(start=T0, end=T0 + timedelta(hours=3)))
    assert fog.window and fog.window.end - fog.window.start == timedelta(hours=3)


@pytest.mark.parametrize("kind", ["flight", "tail", "crew_member", "airport", "airspace"])
def test_a_scope_must_name_what_it_is(kind):
    with pytest.raises(ValidationError, match=f"must name its {kind.replace('_', ' ')}"):
        Scope(kind=kind)


def test_a_stated_fact_quotes_the_report():
    with pytest.raises(ValidationError, match="needs the report's words"):
        Fact(name="aircraft_on_ground", source="stated")
    assert Fact(name="estimated_release_minutes", value=240, source="policy").evidence is None
