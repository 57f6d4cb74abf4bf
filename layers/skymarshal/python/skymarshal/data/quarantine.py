"""Parked inbound records: a record an import or a feed could not take (an SSIM leg with an impossible time, a tail
file row for no flight) is kept with its reason instead of stopping the rest, and listed until someone acts on it.

Locally the quarantine is a folder of JSON Lines files, one per source kind (`ssim.jsonl`), appended to and never
rewritten: nothing parked is dropped silently. A feed's message (an MVT a run refused) is parked in the account's
Checkpoints table instead, with an alarm in AWS (workflow/quarantine.py); `skymarshal quarantine` lists both.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from ..models.common import UtcDatetime


class Parked(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str  # the kind of input: "ssim"
    file: str
    line: int
    record: str  # the record as it was read
    reason: str  # `field: problem`
    parked_at: UtcDatetime


def park(folder: Path, records: Iterable[Parked]) -> int:
    """Append each record to its source's file in `folder`; how many were parked."""
    folder.mkdir(parents=True, exist_ok=True)
    count = 0
    for record in records:
        with (folder / f"{record.source}.jsonl").open("a", encoding="utf-8") as out:
            out.write(record.model_dump_json() + "\n")
        count += 1
    return count


def parked(folder: Path) -> list[Parked]:
    """Every parked record in `folder`, oldest first."""
    found = [
        Parked.model_validate(json.loads(line))
        for path in sorted(folder.glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    return sorted(found, key=lambda p: (p.parked_at, p.file, p.line))


def now() -> datetime:
    return datetime.now(UTC)
