"""AHM 730 55-58, automated equipment: a system named with its failure is the automation family, coded by what the
system does — departure control (55), cargo preparation and documentation (56), flight plans (57), any other (58) —
and it outranks the paperwork it holds up (the loadsheet, the NOTOC, the manifests done by hand instead): the
cause is the system, not the document."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skymarshal.intake.cause import read_cause
from skymarshal.intake.normalise import normalise

DOMAINS = {
    "departure control": 55,
    "check-in": 55,
    "boarding": 55,
    "cargo": 56,
    "cargo management": 56,
    "flight plan": 57,
    "flight planning": 57,
    "load control": 58,
    "weight and balance": 58,
    "crew scheduling": 58,
}
SOFTWARE = ["system", "application", "software", "app"]
FAILED = ["crashed", "is down", "went offline", "is unavailable", "failed", "froze", "stopped working", "has an outage"]
HELD_UP = [
    "",
    ", manifests being done by hand",
    ", the loadsheet cannot be uplinked",
    ", NOTOC printed manually",
    ", working on paper backup",
    ", DLA 20",
]
lead = st.sampled_from(["EY343 18JAN:", "Flight EY12 on 19 January -", "AUH: EY611/19"])


@given(
    lead=lead,
    domain=st.sampled_from(sorted(DOMAINS)),
    software=st.sampled_from(SOFTWARE),
    failed=st.sampled_from(FAILED),
    held_up=st.sampled_from(HELD_UP),
    upper=st.booleans(),
)
def test_a_system_named_with_its_failure_is_coded_by_what_it_does(
    lead, domain, software, failed, held_up, upper
) -> None:
    text = f"{lead} the {domain} {software} {failed}{held_up}."
    first = read_cause(normalise(text.upper() if upper else text)).first
    assert first is not None and first.code == DOMAINS[domain], (text, first)


@given(lead=lead, failed=st.sampled_from(FAILED), held_up=st.sampled_from(HELD_UP))
def test_a_system_not_said_is_another_automated_system(lead, failed, held_up) -> None:
    text = f"{lead} the company's IT system {failed}{held_up}."
    first = read_cause(normalise(text)).first
    assert first is not None and first.code == 58, (text, first)
