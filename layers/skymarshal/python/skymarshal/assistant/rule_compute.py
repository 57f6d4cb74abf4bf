"""Rules questions the rules engine answers by computing, not by searching text: the maximum daily FDP for a
reference start time and a number of sectors (EASA ORO.FTL.205(b), FAA 117.13), the clause cited. The same
functions `skymarshal rules max-fdp` runs; the corpus of rule texts is for everything else."""

from __future__ import annotations

import re
from datetime import time
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..rules import ftl_easa, ftl_faa
from .aviation_plan import AviationPlan

FDP = re.compile(
    r"\b(max(imum)?\.?\s+(daily\s+)?fdp|fdp\s+limit|max(imum)?\s+(daily\s+)?flight\s+duty(\s+period)?)\b", re.I
)
START = re.compile(r"\b(?:start\w*|report\w*|at|from)\s+(?:at\s+)?([01]?\d|2[0-3])[:h.]?([0-5]\d)\b", re.I)
SECTORS = re.compile(r"\b(\d{1,2})\s+(?:sectors?|segments?|legs?|landings?)\b", re.I)
PILOTS = re.compile(r"\b(\d)[- ]?(?:pilots?|man|person)\b", re.I)
FAA = re.compile(r"\b(faa|part\s*117|14\s*cfr|united states|usa?)\b", re.I)


class MaxFdpArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    start: str = Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$", description="reference start, local HH:MM")
    sectors: int = Field(ge=1, le=12)
    regime: Literal["EASA", "FAA"] = "EASA"
    acclimatised: bool = True


def fdp_plan(text: str) -> AviationPlan | None:
    """A maximum-FDP question that names a start time and the sectors; None for any other question (or one that
    leaves out what the computation needs: the corpus answers it in words)."""
    start, sectors = START.search(text), SECTORS.search(text)
    if not FDP.search(text) or start is None or sectors is None:
        return None
    pilots = PILOTS.search(text)
    if pilots and int(pilots.group(1)) > 2:  # augmented: the rest facility decides, not asked here
        return None
    return AviationPlan(
        selected_tool="compute_max_fdp",
        arguments={
            "start": f"{int(start.group(1)):02d}:{start.group(2)}",
            "sectors": int(sectors.group(1)),
            "regime": "FAA" if FAA.search(text) else "EASA",
            "acclimatised": not re.search(r"\bnot acclimati[sz]ed|unknown acclimati", text, re.I),
        },
        reasoning="A maximum FDP for a start time and sectors: computed by the rules engine.",
    )


def compute_max_fdp(args: MaxFdpArgs, ctx: Any) -> dict:
    hour, minute = (int(x) for x in args.start.split(":"))
    start = time(hour, minute)
    if args.regime == "FAA":
        faa = ftl_faa.max_fdp_minutes(start, args.sectors, acclimated=args.acclimatised)
        minutes, clause, notes = faa.minutes, faa.clause, list(faa.notes)
    else:
        state: ftl_easa.Acclimatisation = "acclimatised" if args.acclimatised else "unknown"
        easa = ftl_easa.max_fdp_minutes(start, args.sectors, acclimatisation=state)
        minutes, clause, notes = easa.minutes, easa.clause, list(easa.notes)
    return {
        "regime": args.regime,
        "start": args.start,
        "sectors": args.sectors,
        "acclimatised": args.acclimatised,
        "max_fdp_minutes": minutes,
        "clause": clause,
        "notes": notes,
        "question": f"max FDP, {args.regime}, start {args.start}, {args.sectors} sector(s)",
    }


def fdp_answer(r: dict) -> str:
    """The answer's text: the figure, the clause, what it was computed for."""
    hours, minutes = divmod(r["max_fdp_minutes"], 60)
    crew = "an acclimatised" if r["acclimatised"] else "a not-acclimatised"
    lines = [
        f"**Maximum daily FDP: {hours}:{minutes:02d} ({r['max_fdp_minutes']} min)** — {r['regime']} {r['clause']}, "
        f"for {crew} two-pilot crew starting at {r['start']} local with {r['sectors']} sector(s).",
        "",
        "_Computed by the rules engine (`skymarshal rules max-fdp`), not looked up in text._",
    ]
    lines += [f"- {n}" for n in r["notes"]]
    return "\n".join(lines)
