"""AirportReference rows: profiles (tz, coordinates, runways, curfews, minima) and NOTAM closures."""

from __future__ import annotations

from datetime import datetime, timedelta

from ...models.airports import airport
from ...models.operational import AirportProfile, Notam, Runway
from ...rules.curfew import DEFAULT_CURFEWS
from .network import HUB, HUB_MIN_CONNECTION_MINUTES, RUNWAYS


def build_profiles(codes: list[str]) -> list[AirportProfile]:
    profiles = []
    for code in codes:
        info = airport(code)
        profiles.append(
            AirportProfile(
                iata=code,
                icao=info.icao,
                name=info.name,
                city=info.city,
                country=info.country,
                tz=info.tz,
                lat=info.lat,
                lon=info.lon,
                elevation_ft=info.elevation_ft,
                runways=[
                    Runway(designator=d, heading_deg=h, length_m=length) for d, h, length in RUNWAYS.get(code, ())
                ],
                curfews=list(DEFAULT_CURFEWS.get(code, ())),
                min_connection_minutes=HUB_MIN_CONNECTION_MINUTES if code == HUB else None,
            )
        )
    return profiles


def build_notams(window_start: datetime, days: int) -> list[Notam]:
    """A few realistic closures: a long runway closure at JFK and night runway maintenance at LHR."""
    notams = [
        _notam(
            "JFK",
            "A0412/27",
            "RUNWAY_CLOSED",
            window_start - timedelta(days=10),
            window_start + timedelta(days=days + 20),
            "13R/31L",
            "RWY 13R/31L CLSD FOR RESURFACING",
        )
    ]
    for offset in range(days):
        start = window_start + timedelta(days=offset, hours=23)
        notams.append(
            _notam(
                "LHR",
                f"A{1100 + offset}/27",
                "RUNWAY_CLOSED",
                start,
                start + timedelta(hours=6),
                "09R/27L",
                "RWY 09R/27L CLSD NIGHTLY FOR MAINT",
            )
        )
    return notams


def _notam(iata: str, notam_id: str, kind: str, start: datetime, end: datetime, runway: str | None, text: str) -> Notam:
    return Notam(
        iata=iata,
        record=f"NOTAM#{start:%Y-%m-%dT%H:%M:%SZ}#{notam_id}",
        notam_id=notam_id,
        kind=kind,
        starts_at=start,
        ends_at=end,
        runway=runway,
        text=text,
    )
