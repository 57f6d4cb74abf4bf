"""Company policy estimates for what a report states without a figure (verify per operator before use).

A report says "needs an engine inspection" or "cancelled by ATC flow control" with no duration. The what-if
overlay still needs a number to plan with, so it takes one from these tables and marks the fact `policy`,
citing the entry: the duty manager sees the estimate is an estimate. Every figure is configurable data.

- Defect rectification (AOG) by ATA chapter: the typical labour of the inspection or repair the words
  name (AMM task families: 05-51 unscheduled inspections after a bird or lightning strike or a heavy landing;
  72 engine borescope; 29 hydraulics; 32 landing gear). Parts are assumed on hand at the station.
- ATFM slot delay when no CTOT or delay is stated, by AHM 730 code: the delay to plan with until the
  slot message arrives (EUROCONTROL's average ATFM delay per delayed flight is of the order of 15-40 min;
  a regulation at the destination is planned at an hour).
- Weather and closure windows when none is stated.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

POLICY = "company policy (what-if estimates, verify)"


class DefectEstimate(BaseModel):
    model_config = ConfigDict(frozen=True)

    words: str  # whole-word pattern over the report's cause and remarks
    ata_chapter: str
    labour_hours: float
    task: str  # what the engineers do, for the work order and the finding

    def citation(self) -> str:
        return f"{POLICY}: ATA {self.ata_chapter} {self.task}, {self.labour_hours:g} h"


# Most specific first; UNSPECIFIED_DEFECT when none matches.
DEFECT_ESTIMATES: tuple[DefectEstimate, ...] = (
    DefectEstimate(
        words=r"bird[- ]?strike|bird ingestion",
        ata_chapter="72",
        labour_hours=6.0,
        task="bird strike inspection with engine borescope (AMM 05-51)",
    ),
    DefectEstimate(
        words=r"lightning", ata_chapter="05", labour_hours=4.0, task="lightning strike inspection (AMM 05-51)"
    ),
    DefectEstimate(
        words=r"heavy landing|hard landing",
        ata_chapter="05",
        labour_hours=8.0,
        task="heavy landing inspection (AMM 05-51)",
    ),
    DefectEstimate(words=r"tail strike", ata_chapter="53", labour_hours=8.0, task="tail strike structural inspection"),
    DefectEstimate(
        words=r"engine|borescope", ata_chapter="72", labour_hours=6.0, task="engine troubleshooting and inspection"
    ),
    DefectEstimate(words=r"hydraulic", ata_chapter="29", labour_hours=4.0, task="hydraulic system repair"),
    DefectEstimate(
        words=r"landing gear|gear|brakes?|tyres?|tires?",
        ata_chapter="32",
        labour_hours=3.0,
        task="landing gear, wheel or brake repair",
    ),
    DefectEstimate(words=r"avionics|navigation|radar", ata_chapter="34", labour_hours=3.0, task="avionics repair"),
    DefectEstimate(words=r"fuel leak|fuel", ata_chapter="28", labour_hours=4.0, task="fuel system repair"),
    DefectEstimate(words=r"door|slide", ata_chapter="52", labour_hours=2.0, task="door or slide repair"),
)
UNSPECIFIED_DEFECT = DefectEstimate(
    words="", ata_chapter="05", labour_hours=4.0, task="troubleshooting of the reported defect"
)

# AHM 730 code → minutes of ATFM delay to plan with when the report states none.
ATFM_SLOT_MINUTES: dict[int, int] = {81: 45, 82: 45, 83: 60, 84: 60, 88: 60, 89: 60}
DEFAULT_SLOT_MINUTES = 60
WEATHER_HOURS = 3  # a reported weather event with no window: from the flight's time at that airport
CLOSURE_HOURS = 2  # a reported closure with no window


def defect_estimate(words: str) -> DefectEstimate:
    """The first policy entry whose words the report's description matches (UNSPECIFIED_DEFECT otherwise)."""
    return next((e for e in DEFECT_ESTIMATES if re.search(rf"\b(?:{e.words})\b", words, re.I)), UNSPECIFIED_DEFECT)


def slot_minutes(code: int) -> int:
    """Planned ATFM delay for an AHM 730 code when the report states no slot (policy, verify)."""
    return ATFM_SLOT_MINUTES.get(code, DEFAULT_SLOT_MINUTES)
