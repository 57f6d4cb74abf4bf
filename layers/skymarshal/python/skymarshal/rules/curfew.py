"""Airport curfews and night restrictions: is a movement at a UTC instant inside a local-time window?

- ``DEFAULT_CURFEWS``  windows per airport as data (local "HH:MM", airport's IANA zone), from REFERENCE.md —
                       verify per airport before operational use. The generator may copy them into profiles.
- ``window_instants``  the UTC start/end of each occurrence of a window around an instant (DST-correct).
- ``check_movement``   one finding: inside a ``curfew`` → illegal and binding; inside a ``night_quota``
                       period → at_risk (the movement is allowed but uses the airport's night quota, it is
                       not forbidden); outside → legal, at_risk when the next window starts within the
                       threshold. ``margin_minutes`` is the minutes to the next window start (outside) or
                       minus the minutes until the window ends (inside: how long to wait).
Windows are [start, end): a movement at the start minute is inside, at the end minute outside.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, time, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo

from ..models.airports import airport
from ..models.findings import DEFAULT_AT_RISK_MINUTES, Finding, status_for_margin
from ..models.operational import AirportProfile, CurfewWindow
from ._clock import as_utc, hm

Movement = Literal["arrival", "departure"]

DEFAULT_CURFEWS: dict[str, tuple[CurfewWindow, ...]] = {
    "SYD": (CurfewWindow(start_local="23:00", end_local="06:00", source="Sydney Airport Curfew Act 1995 (verify)"),),
    "ADL": (CurfewWindow(start_local="23:00", end_local="06:00", source="Adelaide Airport Curfew Act 2000 (verify)"),),
    "OOL": (CurfewWindow(start_local="23:00", end_local="06:00", source="Gold Coast Airport curfew (verify)"),),
    "FRA": (
        CurfewWindow(
            start_local="23:00", end_local="05:00", source="Frankfurt night flight ban, planning approval (verify)"
        ),
    ),
    "LHR": (
        CurfewWindow(
            start_local="23:30",
            end_local="06:00",
            kind="night_quota",
            source="Heathrow night quota period, UK DfT night flying restrictions (verify)",
        ),
    ),
    "CGN": (
        CurfewWindow(
            start_local="00:00",
            end_local="05:00",
            source="Cologne Bonn night restriction for passenger flights (verify)",
        ),
    ),
}


def _applies(window: CurfewWindow, movement: Movement) -> bool:
    return window.applies_to == "both" or window.applies_to == movement + "s"


def window_instants(window: CurfewWindow, tz: str, around: datetime) -> list[tuple[datetime, datetime]]:
    """UTC (start, end) of the window's occurrences starting on the local days around ``around``.

    Built from local wall-clock times on each local date, so DST shifts move the UTC edges correctly; a
    window whose end is not after its start crosses midnight and ends the next local day.
    """
    zone = ZoneInfo(tz)
    local_day = as_utc(around).astimezone(zone).date()
    start_t, end_t = _clock(window.start_local), _clock(window.end_local)
    crosses = hm(window.end_local) <= hm(window.start_local)
    spans = []
    for offset in (-1, 0, 1, 2):
        day: date = local_day + timedelta(days=offset)
        start = datetime.combine(day, start_t, tzinfo=zone)
        end = datetime.combine(day + timedelta(days=1) if crosses else day, end_t, tzinfo=zone)
        spans.append((as_utc(start), as_utc(end)))
    return spans


def _clock(text: str) -> time:
    minutes = hm(text)
    return time(minutes // 60 % 24, minutes % 60)


def check_movement(
    iata: str,
    at: datetime,
    movement: Movement,
    *,
    windows: Sequence[CurfewWindow] | None = None,
    tz: str | None = None,
    at_risk_minutes: int = DEFAULT_AT_RISK_MINUTES,
) -> Finding:
    """The worst finding over the airport's windows for one movement (``windows`` default: DEFAULT_CURFEWS)."""
    at = as_utc(at)
    zone = tz or airport(iata).tz
    applicable = [w for w in (DEFAULT_CURFEWS.get(iata, ()) if windows is None else windows) if _applies(w, movement)]
    if not applicable:
        return Finding(
            rule="airport.curfew",
            clause="no curfew on record",
            status="legal",
            subject=iata,
            message=f"No curfew or night restriction on record at {iata} for {movement}s.",
        )
    results = [_one_window(iata, at, movement, w, zone, at_risk_minutes) for w in applicable]
    order = {"illegal": 2, "at_risk": 1, "legal": 0}
    return max(results, key=lambda f: (order[f.status], -(f.margin_minutes or 0)))


def _one_window(
    iata: str, at: datetime, movement: Movement, window: CurfewWindow, tz: str, at_risk_minutes: int
) -> Finding:
    spans = window_instants(window, tz, at)
    local = at.astimezone(ZoneInfo(tz))
    label = f"{window.start_local}-{window.end_local} local"
    inside = next(((s, e) for s, e in spans if s <= at < e), None)
    details: dict[str, Any] = {
        "window": label,
        "kind": window.kind,
        "tz": tz,
        "local_time": f"{local:%H:%M}",
        "movement": movement,
    }
    if inside is not None:
        start, end = inside
        wait = int((end - at).total_seconds() // 60)
        since = int((at - start).total_seconds() // 60)
        details |= {
            "window_start_utc": start.isoformat(),
            "window_end_utc": end.isoformat(),
            "minutes_until_window_end": wait,
            "minutes_since_window_start": since,
        }
        if window.kind == "night_quota":
            return Finding(
                rule="airport.night_quota",
                clause=window.source,
                status="at_risk",
                subject=iata,
                margin_minutes=-wait,
                message=(
                    f"{movement.capitalize()} at {local:%H:%M} local falls in the {label} night quota "
                    f"period at {iata}: allowed, but it uses night quota ({wait} min to the end)."
                ),
                details=details,
            )
        return Finding(
            rule="airport.curfew",
            clause=window.source,
            status="illegal",
            binding=True,
            subject=iata,
            margin_minutes=-wait,
            message=(
                f"{movement.capitalize()} at {local:%H:%M} local is inside the {label} curfew at "
                f"{iata}; the earliest movement is in {wait} min."
            ),
            details=details,
        )
    start, end = min(((s, e) for s, e in spans if s > at), key=lambda se: se[0])
    margin = int((start - at).total_seconds() // 60)
    status = status_for_margin(margin, at_risk_minutes)
    details |= {"next_window_start_utc": start.isoformat(), "next_window_end_utc": end.isoformat()}
    rule = "airport.night_quota" if window.kind == "night_quota" else "airport.curfew"
    return Finding(
        rule=rule,
        clause=window.source,
        status=status,
        subject=iata,
        margin_minutes=margin,
        message=(
            f"{movement.capitalize()} at {local:%H:%M} local is outside the {label} "
            f"{'night quota period' if window.kind == 'night_quota' else 'curfew'} at {iata}; "
            f"it starts in {margin} min."
        ),
        details=details,
    )


def check_movement_at(
    profile: AirportProfile, at: datetime, movement: Movement, at_risk_minutes: int = DEFAULT_AT_RISK_MINUTES
) -> Finding:
    """``check_movement`` with the windows and zone of an AirportProfile row (falls back to DEFAULT_CURFEWS
    when the profile lists none)."""
    windows = profile.curfews or DEFAULT_CURFEWS.get(profile.iata, ())
    return check_movement(profile.iata, at, movement, windows=windows, tz=profile.tz, at_risk_minutes=at_risk_minutes)
