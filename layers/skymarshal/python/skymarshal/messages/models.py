"""The messages and the contact list of one plan, as data (pydantic: they go to the API, the CLI and S3)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..arbitration.crew.contacts import CrewChangeKind

Standard = Literal["ASM", "MVT"]
# ASM action identifiers (SSIM Chapter 5) and the MVT kinds (AHM 780) a plan produces
MessageAction = Literal["CNL", "EQT", "NEW", "ED", "DIV"]
PassengerChange = Literal["delayed", "rebooked", "interline", "diverted"]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class OutboundMessage(Frozen):
    """One message about one flight, its text exactly as it would be sent."""

    standard: Standard
    action: MessageAction
    flight_id: str
    flight_number: str
    stations: list[str]  # addressed to: the stations whose movements it changes
    text: str
    why: str  # the plan's action it reports


class RefusedMessage(Frozen):
    """A message that failed its own format check: never sent, said instead."""

    flight_id: str
    standard: Standard
    problem: str


class CrewContact(Frozen):
    crew_id: str
    flight_id: str
    flight_number: str
    change: CrewChangeKind
    notification: str


class StationContact(Frozen):
    station: str
    flights: list[str]  # flight numbers whose movements change there


class PassengerGroup(Frozen):
    """The passengers of one flight to whom one thing happened, and what they are told."""

    flight_id: str
    flight_number: str
    change: PassengerChange
    passengers: int
    onto: str | None = None  # the flight (or INTERLINE) they are rebooked onto
    notification: str


class ContactTotals(Frozen):
    messages: int
    crew: int  # distinct crew members to contact
    stations: int
    passengers: int


class PublishFailure(Frozen):
    """One event the bus did not take: the message (its flight) or the contact list, and why."""

    what: str  # "ASM CNL EY123-20270120", "contacts"
    error: str


class Publication(Frozen):
    """What became of an executed plan's messages on the downstream bus (they are in S3 and the audit whatever
    happens here): `published` of `events` taken; `status` none when no bus is configured."""

    bus: str | None
    events: int  # one per message, and one for the contact list
    published: int
    failed: list[PublishFailure] = Field(default_factory=list)
    # the message ids the bus took (workflow/execution/publish.py): a later attempt sends only the others
    sent: list[str] = Field(default_factory=list)

    @property
    def status(self) -> Literal["published", "partly_published", "not_published", "no_bus"]:
        if self.bus is None:
            return "no_bus"
        if self.published == self.events:
            return "published"
        return "partly_published" if self.published else "not_published"


class PlanMessages(Frozen):
    scenario_id: str
    messages: list[OutboundMessage]
    refused: list[RefusedMessage] = Field(default_factory=list)
    crew: list[CrewContact]
    stations: list[StationContact]
    passengers: list[PassengerGroup]
    totals: ContactTotals
    publication: Publication | None = None  # once executed: what the downstream bus took
