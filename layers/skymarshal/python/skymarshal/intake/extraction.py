"""Extraction: one plain-language prompt → which flight, which day, what happened (``FlightInfo``).

- ``extract_offline``   deterministic parser (flight phrases: ``extraction_flights``; date phrases and how
                        they resolve: ``extraction_dates``; the disruption's own words: ``extraction_text``).
- ``extract_with_llm``  LangChain ``with_structured_output`` reading, then the SAME normalisation and
                        resolution as the parser; falls back to the parser when the model fails.
- ``current_datetime``  a LangChain tool giving the current UTC time as ISO text (an agent graph can bind it;
                        ``make_current_datetime_tool(clock)`` makes one on an injected clock).

Bad input never raises: it gives ``status="input_error"`` and a message saying what was understood and what
is missing or ambiguous. A flight and date are accepted only when ``flight_dates(flight_number)`` — the
dates the flight operates — says the flight exists that day, whichever reader (parser or LLM) found them.

Rules chosen:
- numeric dates are DAY FIRST ("20/01/2027" = 20 January; "01/20/2027" is refused, month 20);
- "flight 123" takes the operator's designator (``default_carrier``, "EY");
- a weekday alone ("on Wednesday") is the NEAREST such day to today, either direction, today included;
  "last"/"next" Wednesday are strictly before/after today;
- a date without a year is the occurrence NEAREST to today, either direction, among the dates the flight
  operates (a tie goes to the future);
- "today" is the date of ``now`` in ``tz`` (default: ``now``'s own zone; the tool gives UTC);
- two different flights, or phrases resolving to two different dates, are ambiguous: one disruption per request.

Seed 000 named the description ``disruption_event``; here the field is ``disruption_description`` and
``disruption_event`` is accepted on input and dumped as a computed alias, so seed-shaped dicts round-trip.
"""

from __future__ import annotations

from .dates import find_dates, resolve
from .extraction_core import (
    DEFAULT_CARRIER,
    MAX_PROMPT_CHARS,
    ExtractionResult,
    FlightDates,
    FlightInfo,
    current_datetime,
    decide,
    extract_offline,
    make_current_datetime_tool,
    parse,
    today_of,
)
from .extraction_llm import SYSTEM_PROMPT, FlightReport, extract_with_llm
from .flights import CARRIER_NAMES, find_flights, normalise_flight_number

__all__ = [
    "CARRIER_NAMES",
    "DEFAULT_CARRIER",
    "MAX_PROMPT_CHARS",
    "SYSTEM_PROMPT",
    "ExtractionResult",
    "FlightDates",
    "FlightInfo",
    "FlightReport",
    "current_datetime",
    "decide",
    "extract_offline",
    "extract_with_llm",
    "find_dates",
    "find_flights",
    "make_current_datetime_tool",
    "normalise_flight_number",
    "parse",
    "resolve",
    "today_of",
]
