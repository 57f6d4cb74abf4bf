"""A disruption as structured facts: the cause as an IATA standard delay code (AHM 730), its scope and
window, and where each fact came from.

The report is the input: `Disruption` is what it says, checked against the data. Each `Fact` is marked
`stated` (the report's own words, with the span it came from), `data` (found in the operational tables) or
`policy` (estimated from a configured policy table, e.g. an inspection's duration). Facts can only make a
situation worse (a grounded tail, an unavailable crew member, a slot, a capacity window); none makes a plan
legal — that is the rules engine's alone.

The delay-code table follows IATA AHM 730 (Airport Handling Manual, standard delay codes), kept as data:
two-digit codes grouped in families by their tens digit (51-58 and 81-89 hold two kinds of cause each).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .common import UtcDatetime
from .history import DisruptionType

DelayFamily = Literal[
    "passengers_baggage",
    "cargo_mail",
    "aircraft_ramp_handling",
    "technical",
    "damage_automation",
    "flight_operations_crew",
    "weather",
    "atfm_airport_government",
    "reactionary",
    "miscellaneous",
]
ScopeKind = Literal["flight", "tail", "crew_member", "airport", "airspace"]
FactSource = Literal["stated", "data", "policy"]
# The facts a duty manager may correct (models/corrections.py checks the values).
CorrectionKey = Literal["code", "family", "flights", "date", "crew_position", "window", "duration"]
# A reported crew position → the roster's rank (models.operational.CrewRank).
# A position the report names → the rostered rank. SO (second officer, cruise relief) is a rank this airline does
# not roster: a report naming one is checked against the crew like any other and refused as a contradiction.
POSITION_RANKS: dict[str, str] = {
    "CAPTAIN": "CPT",
    "FIRST_OFFICER": "FO",
    "SECOND_OFFICER": "SO",
    "FLIGHT_ENGINEER": "FE",  # nor a flight engineer: refused the same way
    "PURSER": "CD",
    "CABIN": "CA",
}

# AHM 730 families by code range (inclusive).
FAMILY_RANGES: tuple[tuple[int, int, DelayFamily], ...] = (
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

# AHM 730 standard delay codes (short titles).
DELAY_CODES: dict[int, str] = {
    11: "late check-in, acceptance after deadline",
    12: "late check-in, congestion in check-in area",
    13: "check-in error",
    14: "oversales, booking errors",
    15: "boarding, discrepancies and paging",
    16: "commercial publicity, passenger convenience, VIP",
    17: "catering order",
    18: "baggage processing, sorting",
    19: "reduced mobility, boarding or deboarding of PRM",
    21: "cargo documentation errors",
    22: "late positioning of cargo",
    23: "late acceptance of cargo",
    24: "inadequate packing of cargo",
    25: "cargo oversales, booking errors",
    26: "late cargo preparation",
    27: "mail documentation, packing",
    28: "late positioning of mail",
    29: "late acceptance of mail",
    31: "aircraft documentation late or inaccurate",
    32: "loading, unloading",
    33: "loading equipment",
    34: "servicing equipment",
    35: "aircraft cleaning",
    36: "fuelling, defuelling",
    37: "catering",
    38: "ULD, containers, pallets",
    39: "technical equipment (ground)",
    41: "aircraft defects",
    42: "scheduled maintenance, late release",
    43: "non-scheduled maintenance",
    44: "spares and maintenance equipment",
    45: "AOG spares to be carried to another station",
    46: "aircraft change for technical reasons",
    47: "standby aircraft: lack of planned standby",
    48: "scheduled cabin configuration or version adjustment",
    51: "damage during flight operations: bird or lightning strike, turbulence, heavy landing",
    52: "damage during ground operations",
    55: "departure control system",
    56: "cargo preparation system",
    57: "flight plans system",
    58: "other automated system",
    61: "flight plan, late completion or change",
    62: "operational requirements: fuel, load alteration",
    63: "late crew boarding or departure procedures",
    64: "flight deck crew shortage: sickness, awaiting standby",
    65: "flight deck crew special request",
    66: "late cabin crew boarding",
    67: "cabin crew shortage",
    68: "cabin crew error or special request",
    69: "captain request for security check",
    71: "weather at the departure station",
    72: "weather at the destination station",
    73: "weather en route or at the alternate",
    75: "de-icing of aircraft",
    76: "removal of snow, ice, water or sand from the airport",
    77: "ground handling impaired by weather",
    81: "ATFM: ATC en-route demand or capacity",
    82: "ATFM: ATC staff or equipment en route",
    83: "ATFM: restriction at the destination airport",
    84: "ATFM: weather at the destination",
    85: "mandatory security",
    86: "immigration, customs, health",
    87: "airport facilities",
    88: "restrictions at the destination airport",
    89: "restrictions at the departure airport",
    91: "load connection, awaiting load from another flight",
    92: "through check-in error",
    93: "aircraft rotation, late arrival from another sector",
    94: "cabin crew rotation",
    95: "crew rotation, awaiting crew from another flight",
    96: "operations control",
    97: "industrial action within own airline",
    98: "industrial action outside own airline",
    99: "other",
}


def family_of(code: int) -> DelayFamily:
    """The AHM 730 family of a two-digit delay code; a code outside every range is refused."""
    for first, last, family in FAMILY_RANGES:
        if first <= code <= last:
            return family
    raise ValueError(f"{code} is not an IATA AHM 730 delay code (11-99, by family)")


def history_type(code: int) -> DisruptionType:
    """The coarse kind DisruptionHistory files precedents under, from the AHM 730 code."""
    family = family_of(code)
    if family in ("technical", "damage_automation") and code <= 52:
        return "mechanical"
    if (family == "flight_operations_crew" and code >= 63) or code in (94, 95):
        return "crew"
    if family == "weather":
        return "weather"
    if 81 <= code <= 84:
        return "atc"
    return "other"


class ReportContradictsData(ValueError):
    """The report says something about the flight, tail, crew or airport that the data says otherwise."""


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Window(Frozen):
    start: UtcDatetime
    end: UtcDatetime

    @model_validator(mode="after")
    def _ends_after_it_starts(self) -> Window:
        if self.end <= self.start:
            raise ValueError(
                f"the window ends ({self.end:%Y-%m-%d %H:%M}Z) before it starts ({self.start:%Y-%m-%d %H:%M}Z)"
            )
        return self


class Fact(Frozen):
    """One thing known about the disruption, and how it is known."""

    name: str  # e.g. "aircraft_on_ground", "crew_unavailable", "slot_delay_minutes", "closure"
    value: str | int | float | bool | None = None
    source: FactSource
    evidence: str | None = None  # stated: the report's words; data: the row; policy: the table and entry
    span: tuple[int, int] | None = None  # stated: [start, end) of `evidence` in the report text

    @model_validator(mode="after")
    def _stated_facts_quote_the_report(self) -> Fact:
        if self.source == "stated" and not self.evidence:
            raise ValueError(f"stated fact {self.name!r} needs the report's words as evidence")
        return self


class Scope(Frozen):
    """What the disruption touches; `flights` are the resolved flight ids (filled from the data)."""

    kind: ScopeKind
    flight_numbers: list[str] = Field(default_factory=list)
    registration: str | None = None
    crew_ids: list[str] = Field(default_factory=list)
    crew_position: str | None = None  # e.g. "CAPTAIN", "FIRST_OFFICER", "CABIN"
    airport: str | None = None
    airspace: str | None = None  # an FIR or a flow regulation's name
    flights: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _names_what_it_is(self) -> Scope:
        needed = {
            "flight": bool(self.flight_numbers or self.flights),
            "tail": bool(self.registration),
            "crew_member": bool(self.crew_ids or self.crew_position),
            "airport": bool(self.airport),
            "airspace": bool(self.airspace or self.airport),
        }[self.kind]
        if not needed:
            raise ValueError(f"a {self.kind} scope must name its {self.kind.replace('_', ' ')}")
        return self


class FactCorrection(Frozen):
    """One fact as a duty manager corrected it: the key, its value (checked), what the reader had read, who."""

    key: CorrectionKey
    value: str = Field(max_length=200)
    read: str | None = None  # what the reading had for this key (None: it read nothing)
    by: str | None = Field(None, max_length=120)


class Uncertainty(Frozen):
    """Something the reading is unsure of, and the fact a correction would settle (models/corrections.py)."""

    code: Literal["LOW_CONFIDENCE", "CAUSE_FROM_DATA", "CAUSE_NOT_STATED", "NO_CREW_POSITION"]
    key: CorrectionKey
    message: str


ClearanceSource = Literal["stated", "history", "policy"]
ClearanceKind = Literal["aircraft_release", "crew_available", "station_reopens", "ctot", "flight_released"]


class Clearance(Frozen):
    """When the cause is expected to clear, and how that is known: the estimate a wait is validated at.

    `expected` is the best estimate; `latest` its upper bound (the report's own, or a history percentile, or the
    policy's margin) — the re-decision point: a cause not cleared by then re-opens the decision. `earliest` (a
    history estimate only: its low percentile) is how soon it may clear — what a called-out reserve is readied
    for, so the flight can leave when the cause clears before the estimate. `stated` quotes
    the report; `history` names its sample (cases, percentile) from DisruptionHistory or the work orders;
    `policy` names the configured entry. A history with too few cases is never a `history` estimate."""

    kind: ClearanceKind
    expected: UtcDatetime
    latest: UtcDatetime
    source: ClearanceSource
    evidence: str = Field(min_length=1, max_length=400)
    cases: int | None = Field(default=None, ge=1)  # history: the sample size
    percentile: int | None = Field(default=None, ge=1, le=100)  # history: the percentile `latest` is
    earliest: UtcDatetime | None = None  # history: the sample's low percentile (clearance_history.LOWER_PERCENTILE)
    # the times are a departure (an ETD, "delay about 100 minutes"), not when the cause itself ends: a crew member
    # then reports a sign-on lead before them, not after (``clearance_wait.departs_after``)
    departs: bool = False

    @model_validator(mode="after")
    def _bound_after_estimate(self) -> Clearance:
        if self.latest < self.expected:
            raise ValueError(
                f"the estimate's upper bound ({self.latest:%H:%M}Z) is before the estimate ({self.expected:%H:%M}Z)"
            )
        if self.earliest is not None and self.earliest > self.expected:
            raise ValueError(
                f"the estimate's lower bound ({self.earliest:%H:%M}Z) is after the estimate ({self.expected:%H:%M}Z)"
            )
        if self.source == "history" and (self.cases is None or self.percentile is None):
            raise ValueError("a history estimate names its sample size and percentile")
        return self


class Disruption(Frozen):
    """The report, as facts: one object resolved at Validate and carried to every step after it."""

    iata_delay_code: int = Field(ge=11, le=99)
    family: DelayFamily
    cause: str  # the code's title, or the report's own words for the cause
    scope: Scope
    window: Window | None = None
    severity_minutes: int | None = Field(default=None, ge=0)  # a stated duration or slot delay
    facts: list[Fact] = Field(default_factory=list)
    remarks: str = ""
    corrections: list[FactCorrection] = Field(default_factory=list)  # the duty manager's, in the order given
    unsure: list[Uncertainty] = Field(default_factory=list)  # what the reading is unsure of: ask, do not guess
    clears: Clearance | None = None  # when the cause is expected to clear (issue 46): waiting is then a plan

    @model_validator(mode="after")
    def _family_matches_the_code(self) -> Disruption:
        if self.iata_delay_code not in DELAY_CODES:
            raise ValueError(f"{self.iata_delay_code} is not an IATA AHM 730 delay code")
        if family_of(self.iata_delay_code) != self.family:
            raise ValueError(
                f"delay code {self.iata_delay_code} is in the {family_of(self.iata_delay_code)} "
                f"family, not {self.family}"
            )
        if self.scope.kind in ("airport", "airspace") and self.window is None:
            raise ValueError(f"an {self.scope.kind} disruption needs a time window")
        return self

    def unavailable_rank(self) -> str | None:
        """The rostered rank the report says cannot operate (a sick or missing captain), if it says so."""
        stated = any(f.name == "crew_unavailable" and f.source == "stated" for f in self.facts)
        return POSITION_RANKS.get(self.scope.crew_position or "") if stated else None

    def summary(self) -> str:
        """One line a duty manager reads before the plans: the cause, its code and family, the scope, the window."""
        scope = self.scope
        what = {
            "flight": ", ".join(scope.flight_numbers),
            "crew_member": f"{scope.crew_position or 'crew'} of {', '.join(scope.flight_numbers)}",
            "tail": scope.registration or "",
            "airport": scope.airport or "",
            "airspace": scope.airspace or scope.airport or "",
        }[scope.kind]
        window = f", {self.window.start:%Y-%m-%d %H:%M}Z-{self.window.end:%H:%M}Z" if self.window else ""
        severity = f", {self.severity_minutes} min stated" if self.severity_minutes is not None else ""
        family = self.family.replace("_", " ")
        return f"{self.cause} (AHM 730 code {self.iata_delay_code}, {family}) - {scope.kind.replace('_', ' ')} {what}{window}{severity}"

    @classmethod
    def of_code(cls, code: int, **fields: object) -> Disruption:
        """A disruption with its family and, unless given, its cause taken from the delay-code table."""
        fields.setdefault("cause", DELAY_CODES.get(code, ""))
        return cls.model_validate({"iata_delay_code": code, "family": family_of(code), **fields})
