"""A duty manager's correction of a fact the report was read as, and what the reading is unsure of.

A correction is `KEY=VALUE` (CLI `--fact`, the API's `facts` object, the console's facts panel). It replaces what
the reader inferred for that key — the AHM 730 code (or its family), the flights and their day, the crew position,
the window, the stated duration — and then goes through the same checks against the data as the report did
(intake/corrected_facts.py). Like a report's facts it can only add to what the tables hold: the what-if overlay
is rebuilt from the corrected facts and never patches a row to be better than the data says. A bad value is one
line naming the key, and nothing is run.

`uncertainties` lists what the reading is unsure of (a low confidence, a cause taken from the flight's row or left
as "other", a crew cause with no position named), each with the key a correction would settle.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from datetime import date, time
from typing import get_args

from .disruption import (
    DELAY_CODES,
    FAMILY_RANGES,
    POSITION_RANKS,
    CorrectionKey,
    DelayFamily,
    Disruption,
    FactCorrection,
    Uncertainty,
    family_of,
)

__all__ = [
    "CORRECTION_KEYS",
    "CREW_CAUSES",
    "MEMBER_CAUSES",
    "CorrectionKey",
    "CorrectionRefused",
    "FactCorrection",
    "Uncertainty",
    "checked_facts",
    "parse_fact",
    "uncertainties",
    "window_times",
]
CORRECTION_KEYS: tuple[str, ...] = get_args(CorrectionKey)
MAX_FLIGHTS = 20  # as many as one report may name
MAX_DURATION_MINUTES = 48 * 60
# Below this the cause is a guess (intake/cause.py: one hint alone reads about 0.33, a word naming it 0.99).
UNSURE_BELOW = 0.5
CREW_CAUSES = frozenset({63, 64, 65, 66, 67, 68})
# The causes one crew member named by position can be what a report is about (its scope): the crew's own, a member
# awaited from another flight (94 cabin, 95 flight deck) and a member's own industrial action (97). A member asking
# for something (the commander's extra fuel, 62; a security search, 69) is not.
MEMBER_CAUSES = CREW_CAUSES | {94, 95, 97}
_FLIGHT = re.compile(r"^[A-Z0-9]{2}\d{1,4}[A-Z]?$")
_WINDOW = re.compile(r"^(\d{1,2}):?(\d{2})\s*[zZ]?\s*[-–]\s*(\d{1,2}):?(\d{2})\s*[zZ]?$")
_DURATION = re.compile(
    r"^(?:(\d{1,2})\s*h(?:ours?)?\s*(\d{1,2})?\s*(?:m(?:in\w*)?)?|(\d{1,4})\s*(?:m(?:in\w*)?)?)$", re.I
)
# The position words a duty manager types, as the roster's names (models/disruption.POSITION_RANKS)
_POSITIONS = {
    **{p.lower(): p for p in POSITION_RANKS},
    **{r.lower(): p for p, r in POSITION_RANKS.items()},
    "first officer": "FIRST_OFFICER",
    "second officer": "SECOND_OFFICER",
    "f/o": "FIRST_OFFICER",
    "cabin crew": "CABIN",
}


class CorrectionRefused(ValueError):
    """A correction that cannot be: the message is the one line the duty manager reads."""


def _said(text: str, limit: int = 40) -> str:
    """The duty manager's words on one line, short: a refusal quotes them, never breaks the line."""
    flat = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _code(value: str) -> str:
    if not value.isdigit() or int(value) not in DELAY_CODES:
        raise CorrectionRefused(f"code={_said(value)}: not an IATA AHM 730 delay code (11-99, e.g. code=41)")
    return str(int(value))


def _family(value: str) -> str:
    family = value.lower().replace(" ", "_").replace("-", "_")
    if family not in get_args(DelayFamily):
        raise CorrectionRefused(f"family={_said(value)}: one of {', '.join(get_args(DelayFamily))}")
    return family


def _flights(value: str) -> str:
    numbers = [n.upper() for n in re.split(r"[\s,;]+", value.strip()) if n]
    bad = [n for n in numbers if not _FLIGHT.match(n)]
    if not numbers or bad:
        raise CorrectionRefused(f"flights={_said(value)}: flight numbers separated by commas, e.g. flights=EY123,EY124")
    if len(set(numbers)) > MAX_FLIGHTS:
        raise CorrectionRefused(f"flights={_said(value)}: at most {MAX_FLIGHTS} flights in one disruption")
    return ",".join(dict.fromkeys(numbers))


def _date(value: str) -> str:
    try:
        return date.fromisoformat(value.strip()).isoformat()
    except ValueError:
        raise CorrectionRefused(f"date={_said(value)}: the flights' day as YYYY-MM-DD") from None


def _crew_position(value: str) -> str:
    position = _POSITIONS.get(value.strip().lower().replace("_", " ")) or _POSITIONS.get(value.strip().lower())
    if position is None:
        raise CorrectionRefused(f"crew_position={_said(value)}: one of {', '.join(POSITION_RANKS)}")
    return position


def window_times(value: str) -> tuple[time, time]:
    """`HH:MM-HH:MM` (UTC) as two times; an end before the start runs past midnight."""
    m = _WINDOW.match(value.strip())
    hours = [int(g) for g in m.groups()] if m else []
    if not m or hours[0] > 23 or hours[2] > 23 or hours[1] > 59 or hours[3] > 59 or hours[:2] == hours[2:]:
        raise CorrectionRefused(f"window={_said(value)}: HH:MM-HH:MM in UTC, e.g. window=06:00-09:30")
    return time(hours[0], hours[1]), time(hours[2], hours[3])


def _window(value: str) -> str:
    start, end = window_times(value)
    return f"{start:%H:%M}-{end:%H:%M}"


def _duration(value: str) -> str:
    m = _DURATION.match(value.strip())
    if m is None:
        raise CorrectionRefused(f"duration={_said(value)}: minutes, e.g. duration=120 or duration=2h")
    minutes = int(m[3]) if m[3] else int(m[1]) * 60 + int(m[2] or 0)
    if not 1 <= minutes <= MAX_DURATION_MINUTES:
        raise CorrectionRefused(f"duration={_said(value)}: 1 to {MAX_DURATION_MINUTES} minutes")
    return str(minutes)


_CHECKS = {
    "code": _code,
    "family": _family,
    "flights": _flights,
    "date": _date,
    "crew_position": _crew_position,
    "window": _window,
    "duration": _duration,
}


def checked_facts(facts: Mapping[str, object]) -> dict[str, str]:
    """Each KEY=VALUE checked and written one way (`code=041` → `41`); the first bad one is refused in one line."""
    out: dict[str, str] = {}
    for key, raw in facts.items():
        name = str(key).strip().lower()
        if name not in _CHECKS:
            raise CorrectionRefused(
                f"{_said(str(key))}: not a fact that can be corrected ({', '.join(CORRECTION_KEYS)})"
            )
        value = str(raw).strip() if raw is not None and not isinstance(raw, bool) else ""
        if not value:
            raise CorrectionRefused(f"{name}: give a value, e.g. {name}=...")
        out[name] = _CHECKS[name](value)
    if "code" in out and "family" in out and family_of(int(out["code"])) != out["family"]:
        raise CorrectionRefused(
            f"code={out['code']} is in the {family_of(int(out['code']))} family, not {out['family']}"
        )
    return out


def parse_fact(text: str) -> tuple[str, str]:
    """`KEY=VALUE` (the CLI's --fact) → (key, value) checked."""
    key, sep, value = text.partition("=")
    if not sep:
        raise CorrectionRefused(f"{_said(text)!r}: use KEY=VALUE, e.g. code=36 ({', '.join(CORRECTION_KEYS)})")
    [(name, checked)] = checked_facts({key: value}).items()
    return name, checked


def family_codes(family: str) -> tuple[int, int]:
    """The first and last code of an AHM 730 family."""
    return next((lo, hi) for lo, hi, f in FAMILY_RANGES if f == family)


def uncertainties(disruption: Disruption, corrected: Collection[str] = ()) -> list[Uncertainty]:
    """What the reading is unsure of, leaving out what the duty manager has already corrected (`corrected`: keys)."""
    found: list[Uncertainty] = []
    facts = {f.name: f for f in disruption.facts}
    code = disruption.iata_delay_code
    cause_known = not {"code", "family"} & set(corrected)
    confidence = facts.get("reading_confidence")
    if cause_known and "delay_reason" in facts and facts["delay_reason"].source == "data":
        found.append(
            Uncertainty(
                code="CAUSE_FROM_DATA",
                key="code",
                message=f"the report names no cause: code {code} is the flight's own delay reason "
                f"({facts['delay_reason'].evidence}); correct it if the report means another",
            )
        )
    elif cause_known and code == 99:
        found.append(
            Uncertainty(code="CAUSE_NOT_STATED", key="code", message="the report states a delay but not why (code 99)")
        )
    elif cause_known and confidence is not None:
        value = confidence.value
        if isinstance(value, int | float) and value < UNSURE_BELOW:
            found.append(
                Uncertainty(
                    code="LOW_CONFIDENCE",
                    key="code",
                    message=f"the cause is a guess: code {code} ({DELAY_CODES[code]}) read with confidence "
                    f"{value:.2f}" + (f" ({confidence.evidence})" if confidence.evidence else ""),
                )
            )
    crew_named = disruption.scope.crew_position is not None or "crew_position" in corrected
    if code in CREW_CAUSES and not crew_named and "crew_duty_limit" not in facts:
        found.append(
            Uncertainty(
                code="NO_CREW_POSITION",
                key="crew_position",
                message=f"a crew cause (code {code}) with no position named: nobody is taken off the flight",
            )
        )
    return found
