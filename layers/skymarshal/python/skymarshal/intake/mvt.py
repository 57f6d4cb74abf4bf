"""An IATA MVT-like delay message, as the OCC pastes it (AHM 780 layout, one element a line or " / " between):

    MVT
    EY384/20.A6EJG.CMB        flight / day of month . registration . station
    ED200410                  estimated departure: day, hours, minutes (EA: estimated arrival)
    DL75/0015                 delay code(s) and duration(s), HHMM
    SI ANTI-ICE REQ           supplementary information, free text

The delay code is the cause as the station coded it (AHM 730) and its duration the stated delay; the DL element
is never a flight number ("DL75" is not Delta 75). A message that is not MVT gives None; a malformed element is
left unread and noted, never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..models.disruption import DELAY_CODES

_HEAD = re.compile(r"^\s*(?:MVT|DIV)\b", re.I)
_FLIGHT = re.compile(
    r"(?<![\w/])(?P<flight>[A-Z0-9]{2}\d{1,4}[A-Z]?)/(?P<day>\d{2})(?:\.(?P<reg>[A-Z0-9]{3,6}))?(?:\.(?P<station>[A-Z]{3}))?"
    r"(?![\w])"
)
_DELAY = re.compile(r"(?<![\w])DL\s?(?P<codes>\d{2}(?:/\d{2})?)(?:/(?P<times>\d{4}(?:/\d{4})?))?(?![\w])")
_ESTIMATE = re.compile(r"(?<![\w])(?P<kind>ED|EA)(?P<at>\d{6})(?![\w])")
_SUPPLEMENT = re.compile(r"(?<![\w])SI\s+(?P<text>[^\n]*?)(?=\s/\s|\n|$)")


@dataclass(frozen=True)
class Mvt:
    flight_number: str
    flight_span: tuple[int, int]
    day_of_month: int
    registration: str | None = None  # as written, without its hyphen ("A6EJG")
    station: str | None = None
    codes: tuple[int, ...] = ()
    code_span: tuple[int, int] | None = None
    minutes: int | None = None  # the first delay's duration
    supplement: str = ""
    notes: list[str] = field(default_factory=list)


def is_mvt(text: str) -> bool:
    return _HEAD.search(text) is not None and _FLIGHT.search(text) is not None


def read_mvt(text: str) -> Mvt | None:
    """The message's elements, or None when the text is not an MVT."""
    if not is_mvt(text):
        return None
    line = _FLIGHT.search(text)
    assert line is not None  # is_mvt found it
    notes: list[str] = []
    codes: tuple[int, ...] = ()
    code_span = None
    minutes = None
    if (dl := _DELAY.search(text)) is not None:
        written = tuple(int(c) for c in dl["codes"].split("/"))
        codes = tuple(c for c in written if c in DELAY_CODES)
        notes += [f"DL{c:02d} is not an AHM 730 delay code" for c in written if c not in DELAY_CODES]
        code_span = dl.span()
        if dl["times"]:
            first = dl["times"].split("/")[0]
            minutes = int(first[:2]) * 60 + int(first[2:])
    supplement = " ".join(m["text"].strip() for m in _SUPPLEMENT.finditer(text))
    return Mvt(
        flight_number=re.sub(r"(?<=[A-Z0-9]{2})0+(?=\d)", "", line["flight"], count=1),
        flight_span=(line.start("flight"), line.end("flight")),
        day_of_month=int(line["day"]),
        registration=line["reg"],
        station=line["station"],
        codes=codes,
        code_span=code_span,
        minutes=minutes,
        supplement=supplement,
        notes=notes,
    )


def masked(text: str, message: Mvt) -> str:
    """The text with the delay element blanked, so its code is not read as a flight number."""
    if message.code_span is None:
        return text
    a, b = message.code_span
    return text[:a] + " " * (b - a) + text[b:]
