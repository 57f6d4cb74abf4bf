"""The cargo and mail family (AHM 730 21-29) is read with its sub-cause where the report gives it, and kept apart
from the families whose words it shares: the load named with what happened to it is cargo or mail, whatever the
verb would mean alone ("arrived late" of an aircraft, "overbooked" of a cabin, "bags" of passengers); a connection
named stays a load connection (91); a family named without its cause reads as that family."""

from __future__ import annotations

from cause_helpers import first_code
from hypothesis import given
from hypothesis import strategies as st

CARGO = ["cargo", "freight", "the shipment", "a consignment"]
MAIL = ["mail", "mail bags", "the mailbags", "postal mail"]
HAPPENED = {  # what happened → the sub-cause it names
    "arrived late at the aircraft from the warehouse": 22,
    "was accepted after the cut-off": 23,
    "is overbooked on this flight": 25,
}
MAIL_HAPPENED = {"arrived late at the aircraft": 28, "accepted after the cut-off": 29}
flight = st.sampled_from(["EY343 18JAN AUH:", "EY12/18 LHR -", "Flight EY611 on 19 January:"])
tail = st.sampled_from(["", " DLA 20.", " Departure delayed 30 min.", " ETD TBA."])


@given(lead=flight, load=st.sampled_from(CARGO), what=st.sampled_from(sorted(HAPPENED)), end=tail, upper=st.booleans())
def test_cargo_named_with_what_happened_is_its_sub_cause(lead, load, what, end, upper) -> None:
    text = f"{lead} {load} {what}.{end}"
    assert first_code(text.upper() if upper else text) == HAPPENED[what], text


@given(lead=flight, load=st.sampled_from(MAIL), what=st.sampled_from(sorted(MAIL_HAPPENED)), end=tail)
def test_mail_named_with_what_happened_is_its_sub_cause(lead, load, what, end) -> None:
    text = f"{lead} {load} {what}.{end}"
    assert first_code(text) == MAIL_HAPPENED[what], text


@given(lead=flight, goods=st.sampled_from(["a dangerous goods package", "a DG drum", "a crate of cargo"]), end=tail)
def test_a_leaking_package_found_at_loading_is_cargo_packing(lead, goods, end) -> None:
    text = f"{lead} at loading {goods} was found leaking, offloaded and the hold cleaned.{end}"
    assert first_code(text) == 24, text


def test_a_connection_named_stays_a_load_connection() -> None:
    assert first_code("EY12 18JAN held, awaiting transfer cargo from the late EY11") == 91


def test_a_family_named_without_its_cause_is_that_family() -> None:
    assert first_code("EY330 18JAN KHI: ramp handling delay, details TBC. 20 min") in range(31, 40)
    assert first_code("EY385 19JAN AUH: pax-related delay at gate, details to follow") in range(11, 20)
    assert first_code("EY474 18JAN cargo issue, holding. ETD TBA") in range(21, 30)


def test_a_crew_member_late_is_the_crews_lateness_not_boarding() -> None:
    for text in (
        "EY79/19JAN CPT SMITH LATE REPORTING, DEPARTURE PROCEDURES STARTED LATE. DLA 15",
        "EY151/19 AUH-ORD: LATE CREW BOARDING, CREW BUS LATE FROM CREW CENTRE. DLA 10",
        "The first officer of EY218 on 18 Jan is reporting late for briefing.",
        # the same cause in words the blind corpora do not use: the rule is the structure, not their phrases
        "EY12 18JAN: the purser missed the briefing, stuck in traffic. 15 min",
        "EY12 18JAN FO late to the briefing, DLA 10",
        "EY12 18JAN: captain was not at the briefing, on his way",
        "EY12 18JAN: first officer reported late, 10 min",
    ):
        assert first_code(text) == 63, text
    assert first_code("EY12 18JAN passengers boarding late, crew ready") == 15
    assert first_code("EY12 18JAN captain did not sign on, standby called") == 64


def test_the_captain_asking_for_a_search_and_a_ground_vehicle_hitting_the_aircraft() -> None:
    assert first_code("EY19 18/01: Capt requested a security check of the hold, 40 min") == 69
    assert first_code("EY355/18 AUH - catering hi-loader contacted the R2 door surround. Dent") == 52
    assert first_code("EY863 19/01 PVG: catering high-lift hit the L4 door, sill damaged") == 52


def test_a_suspicious_package_is_security_not_cargo_packing() -> None:
    """The noun a cargo cue names its load by is not also what happened to it (the generated corpus's airport
    evacuation over a suspicious package was read as cargo packing)."""
    for text in (
        "19/01/27 from 09:00 to 10:30 UTC: AUH terminal has been evacuated over a suspicious package; no movements",
        "JED TERMINAL HAS BEEN EVACUATED OVER A SUSPICIOUS PACKAGE. NO MOVEMENTS AT ALL.",
    ):
        assert first_code(text) not in range(21, 30), text
    assert first_code("EY12 18JAN: a package of cargo found poorly packed, repacked at the shed") == 24


LOADS = ["baggage", "bags", "cargo", "freight", "mail", "the mail bags", "ULD"]
LOADING = ["loading", "unloading", "offloading", "loaders", "handlers"]
SLOW = ["slow", "delayed", "late", "took longer than planned", "behind schedule"]


@given(
    lead=flight,
    load=st.sampled_from(LOADS),
    loading=st.sampled_from(LOADING),
    slow=st.sampled_from(SLOW),
    end=tail,
    upper=st.booleans(),
)
def test_a_load_being_loaded_is_the_ramps_loading(lead, load, loading, slow, end, upper) -> None:
    """AHM 730 32 (loading/unloading, lack of loading staff): the load named as what is loaded ("cargo loading
    delayed", "baggage handlers late") is the ramp's loading, not the load's own cause (18 baggage processing,
    22 cargo positioning, 28 mail positioning)."""
    text = f"{lead} {load} {loading} {slow}.{end}"
    assert first_code(text.upper() if upper else text) == 32, text
