"""A report that names the sick crew member by staff number makes that member unavailable, checked against the
roster: the member named, not the first of the rank; two named, both; a member named in another position than the
report's words, refused on one line; a member named without a position, taken at their rostered one."""

from __future__ import annotations

import pytest
from reported import flight_of

from skymarshal.data import queries as q
from skymarshal.intake.disruption_facts import resolve_flight_report
from skymarshal.models.disruption import ReportContradictsData
from skymarshal.models.operational import CABIN_RANKS

FLIGHT = "EY124 on 21 January 2027"


@pytest.fixture(scope="module")
def rostered(account):
    handle = account.handle()
    flight = flight_of(handle, f"{FLIGHT}: crew problem")
    duties = sorted(q.crew_assignments(handle, flight.flight_id), key=lambda d: d.crew_id)
    return handle, flight, duties


def _unavailable(handle, report, flight):
    disruption, overlay = resolve_flight_report(report, flight, handle, None)
    patched = sorted(str(p.key["crew_id"]) for p in overlay.patches if p.fact == "crew_unavailable")
    facts = sorted(str(f.value) for f in disruption.facts if f.name == "crew_unavailable" and f.source == "data")
    assert patched == facts  # every member made unavailable has its fact, naming the roster row
    return patched


def _of(duties, ranks):
    return [d.crew_id for d in duties if d.position in ranks]


def test_the_member_named_is_the_one_made_unavailable_not_the_first_of_the_rank(rostered):
    handle, flight, duties = rostered
    attendants = _of(duties, {"CA"})
    assert len(attendants) >= 2
    last = attendants[-1]
    assert _unavailable(handle, f"{FLIGHT}: a cabin attendant reported sick. Staff no. {last}.", flight) == [last]
    # unnamed, the report makes the first rostered of the rank absent, as before
    assert _unavailable(handle, f"{FLIGHT}: a cabin attendant reported sick.", flight) == [attendants[0]]


def test_two_named_cabin_crew_are_both_unavailable_whatever_their_cabin_rank(rostered):
    handle, flight, duties = rostered
    cabin = _of(duties, CABIN_RANKS)
    two = [cabin[0], cabin[-1]]
    report = f"{FLIGHT} C/A X2 UNWELL AT HOTEL, CANNOT OPERATE. ID {two[0]}/{two[1].lower()}"
    assert _unavailable(handle, report, flight) == sorted(two)


def test_a_member_named_in_another_position_is_refused_naming_both(rostered):
    handle, flight, duties = rostered
    (officer, *_) = _of(duties, {"FO"})
    with pytest.raises(ReportContradictsData, match=rf"captain \(CPT\).*{officer} as FO"):
        resolve_flight_report(f"{FLIGHT}: the captain reported sick, staff no. {officer}", flight, handle, None)


def test_a_member_named_without_a_position_is_taken_at_their_rostered_one(rostered):
    handle, flight, duties = rostered
    (captain, *_) = _of(duties, {"CPT"})
    report = f"Flight {FLIGHT}: a flight deck crew member reported sick. Staff no. {captain}."
    assert _unavailable(handle, report, flight) == [captain]


def test_a_counted_cabin_crew_makes_that_many_unavailable_on_the_flight(rostered):
    """ "Two cabin crew are sick" is no one member (the flight's scope), but two are absent, never none or one."""
    handle, flight, duties = rostered
    attendants = _of(duties, {"CA"})
    report = f"{FLIGHT}: two cabin crew are sick, standbys called"
    assert _unavailable(handle, report, flight) == attendants[:2]
    disruption, _ = resolve_flight_report(report, flight, handle, None)
    assert disruption.scope.kind == "flight" and disruption.scope.crew_position == "CABIN"
