"""What no flight of ours fits is refused, never read as something wider: a type in brackets after another narrows
the set ("B777 (B77W) flights"), a named place the airline does not serve keeps the set to it ("every departure to
Honolulu": none), and a station named as the one reporting ("Sharjah ground staff report EY11 …") must be on the
flight's route. Phrasings written here."""

from __future__ import annotations

import pytest
from intake.test_disruption_facts import flight as agent_flight

from skymarshal.intake.described_flights import _place_codes
from skymarshal.intake.disruption_facts import report_disruption
from skymarshal.intake.flight_sets import flight_sets
from skymarshal.intake.report import airport_names
from skymarshal.models.disruption import ReportContradictsData

SERVED = {"AUH", "LHR", "BOM"}


@pytest.mark.parametrize(
    "text",
    [
        "ALL OUR B777 (B77W) FLIGHTS TO BOM ON 19JAN WILL LOAD LATE",
        "every 777 (77W) departure to Mumbai on 19 Jan is held for catering",
    ],
)
def test_a_type_in_brackets_after_another_is_the_set_s_type(text):
    [described] = flight_sets(text, _place_codes(SERVED))
    assert described.types == frozenset({"B77W"}) and [sorted(p.codes) for p in described.places] == [["BOM"]]


def test_an_unserved_place_named_keeps_the_set_to_it():
    [described] = flight_sets("every AUH departure to Honolulu on 19 Jan is held", _place_codes(SERVED))
    ends = {p.end: set(p.codes) for p in described.places}
    assert ends["destination"] == {"HNL"} and ends["origin"] == {"AUH"}  # none of our flights: refused, not all AUH


def test_an_unserved_code_is_no_place_in_a_log_line():
    [described] = flight_sets("ALL FLTS TO BOM 19JAN FOG", _place_codes(SERVED))
    assert [sorted(p.codes) for p in described.places] == [["BOM"]]  # "ALL" (Albenga's code) is a word here


def test_a_station_reporting_must_be_on_the_flight_s_route():
    flight = agent_flight("EY11", "AUH", "LHR", "A6-BLA", None)
    with pytest.raises(ReportContradictsData, match=r"not through Sharjah \(SHJ\)"):
        report_disruption("Sharjah ground staff report EY11 20JAN will be late, check-in congestion", flight)
    d = report_disruption("Heathrow ground staff report EY11 20JAN will be late, check-in congestion", flight)
    assert d.iata_delay_code == 12


def test_a_city_by_its_english_name_is_its_airport():
    """ "Delhi fog 0000Z to 0400Z" names New Delhi's airport (DEL): the English names the reference data keeps."""
    assert airport_names({"DEL"}).get("delhi") == "DEL"
