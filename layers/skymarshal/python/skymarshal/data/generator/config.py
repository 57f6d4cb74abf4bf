"""Generator settings, validated: a bad seed, window or scale is refused with a one-line reason."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, Field

DEFAULT_START = date(2027, 1, 17)
DEFAULT_DAYS = 7


class GeneratorConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    seed: int = Field(default=2027, ge=0, le=2**32 - 1, description="random seed; same seed, same airline")
    start: date = Field(default=DEFAULT_START, description="first local day at the hub")
    days: int = Field(default=DEFAULT_DAYS, ge=7, le=31, description="window length in days (7-31)")
    scale: int = Field(default=1, ge=1, le=4, description="network copies: 1 = ~170 flights a day")
    load_factor: float = Field(default=0.78, ge=0.05, le=1.0, description="mean seat load factor")
    passenger_days: tuple[date, date] | None = Field(
        default=None,
        description="a slice: only flights departing on these hub-local days (first, last) get passengers, "
        "drawn for them alone; None: every flight of the window",
    )
    demo_situations: bool = Field(
        default=True,
        description="plant the three demo situations (EY123's AOG, EY101's crew, EY11's storm) on days 4-6; a "
        "day replay's airline goes without them: its day is what its stream says, for every policy alike",
    )

    @property
    def end(self) -> date:
        """Last local day of the window (inclusive)."""
        return self.start + timedelta(days=self.days - 1)

    def demo_day(self, offset: int) -> date:
        """Days on which the demo situations are placed (offsets 3, 4, 5 from the start)."""
        return self.start + timedelta(days=offset)


def local_to_utc(day: date, hhmm: str, tz: str) -> datetime:
    h, m = map(int, hhmm.split(":"))
    return datetime.combine(day, time(h, m), ZoneInfo(tz)).astimezone(UTC)


def local_date(instant: datetime, tz: str) -> date:
    return instant.astimezone(ZoneInfo(tz)).date()


def round_up(minutes: float, step: int = 5) -> int:
    return int(-(-minutes // step) * step)
