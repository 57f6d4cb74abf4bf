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
