"""What a composed report must yield (its truth), the report itself, and what a reader made of it.

The truth is written by the composer from the airline's own rows, never by running the reader. Family names
are the disruption model's (AHM 730 families); the bench keeps its own table of them so its truth does not
come from the code it measures (a test checks both tables agree).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, model_validator

Style = Literal["narrative", "terse", "shorthand", "mvt"]
ScopeLabel = Literal["flight", "flights", "described", "tail", "crew_member", "airport", "airspace"]
ScopeKind = Literal["flight", "tail", "crew_member", "airport", "airspace"]
Contradiction = Literal[
    "airport_not_on_route",
    "tail_not_the_flights",
    "position_not_rostered",
    "tail_not_at_airport",
    "description_matches_none",
    "route_not_flown",  # a flight named on a route it does not fly (blind corpora)
    "impossible_time",  # a time or date that cannot be (25:75, 31 Feb) in free text or an MVT (blind corpora)
]
STYLES: tuple[Style, ...] = ("narrative", "terse", "shorthand", "mvt")
SCOPE_LABELS: tuple[ScopeLabel, ...] = ("flight", "flights", "described", "tail", "crew_member", "airport", "airspace")

# AHM 730 families by code range (inclusive), named as the disruption model names them.
FAMILY_RANGES: tuple[tuple[int, int, str], ...] = (
    (11, 19, "passengers_baggage"),
    (21, 29, "cargo_mail"),
    (31, 39, "aircraft_ramp_handling"),
    (41, 48, "technical"),
    (51, 58, "damage_automation"),
    (61, 69, "flight_operations_crew"),
    (71, 77, "weather"),
    (81, 89, "atfm_airport_government"),
    (91, 96, "reactionary"),
    (97, 99, "miscellaneous"),
)
FAMILIES: tuple[str, ...] = tuple(family for _, _, family in FAMILY_RANGES)


def family_of_code(code: int) -> str:
    for first, last, family in FAMILY_RANGES:
        if first <= code <= last:
            return family
    raise ValueError(f"{code} is no AHM 730 delay code")


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Truth(Frozen):
    """The facts a report must yield, or the contradiction it must be refused for."""

    family: str
    code: int | None = None  # None: the words fix the family, not one code of it
    scope: ScopeLabel
    scope_kind: ScopeKind  # the disruption model's kind ("flights", "described": a flight scope over several)
    flights: list[str] = Field(default_factory=list)  # flight ids
    flights_exact: bool = True  # False: these must be among the flights read (a tail's day, an airport's window)
    registration: str | None = None
    airport: str | None = None  # the station a network scope is at, or the one a flight report names
    airspace: str | None = None
    crew_rank: str | None = None  # CPT, FO, CD, CA (SO in a contradiction)
    window_start: AwareDatetime | None = None
    window_end: AwareDatetime | None = None
    delay_minutes: int | None = None  # a stated delay (not judged yet: recorded for the reader to come)
    operating_day: date | None = None  # stated in the report when it speaks of "today" / "tomorrow" / "tonight"
    refuse: Contradiction | None = None  # the report contradicts the data and must be refused

    @model_validator(mode="after")
    def _consistent(self) -> Truth:
        if self.code is not None and family_of_code(self.code) != self.family:
            raise ValueError(f"code {self.code} is not in the {self.family} family")
        if self.family not in FAMILIES:
            raise ValueError(f"{self.family} is no AHM 730 family")
        if (self.window_start is None) != (self.window_end is None):
            raise ValueError("a window has a start and an end")
        return self


class Report(Frozen):
    """One composed report: the text a reader gets, when it is reported, its style and its truth."""

    report_id: str
    text: str
    style: Style
    reported_at: AwareDatetime
    truth: Truth
    decorations: list[str] = Field(default_factory=list)  # "instruction", "remark", "filler", "relative_day", ...


class Read(Frozen):
    """What a reader made of a report: a disruption's facts, or the refusal's line."""

    refused: bool
    crashed: bool = False  # the reader raised something other than its refusal: a bug, counted apart
    message: str | None = None
    family: str | None = None
    code: int | None = None
    scope_kind: str | None = None
    flights: list[str] = Field(default_factory=list)
    registration: str | None = None
    airport: str | None = None
    window_start: datetime | None = None
    window_end: datetime | None = None
    unsure: list[str] = Field(default_factory=list)  # what the reading asks the duty manager (Uncertainty codes)


Outcome = Literal[
    "understood",
    "refused_wrongly",
    "wrong_family",
    "wrong_scope",
    "wrong_flights",
    "crashed",
    "refused",
    "contradiction_accepted",
]


class Verdict(Frozen):
    report_id: str
    style: Style
    family: str
    scope: ScopeLabel
    outcome: Outcome
    read_family: str | None = None  # for the confusion between families
    code_right: bool | None = None  # None where the truth determines no code or nothing was read
    asked: bool = False  # the reading said it was unsure (the decision asks instead of guessing)
    detail: str = ""
