"""A defect found on the aircraft at its inspection (walk-round, pre-flight check) is technical (AHM 730 41), with
the fix time stated or not: whatever the part and whatever word says what is wrong with it, never ATFM, never no
cause at all."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skymarshal.intake.cause import read_cause
from skymarshal.intake.normalise import normalise
from skymarshal.models.disruption import family_of

INSPECTION = ["walk-round", "walkaround", "walk around check", "exterior inspection", "pre-flight check"]
FOUND = ["found", "revealed", "spotted"]
WRONG = [  # what is wrong with the part
    "oil dripping from the {part}",
    "a dent on the {part}",
    "a damaged {part}",
    "fluid seeping from the {part}",
    "a loose panel near the {part}",
    "corrosion on the {part}",
    "a cracked {part}",
]
PARTS = ["left engine", "cargo door", "static wick", "nose gear", "flap track", "radome", "#2 engine cowling"]
FIX = ["", " ETR 0930Z", ", fix time 30 min", ", engineers need 45 min", ", rectification 1h15", ", assessment 1 hr"]
lead = st.sampled_from(["EY343 18JAN:", "Flight EY12 on 19 January -", "EY611/19 AUH"])


@given(
    lead=lead,
    inspection=st.sampled_from(INSPECTION),
    found=st.sampled_from(FOUND),
    wrong=st.sampled_from(WRONG),
    part=st.sampled_from(PARTS),
    fix=st.sampled_from(FIX),
    upper=st.booleans(),
)
def test_a_defect_found_at_the_inspection_is_technical(lead, inspection, found, wrong, part, fix, upper) -> None:
    text = f"{lead} the {inspection} {found} {wrong.format(part=part)}{fix}."
    first = read_cause(normalise(text.upper() if upper else text)).first
    assert first is not None and family_of(first.code) == "technical", (text, first)


PHASES = ["on pushback", "during pushback", "at push-back", "after the pushback", "during the push-back"]
SYSTEMS = ["hydraulic system", "left engine", "nose wheel steering", "bleed", "APU"]
MALFUNCTION = ["failed", "fault", "warning", "inoperative", "leaking"]


@given(lead=lead, part=st.sampled_from(SYSTEMS), wrong=st.sampled_from(MALFUNCTION), phase=st.sampled_from(PHASES))
def test_a_defect_during_pushback_is_the_aircrafts(lead, part, wrong, phase) -> None:
    """Pushback named as the moment ("on pushback") is when the defect showed, not ramp equipment (39)."""
    text = f"{lead} {part} {wrong} {phase}, returned to stand."
    first = read_cause(normalise(text)).first
    assert first is not None and family_of(first.code) == "technical", (text, first)


NEEDED = [
    "no GPU available",
    "no ASU at the station",
    "GPU and ASU required at every station",
    "awaiting an air start unit",
]
DEAD = ["APU inoperative", "APU will not start", "APU failed", "APU U/S"]


@given(lead=lead, dead=st.sampled_from(DEAD), needed=st.sampled_from(NEEDED))
def test_ground_power_needed_for_a_dead_apu_is_the_apus_defect(lead, dead, needed) -> None:
    """The ground equipment a dead APU makes necessary is its consequence: the cause is the APU (41), not ramp
    equipment (39), unless the equipment itself is said to have failed."""
    text = f"{lead} {dead}, {needed}. ETD +30"
    first = read_cause(normalise(text)).first
    assert first is not None and family_of(first.code) == "technical", (text, first)


@given(lead=lead, equipment=st.sampled_from(["GPU", "pushback tug", "air start unit", "tow tractor"]))
def test_ground_equipment_that_failed_is_ramp_equipment(lead, equipment) -> None:
    text = f"{lead} the {equipment} broke down at the stand, replacement on the way."
    first = read_cause(normalise(text)).first
    assert first is not None and first.code == 39, (text, first)
