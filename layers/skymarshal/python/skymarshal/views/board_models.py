"""The operation board, as the API returns it (GET /operations?day=): the duty manager's first screen.

Every tail of the operating day is a row; its flights are bars at their best-known times (the estimate when there
is one) beside their schedule, each with what happened to it in the decision Gantt's words (`change`: delayed,
cancelled, swapped_in, diverted, unchanged) so the console draws both with one vocabulary. AOG and maintenance
blocks come from AircraftAvailability and the work orders, crew shortfalls from the roster, the open disruptions
are markers linking to their decision, and station closures and capacity cuts are bands over every row. The
header's figures are the day replay's scorecard (``day.scorecard.score``) over the day as the tables hold it now.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..models.common import UtcDatetime
from .gantt_models import Change

BlockKind = Literal["aog", "maintenance"]
BoardBandKind = Literal["closure", "capacity", "regulation", "disruption"]
ShortfallKind = Literal["below_complement", "illegal_at_estimate"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CrewShortfall(_Frozen):
    kind: ShortfallKind
    text: str = Field(description="what is short, in one line (e.g. '1 of 2 pilots rostered')")


class BoardFlight(_Frozen):
    flight_id: str
    flight_number: str
    origin: str
    destination: str  # where it was scheduled to land (a diversion's alternate is `diverted_to`)
    scheduled_departure: UtcDatetime
    scheduled_arrival: UtcDatetime
    start: UtcDatetime = Field(description="the bar's start: the estimated departure, else the scheduled one")
    end: UtcDatetime = Field(description="the bar's end: the estimated arrival, else the scheduled one")
    change: Change = Field(description="what happened to it, in the decision Gantt's words")
    delay_minutes: int = 0
    status: str
    diverted_to: str | None = None
    swapped_from: str | None = Field(None, description="the tail it was on before an executed swap")
    delay_reason: str | None = None
    crew_shortfalls: list[CrewShortfall] = Field(default_factory=list)
    disruptions: list[str] = Field(default_factory=list, description="the open runs about this flight")


class BoardBlock(_Frozen):
    kind: BlockKind
    start: UtcDatetime
    end: UtcDatetime
    label: str
    source: str = Field(description="the row it comes from: 'AircraftAvailability 2027-01-20', 'work order WO-1'")


class BoardRow(_Frozen):
    registration: str
    aircraft_type: str
    label: str  # "A6-BLA (B789)"
    status: str | None = Field(None, description="the day's AircraftAvailability status (IN_SERVICE, SPARE, AOG, …)")
    station: str | None = Field(None, description="where the tail starts the day")
    flights: list[BoardFlight]
    blocks: list[BoardBlock] = Field(default_factory=list)
    disruptions: list[str] = Field(default_factory=list, description="the open runs about this tail")


class BoardBand(_Frozen):
    kind: BoardBandKind
    airport: str
    start: UtcDatetime
    end: UtcDatetime
    label: str
    disruption_id: str


class BoardDisruption(_Frozen):
    """An open run (waiting for a decision, or still running) pinned on the board."""

    disruption_id: str
    outcome: str = Field(description="awaiting_decision or running")
    outcome_text: str
    subject: str | None
    report: str | None
    at: UtcDatetime = Field(description="where the marker stands: the disruption's window start, else the run's start")
    registrations: list[str] = Field(default_factory=list, description="the rows it is pinned to")
    flight_ids: list[str] = Field(default_factory=list)
    airport: str | None = None
    link: str = Field(description="the console's address of its decision")


class BoardHeader(_Frozen):
    """The day's live figures: the day replay's scorecard over the day as the tables hold it now."""

    flights: int
    d15: float = Field(description="share of the day's operated flights leaving within 15 min of schedule")
    a15: float
    cancellations: int
    diversions: int
    passengers_disrupted: int = Field(
        description="passengers whose journey is late 15 min or more at its final destination, misconnects, is "
        "cancelled or stranded overnight (the scorecard's count)"
    )
    decisions_waiting: int
    runs_open: int


class OperationBoard(_Frozen):
    day: date
    start: UtcDatetime = Field(description="the window drawn (the whole day unless paged)")
    end: UtcDatetime
    header: BoardHeader
    rows: list[BoardRow]
    bands: list[BoardBand]
    disruptions: list[BoardDisruption]
    zones: dict[str, str] = Field(
        default_factory=dict, description="each airport drawn: its IANA time zone (station-local times on hover)"
    )
