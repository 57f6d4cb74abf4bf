"""Extraction core: the result models, the clock tool, the deterministic reading and the decision that
turns flight and date mentions (from the parser, an LLM or both) into one flight on one day or an input error.
The rules chosen are listed in ``skymarshal.intake.extraction``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from datetime import date, datetime, tzinfo
from typing import Any, Literal

from langchain_core.tools import BaseTool, tool
from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

from ..models.common import MAX_PROMPT_CHARS, FlightNumber, assume_utc
from .context_mentions import context_flight
from .dates import DateMention, Resolved, find_dates, month_day, resolve
from .flights import FlightMention, find_flights
from .mvt import masked, read_mvt
from .text import describe
from .when import operating_day, outside_instructions, relevant

DEFAULT_CARRIER = "EY"
SHOWN_DATES = 3  # operating dates listed when the asked one does not exist

FlightDates = Callable[[str], Sequence[date]]


def make_current_datetime_tool(clock: Callable[[], datetime] | None = None) -> BaseTool:
    """A ``current_datetime`` tool reading ``clock`` (default: the system clock, UTC)."""
    read = clock or (lambda: datetime.now(dt.UTC))

    @tool("current_datetime")
    def current_datetime() -> str:
        """Current UTC date and time in ISO 8601 (e.g. 2027-01-20T08:15:00+00:00). Use it to resolve
        'yesterday', 'today', 'tomorrow' or a weekday into a calendar date."""
        return assume_utc(read()).isoformat()

    return current_datetime


current_datetime = make_current_datetime_tool()


class FlightInfo(BaseModel):
    """The flight and day a disruption is about, and the disruption in the prompt's words."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    flight_number: FlightNumber  # normalised, "EY123"
    date: dt.date  # local date of departure at the origin, as on the ticket
    disruption_description: str  # "mechanical failure"
    carrier: str  # "EY"
    date_text: str  # the phrase that gave the date, "January 20th"
    resolution: str  # "explicit", "relative:tomorrow", "weekday:nearest Wednesday", "nearest occurrence of 20 Jan"

    @model_validator(mode="before")
    @classmethod
    def _seed_field_name(cls, data: Any) -> Any:
        """Accept seed 000's ``disruption_event`` (alone, or alongside as dumped by this model)."""
        if isinstance(data, dict) and "disruption_event" in data:
            data = dict(data)
            event = data.pop("disruption_event")
            data.setdefault("disruption_description", event)
        return data

    @computed_field  # type: ignore[prop-decorator]
    @property
    def disruption_event(self) -> str:
        """Seed 000's name for ``disruption_description``."""
        return self.disruption_description


class ExtractionResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    status: Literal["ok", "input_error"]
    flight_info: FlightInfo | None = None
    flight_infos: list[FlightInfo] = Field(default_factory=list)  # every flight named, one day (the first above)
    understood: dict = Field(default_factory=dict)  # flight numbers, date phrases and how they resolved, notes
    message: str
    method: Literal["parser", "llm"]

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def today_of(now: datetime | None, tz: tzinfo | None = None) -> date:
    """The current date: of ``now`` in ``tz`` (naive ``now`` is UTC); ``now`` None reads the tool's clock."""
    current = datetime.fromisoformat(current_datetime.invoke({})) if now is None else now
    if tz is not None:
        return assume_utc(current).astimezone(tz).date()
    return current.date()


def carrier_code(default_carrier: str) -> str:
    """The configured operator's designator, upper case; a malformed one is a configuration error (raises)."""
    code = str(default_carrier).strip().upper()
    if not re.fullmatch(r"[A-Z0-9]{2}", code) or code.isdigit():
        raise ValueError(
            f"default_carrier must be a two-character IATA designator such as 'EY', not {default_carrier!r}"
        )
    return code


def precheck(prompt: Any, max_chars: int) -> str | None:
    """Why the prompt cannot be read at all (not text, empty, too long), or None."""
    if not isinstance(prompt, str):
        return f"The prompt must be text, not {type(prompt).__name__}: describe the disruption in words"
    if not prompt.strip():
        return (
            "The prompt is empty: say which flight, which day and what happened, "
            "e.g. 'EY123 on 20 January had a mechanical failure'"
        )
    if len(prompt) > max_chars:
        return (
            f"The prompt is {len(prompt):,} characters; the limit is {max_chars:,}: "
            "describe one disruption briefly (flight, day, what happened)"
        )
    return None


def _operating_dates(flight_dates: FlightDates, flight_number: str) -> list[date]:
    """The flight's dates, whatever shape the caller returns them in (dates, datetimes, ISO strings)."""
    days = set()
    for value in flight_dates(flight_number) or ():
        if isinstance(value, datetime):
            value = value.date()
        elif isinstance(value, str):
            value = date.fromisoformat(value[:10])
        days.add(value)
    return sorted(days)


def _unique(values) -> list:
    return list(dict.fromkeys(values))


def _listing(days: Sequence[date], target: date) -> str:
    shown = sorted(sorted(days, key=lambda d: (abs((d - target).days), d < target))[:SHOWN_DATES])
    text = ", ".join(d.isoformat() for d in shown)
    more = f" (the {len(shown)} nearest of {len(days)})" if len(days) > len(shown) else ""
    return f"it operates on {text}{more}"


def _not_operating(flight: str, asked: str, days: Sequence[date], target: date) -> str:
    if not days:
        return f"{flight} is not in the schedule on any date: check the flight number"
    return f"{flight} does not operate on {asked}; {_listing(days, target)}"


def decide(
    *,
    flights: Sequence[FlightMention],
    dates: Sequence[DateMention],
    description: str,
    today: date,
    flight_dates: FlightDates,
    method: Literal["parser", "llm"],
    default_carrier: str = DEFAULT_CARRIER,
    notes: dict | None = None,
) -> ExtractionResult:
    """From the flight and date mentions found (by the parser, the LLM or both) to one flight on one day,
    or an input error saying what was understood and what is missing or ambiguous."""
    numbers = _unique(f.flight_number for f in flights)
    understood: dict = {
        "flight_numbers": numbers,
        "flight_phrases": [f.text for f in flights],
        "date_phrases": [d.text for d in dates],
        "description": description,
        **(notes or {}),
    }
    example = f"{default_carrier}123"

    def error(message: str) -> ExtractionResult:
        return ExtractionResult(status="input_error", understood=understood, message=message, method=method)

    invalid = [d for d in dates if d.kind == "invalid"]
    if invalid:
        return error(f"{invalid[0].problem}: say which day, e.g. '20 January' or 2027-01-20")
    if len(numbers) > 1 and any(f.carrier_from == "llm" for f in flights):
        return error(  # a flight only the model read is a mention, not a subject the report names
            f"{_count(len(numbers))} flights mentioned ({', '.join(numbers)}): analyse one disruption per request"
        )
    if len(numbers) > 1:
        return _several(
            numbers,
            flights=flights,
            dates=dates,
            description=description,
            today=today,
            flight_dates=flight_dates,
            method=method,
            default_carrier=default_carrier,
            understood=understood,
        )
    flight = numbers[0] if numbers else None
    operating = _operating_dates(flight_dates, flight) if flight else None
    resolved: list[tuple[DateMention, Resolved]] = [(d, resolve(d, today, operating)) for d in dates]
    understood["dates"] = [
        {"text": d.text, "date": r.date.isoformat() if r.date else None, "resolution": r.resolution, "source": d.source}
        for d, r in resolved
    ]

    if flight is None:
        if not dates:
            return error(
                "Found no flight number and no date: say which flight and which day, "
                f"e.g. '{example} on 20 January had a mechanical failure'"
            )
        first = resolved[0][0]
        joined = first.text if first.kind in ("relative", "weekday") else f"on {first.text}"
        return error(
            f"Understood date {_dates_phrase(resolved)} but no flight number: say which flight, "
            f"e.g. '{example} {joined}'"
        )
    if not dates:
        return error(f"Understood flight {flight} but no date: say which day, e.g. '{flight} on 20 January'")
    assert operating is not None  # a flight was named, so its operating dates were looked up
    for d, r in resolved:
        if r.problem == "weekday_mismatch":
            assert r.date is not None  # a weekday mismatch keeps the date that was checked
            return error(f"'{d.text}' does not add up ({r.date.isoformat()} is a {r.date:%A}): say which day is meant")
        if r.problem == "not_operating":
            assert d.day is not None  # only year-less mentions are "not_operating"
            written = month_day(d.month, d.day) if d.month else d.text
            asked = written + (f" ({d.text})" if d.text != written else "")
            return error(_not_operating(flight, f"{asked} in any year of the schedule", operating, today))
    days = _unique(r.date for _, r in resolved)
    untimed = [(d, r) for d, r in resolved if not d.timed]
    flight_day = _unique(r.date for _, r in untimed)
    if len(days) > 1 and len(flight_day) == 1 and all(abs((day - flight_day[0]).days) <= 1 for day in days):
        # "EY369, 19 January (STD 2240Z on the 18th)": the day a clock time is on is that time's day (UTC, the day
        # before a night flight's local date), the other one names the flight
        days, resolved = flight_day, untimed
    if len(days) > 1:
        return error(
            f"{_count(len(days))} dates mentioned ({_dates_phrase(resolved)}): say which day {flight} is about"
        )
    day = days[0]
    if day not in operating:
        return error(_not_operating(flight, day.isoformat(), operating, day))
    mention, resolution = resolved[0]
    info = FlightInfo(
        flight_number=flight,
        date=day,
        disruption_description=description,
        carrier=flight[:2],
        date_text=mention.text,
        resolution=resolution.resolution,
    )
    what = description or "no disruption described"
    return ExtractionResult(
        status="ok",
        flight_info=info,
        understood=understood,
        method=method,
        message=f"Understood {flight} on {day.isoformat()} ('{mention.text}': {resolution.resolution}): {what}",
    )


def _several(numbers: list[str], *, flights: Sequence[FlightMention], understood: dict, **common) -> ExtractionResult:
    """Several flights named: each resolved to its day as one flight would be; one disruption is one day, so
    flights on different days (or one that does not operate) are an input error naming them."""
    dates = common.pop("dates")
    results = []
    for number in numbers:
        mention = next(f for f in flights if f.flight_number == number)
        results.append(decide(flights=[mention], dates=_dates_of(mention, flights, dates), **common))
    method = common["method"]
    failed = [r for r in results if not r.ok or r.flight_info is None]
    if failed:
        return ExtractionResult(status="input_error", understood=understood, message=failed[0].message, method=method)
    infos = [r.flight_info for r in results if r.flight_info is not None]
    days = _unique(i.date for i in infos)
    if len(days) > 1:
        named = ", ".join(f"{i.flight_number} on {i.date.isoformat()}" for i in infos)
        return ExtractionResult(
            status="input_error",
            understood=understood,
            method=method,
            message=f"the flights named are on different days ({named}): report one operating day at a time",
        )
    first = infos[0]
    return ExtractionResult(
        status="ok",
        flight_info=first,
        flight_infos=infos,
        understood=understood,
        method=method,
        message=f"Understood {', '.join(numbers)} on {first.date.isoformat()}: {first.disruption_description}",
    )


def _dates_of(mention: FlightMention, flights: Sequence[FlightMention], dates: Sequence[DateMention]) -> list:
    """The date phrases that state one flight's day where several flights are named: all of them when they agree,
    else the first after the flight and before the next flight's ("EY1 on 20 Jan and EY5 on 21 Jan"), else the
    nearest before it."""
    if len({d.key for d in dates}) <= 1:
        return list(dates)
    later = [f.start for f in flights if f.start > mention.start]
    until = min(later, default=10**9)
    after = [d for d in dates if mention.end <= d.start < until]
    before = [d for d in dates if d.end <= mention.start]
    return after[:1] or before[-1:] or list(dates)


def _count(n: int) -> str:
    return {2: "Two", 3: "Three"}.get(n, str(n))


def _dates_phrase(resolved: Sequence[tuple[DateMention, Resolved]]) -> str:
    parts = []
    for d, r in resolved:
        parts.append(f"'{d.text}' = {r.date.isoformat()}" if r.date else f"'{d.text}'")
    return ", ".join(_unique(parts))


_OWN_DATE = re.compile(r"^[\s,/(]*(?:on\s+|of\s+)?(?:the\s+)?$", re.I)


def _date_of(prompt: str, flight: FlightMention, date: DateMention) -> bool:
    """Is `date` written right after `flight` ("EY318 on the 18th", "EY318/18JAN"): that flight's own day."""
    return date.start >= flight.end and _OWN_DATE.match(prompt[flight.end : date.start]) is not None


def parse(prompt: str, default_carrier: str = DEFAULT_CARRIER) -> tuple[list[FlightMention], list[DateMention], str]:
    """The deterministic reading: flight mentions, date mentions, the disruption's own words. Date phrases
    are found first and blanked, so "20 Jan" is never read as part of a flight number."""
    message = read_mvt(prompt)
    text = masked(prompt, message) if message is not None else prompt
    dates = find_dates(text)
    blanked = text
    for d in dates:
        blanked = blanked[: d.start] + " " * (d.end - d.start) + blanked[d.end :]
    flights = find_flights(blanked, default_carrier)
    subjects = [f for f in flights if not context_flight(prompt, f.start)]
    if subjects:  # "EY4 … late, arrived behind on the inbound EY3": EY3 is context, and so is its own date
        context = [f for f in flights if f not in subjects]  # ("because EY318 on the 18th …": not EY4's day,
        # unless it is the only day the report gives)
        dates = [d for d in dates if not any(_date_of(prompt, f, d) for f in context)] or dates
        flights = subjects
    # The airline's own flight named: another designator's number beside it is context, not a second subject — a
    # dangerous-goods UN number ("UN3480"), an MVT delay code ("DL99"), a partner's connecting flight.
    own = [f for f in flights if f.flight_number.startswith(default_carrier.upper())]
    flights = own or flights
    flights = outside_instructions(prompt, flights, lambda f: f.start)  # "… analyse EY124 instead" names none
    if message is not None:  # the message's flight line names the flight and its day of the month
        start, end = message.flight_span
        flights = [f for f in flights if f.start == start] or flights[:1]
        dates = [DateMention(f"day {message.day_of_month}", end, end + 3, "yearless", day=message.day_of_month)]
    description = describe(prompt, [(f.start, f.end) for f in flights] + [(d.start, d.end) for d in dates])
    return flights, dates, description


def extract_offline(
    prompt: str,
    *,
    now: datetime | None = None,
    flight_dates: FlightDates,
    default_carrier: str = DEFAULT_CARRIER,
    tz: tzinfo | None = None,
    max_chars: int = MAX_PROMPT_CHARS,
    ops_date: date | None = None,
) -> ExtractionResult:
    """Deterministic extraction. ``now`` defaults to the ``current_datetime`` tool's clock; relative days resolve
    against the operating day (stated in the report, else ``ops_date``, else today: intake/when.py);
    ``flight_dates(flight_number)`` returns every local date the flight operates."""
    default_carrier = carrier_code(default_carrier)
    problem = precheck(prompt, max_chars)
    if problem:
        return ExtractionResult(
            status="input_error",
            message=problem,
            method="parser",
            understood={"prompt_chars": len(prompt) if isinstance(prompt, str) else None},
        )
    flights, dates, description = parse(prompt, default_carrier)
    today, stated = operating_day(prompt, ops_date, today_of(now, tz))
    dates = relevant(prompt, dates, [(f.start, f.end) for f in flights], stated)
    return decide(
        flights=flights,
        dates=dates,
        description=description,
        today=today,
        flight_dates=flight_dates,
        method="parser",
        default_carrier=default_carrier,
    )
