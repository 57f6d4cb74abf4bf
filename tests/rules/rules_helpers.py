"""Builders shared by the rules tests (imported as a plain module; the name is unique across tests/)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from skymarshal.models.operational import CrewDuty, CrewMember, LandingRecord

UTC = UTC


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def member(
    crew_id: str = "C1",
    rank: str = "CPT",
    base: str = "AUH",
    ratings=("A320",),
    landings_at=(),
    landing_type: str = "A320",
    **kw,
) -> CrewMember:
    return CrewMember(
        crew_id=crew_id,
        name="Test Pilot",
        rank=rank,
        base=base,
        type_ratings=list(ratings),
        recent_landings=[LandingRecord(aircraft_type=landing_type, at=t) for t in landings_at],
        **kw,
    )


def recent(at: datetime, n: int = 3, days_ago: int = 10) -> list[datetime]:
    return [at - timedelta(days=days_ago, hours=i) for i in range(n)]


def duty_row(
    crew_id: str,
    duty_id: str,
    start: datetime,
    minutes: int,
    *,
    kind: str = "FLIGHT",
    block: int = 0,
    start_station: str = "AUH",
    end_station: str = "AUH",
    sectors: int = 1,
    fdp_minutes: int | None = None,
) -> CrewDuty:
    end = start + timedelta(minutes=minutes)
    fdp_end = None
    if kind in ("FLIGHT", "HISTORY"):
        fdp_end = start + timedelta(minutes=fdp_minutes if fdp_minutes is not None else max(minutes - 30, 1))
    return CrewDuty(
        crew_id=crew_id,
        duty_key=f"{start.isoformat()}#{kind}#{duty_id}",
        duty_id=duty_id,
        kind=kind,
        duty_start=start,
        duty_end=end,
        fdp_end=fdp_end,
        start_station=start_station,
        end_station=end_station,
        sectors=sectors,
        block_minutes=block,
    )
