"""The decision names the station it is about, with its zone, so the console can show station-local time beside
UTC: the disruption's airport, else the airport its report states, else the network restriction's; none when no
airport is named or the code is not a known one."""

from __future__ import annotations

from decision_sample import decision_output
from network_sample import network_output_dict

from skymarshal.api.views import decision_station, decision_view


def test_an_airport_closure_is_about_its_airport_in_its_zone():
    view = decision_view("fog", network_output_dict(), awaiting_approval=True, attempt=1)
    assert view.station is not None and (view.station.iata, view.station.tz) == ("AUH", "Asia/Dubai")


def test_a_flight_report_is_about_the_airport_it_states():
    output = decision_output()
    output["disruption"] = {
        "scope": {"kind": "flight", "flight_numbers": ["EY123"]},
        "facts": [{"name": "airport", "value": "LHR", "source": "stated", "evidence": "Heathrow"}],
    }
    station = decision_station(output)
    assert station is not None and (station.iata, station.tz) == ("LHR", "Europe/London")


def test_no_station_when_none_is_named_or_the_code_is_unknown():
    assert decision_station(decision_output()) is None  # the sample has no disruption recorded, no airport
    unknown = network_output_dict()
    unknown["disruption"]["scope"]["airport"] = "9Z9"
    unknown["network"]["restriction"]["airport"] = "9Z9"
    assert decision_station(unknown) is None
