"""The first cause code the offline reader gives a report (the cause-family tests' one question)."""

from __future__ import annotations

from skymarshal.intake.cause import read_cause
from skymarshal.intake.normalise import normalise


def first_code(text: str) -> int | None:
    found = read_cause(normalise(text)).first
    return found.code if found else None
