"""Shared field types: UTC timestamps stored as ISO strings that sort in time order; shared limits."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, PlainSerializer, StringConstraints

# The longest disruption report accepted (API body, workflow input, extraction): a report is a few lines.
MAX_PROMPT_CHARS = 4000


def as_utc(value: datetime) -> datetime:
    """The same instant in UTC; a naive datetime is refused, since its instant is unknown."""
    if value.tzinfo is None:
        raise ValueError("timestamp needs a time zone (use UTC, e.g. 2027-01-20T08:15:00Z)")
    return value.astimezone(UTC)


def assume_utc(value: datetime) -> datetime:
    """Like ``as_utc``, for sources documented to give UTC wall-clock time (a naive clock reading)."""
    return as_utc(value.replace(tzinfo=UTC) if value.tzinfo is None else value)


def iso_z(value: datetime) -> str:
    """Canonical storage form: second precision, UTC, trailing Z — lexicographic order is time order."""
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


UtcDatetime = Annotated[datetime, AfterValidator(as_utc), PlainSerializer(iso_z, return_type=str)]
Iata = Annotated[str, StringConstraints(pattern=r"^[A-Z]{3}$")]
FlightNumber = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{2}\d{1,4}[A-Z]?$")]
Registration = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{1,2}-[A-Z0-9]{3,5}$")]


class Row(BaseModel):
    """Base for table rows: unknown attributes are an error, so a typo in an import is caught."""

    model_config = ConfigDict(extra="forbid", frozen=False)

    def to_item(self) -> dict[str, Any]:
        """The DynamoDB item: JSON-mode dump, None values dropped (sparse GSIs stay sparse)."""
        return {k: v for k, v in self.model_dump(mode="json").items() if v is not None}
