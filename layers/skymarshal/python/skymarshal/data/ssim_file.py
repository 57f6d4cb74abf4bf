"""A whole SSIM Chapter 7 file: its records in the order the manual sets (a header, then per carrier a type 2,
its legs each followed by their segment records, and a trailer), serial numbers consecutive, every line 200
bytes. `read_ssim` returns the records and every problem as `line N: field: problem`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from .ssim import (
    HEADER_FIELDS,
    RECORD_LENGTH,
    TITLE,
    Carrier,
    Leg,
    Segment,
    SsimFile,
    SsimProblem,
    Trailer,
    field,
    parse_carrier,
    parse_leg,
    parse_segment,
    parse_trailer,
)

_PADDING = "0" * RECORD_LENGTH


class _Reader:
    """Walks the records once, keeping what the order rules need: the open carrier and the last leg."""

    def __init__(self) -> None:
        self.carriers: list[Carrier] = []
        self.legs: list[Leg] = []
        self.segments: list[Segment] = []
        self.errors: list[str] = []
        self.serial = 0  # the last record's serial number
        self.open_carrier: Carrier | None = None
        self.seen_header = False
        self.last_leg: Leg | None = None

    def problem(self, number: int, where: str, text: str) -> None:
        self.errors.append(f"line {number}: {where}: {text}")

    def record(self, number: int, line: str) -> None:
        kind = line[0]
        if kind == "1":
            self._header(number, line)
        elif not self.seen_header:
            self.problem(number, "record_type", f"{kind!r} before the header record (type 1 comes first)")
            return
        elif kind == "2":
            if self.open_carrier is not None:
                self.problem(number, "record_type", "a carrier record (2) before the previous carrier's trailer (5)")
            self.open_carrier = self.carriers[-1] if self._parse(number, line, parse_carrier, self.carriers) else None
            self.last_leg = None
        elif kind in "345" and self.open_carrier is None:
            self.problem(number, "record_type", f"a type {kind} record outside a carrier (no type 2 before it)")
        elif kind == "3":
            self.last_leg = self.legs[-1] if self._parse(number, line, parse_leg, self.legs) else None
            if self.last_leg is not None and self.open_carrier is not None:
                self._leg_in_carrier(self.last_leg, self.open_carrier)
        elif kind == "4":
            if self._parse(number, line, parse_segment, self.segments):
                self._segment_of_last_leg(self.segments[-1])
        elif kind == "5":
            trailers: list[Trailer] = []
            if self._parse(number, line, parse_trailer, trailers) and trailers[0].check_serial != self.serial - 1:
                self.problem(
                    number,
                    "check_serial",
                    f"{trailers[0].check_serial:06d}, but the record before holds {self.serial - 1:06d}",
                )
            self.open_carrier, self.last_leg = None, None
        else:
            self.problem(number, "record_type", f"{kind!r} is not a record type 1-5 (or a padding line of zeros)")

    def _header(self, number: int, line: str) -> None:
        if self.seen_header:
            self.problem(number, "record_type", "a second header record (type 1)")
        self.seen_header = True
        if field(line, HEADER_FIELDS["title"]) != TITLE:
            self.problem(number, "title", f"{field(line, HEADER_FIELDS['title'])!r}, expected {TITLE!r}")
        self._check_serial(number, field(line, HEADER_FIELDS["serial"]))

    def _parse(self, number: int, line: str, parse: Callable[[str, int], Any], into: list[Any]) -> bool:
        try:
            record = parse(line, number)
        except SsimProblem as exc:
            self.problem(number, *str(exc).split(": ", 1))
            self.serial += 1  # the record still holds its place in the sequence
            return False
        except ValidationError as exc:  # a value the record model refuses
            first = exc.errors()[0]
            self.problem(number, ".".join(str(p) for p in first["loc"]) or "(record)", first["msg"])
            self.serial += 1
            return False
        self._check_serial(number, f"{record.serial:06d}")
        into.append(record)
        return True

    def _check_serial(self, number: int, text: str) -> None:
        expected = self.serial + 1
        if not text.isdigit() or int(text) != expected:
            self.problem(number, "serial", f"{text.strip()!r}, expected {expected:06d} (records are numbered in order)")
        self.serial = expected

    def _leg_in_carrier(self, leg: Leg, carrier: Carrier) -> None:
        if leg.airline != carrier.airline:
            self.problem(leg.line, "airline", f"{leg.airline!r} inside carrier {carrier.airline!r}'s records")
        if leg.period_from < carrier.valid_from or leg.period_to > carrier.valid_to:
            self.problem(
                leg.line,
                "period_from",
                f"{leg.period_from}..{leg.period_to} is outside the carrier's validity "
                f"{carrier.valid_from}..{carrier.valid_to} (line {carrier.line})",
            )

    def _segment_of_last_leg(self, segment: Segment) -> None:
        leg = self.last_leg
        if leg is None or (segment.airline, segment.flight_number, segment.itinerary_variation) != (
            leg.airline,
            leg.flight_number,
            leg.itinerary_variation,
        ):
            self.problem(segment.line, "flight_number", "a segment record (4) that does not follow its flight leg (3)")


def read_ssim(text: str) -> tuple[SsimFile, list[str]]:
    """Every record of the file, and every problem (when there is any, the records are not to be used)."""
    reader = _Reader()
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last record
    for number, raw in enumerate(lines, start=1):
        line = raw.removesuffix("\r")
        if line == _PADDING:
            continue
        if len(line) != RECORD_LENGTH:
            reader.problem(number, "(record)", f"{len(line)} characters; an SSIM record is {RECORD_LENGTH}")
            reader.serial += 1
            continue
        reader.record(number, line)
    if not reader.seen_header:
        reader.errors.append("line 1: record_type: no header record (type 1): not an SSIM Chapter 7 file")
    elif reader.open_carrier is not None:
        reader.errors.append(f"line {len(lines)}: record_type: the file ends without the carrier's trailer (5)")
    parsed = SsimFile(carriers=reader.carriers, legs=reader.legs, segments=reader.segments)
    return parsed, reader.errors
