"""Reserves on standby: which standby rows can answer a call-out at a station, and which reserves may legally take
a duty — the selection the crew agent, the arbitrator and the day's baselines share (ORO.FTL.225 standby, the
FDP, rest and qualification rules of ``rules.crew``). Pure: the caller says how a day's standby rows and a
reserve's roster are read (a Query through the data handle, or the generated airline in memory).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from ..models.airports import airport
from ..models.operational import CrewDuty, CrewMember
from .crew import OperatorRules, ProposedDuty, evaluate_swap_candidate, is_legal

CALL_OUT = timedelta(minutes=60)  # standby call to report (company policy, verify)
REPORT_BEFORE_DEPARTURE = timedelta(minutes=75)
POSITIONING_CONNECTION = timedelta(minutes=45)  # company policy: on blocks of a positioning leg to the report

StandbyReader = Callable[[str, date], list[CrewDuty]]  # (station, local day) -> the standby rows filed under it
RosterReader = Callable[[str], Sequence[CrewDuty]]  # crew id -> that member's roster rows


def standby_covering(station: str, report: datetime, read: StandbyReader) -> list[CrewDuty]:
    """The standby rows at `station` running at `report` (ORO.FTL.225: a reserve is called out from a standby that
    covers the report). A night standby is filed under the local day it began, so the day before is read too: a
    reserve for a report at 01:00 local stands by from the evening before. `read` gives a day's rows (a caller's
    memo: one plan's many scenarios and members ask for the same days)."""
    local = report.astimezone(ZoneInfo(airport(station).tz)).date()
    return [
        r
        for day in (local - timedelta(days=1), local)
        for r in read(station, day)
        if r.duty_start <= report <= r.duty_end
    ]


def call_out_report(decided_at: datetime, departure: datetime) -> datetime:
    """When a reserve called at `decided_at` reports for a flight leaving at `departure`: the company's report
    before departure, never sooner than the call-out allows (ORO.FTL.225 standby, company call-out policy)."""
    return max(decided_at + CALL_OUT, departure - REPORT_BEFORE_DEPARTURE)


def legal_reserves(
    needed: Iterable[tuple[str, str]],
    candidates: Sequence[CrewMember],
    roster: RosterReader,
    template: ProposedDuty,
    report: datetime,
    rules: OperatorRules = OperatorRules(),
) -> tuple[dict[str, str], list[str]]:
    """Reserves for `needed` ((crew id replaced, rank) pairs), matched rank for rank from `candidates` in their
    order: ({replaced id: reserve id}, the replaced ids no legal reserve could take). A candidate must hold the
    type rating and pass ``evaluate_swap_candidate`` (standby covering the report, FDP from their own report,
    rest, cumulative limits, recency) for `template` reporting at `report`. A roster is read only while its rank
    is still open (one read per reserve checked, not per reserve on standby)."""
    needed = list(needed)
    wanted = Counter(rank for _, rank in needed)
    legal: dict[str, list[str]] = {}
    for reserve in candidates:
        if len(legal.get(reserve.rank, [])) >= wanted[reserve.rank]:
            continue
        if is_legal(evaluate_swap_candidate(reserve, roster(reserve.crew_id), template, report, rules)):
            legal.setdefault(reserve.rank, []).append(reserve.crew_id)
    chosen: dict[str, str] = {}
    missing: list[str] = []
    for crew_id, rank in needed:
        if legal.get(rank):
            chosen[crew_id] = legal[rank].pop(0)
        else:
            missing.append(crew_id)
    return chosen, missing
