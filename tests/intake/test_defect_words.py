"""A defect in the words an engineer writes it: a reading past its limit, a drive disconnected, a surface out of
step, a unit being changed — on the parts those words name (struts, IDGs, slide bottles, brake units) — is the
aircraft's defect (41); the engineers' own equipment missing or broken (a nitrogen cart, a test rig) is
maintenance equipment (44), above the part it was wanted for."""

from __future__ import annotations

from cause_helpers import first_code
from hypothesis import given
from hypothesis import strategies as st

lead = st.sampled_from(["EY343 18JAN AUH:", "EY12/18 LHR -", "Flight EY611 on 19 January:", "ey7 19 jan"])
end = st.sampled_from(["", " DLA 20.", " ETR 1400Z.", " +40"])


@given(
    lead=lead,
    part=st.sampled_from(["the left main gear strut", "No 2 IDG", "the 1R slide bottle", "a brake unit", "the flaps"]),
    what=st.sampled_from(
        [
            "pressure found below limit",
            "disconnected in flight",
            "asymmetry message on power-up",
            "reading outside limits",
        ]
    ),
    end=end,
)
def test_a_part_past_its_limit_or_disconnected_is_a_defect(lead, part, what, end) -> None:
    text = f"{lead} {part} {what}, engineers on it.{end}"
    assert first_code(text) == 41, text


@given(lead=lead, unit=st.sampled_from(["brake unit", "starter", "valve", "wheel"]), end=end)
def test_a_unit_being_changed_is_a_defect(lead, unit, end) -> None:
    text = f"{lead} {unit} change in progress on stand.{end}"
    assert first_code(text) == 41, text


@given(
    lead=lead,
    kit=st.sampled_from(["No nitrogen cart", "no hydraulic rig", "the only oxygen servicing cart is u/s and"]),
    then=st.sampled_from(["serviceable to top up the nose strut", "available, one being borrowed", "awaiting one"]),
    end=end,
)
def test_the_engineers_equipment_missing_is_maintenance_equipment(lead, kit, then, end) -> None:
    text = f"{lead} {kit} {then}.{end}"
    assert first_code(text) == 44, text
