"""Airport regulatory constraints: NOTAM closures, slot tolerance, diversion alternates.

- ``notam_findings``       NOTAMs active over a time window at one airport (ICAO Annex 15 / PANS-AIM, Doc 10066):
                           AIRPORT_CLOSED → illegal, binding; RUNWAY_CLOSED → at_risk, or illegal and binding when it
                           closes the only runway (every runway of the profile); NAVAID_UNSERVICEABLE → at_risk;
                           OTHER → legal, for information.
- ``slot_finding``         a movement more than the profile's ``slot_tolerance_minutes`` off its slot needs a new slot
                           (IATA Worldwide Airport Slot Guidelines (WASG): operating off-slot is a misuse; the
                           coordinator's on-the-day tolerance) → at_risk. Every profile is treated as a coordinated
                           (Level 3) airport (verify per airport and season).
- ``diversion_alternates`` candidate alternates for a destination, ranked: within the remaining range or the
                           configured maximum diversion distance, an open runway ≥ the type's ``min_runway_m``, weather
                           at the ETA acceptable (``rules.weather.assess_weather``), not in curfew at the ETA
                           (``rules.curfew.check_movement_at``), no AIRPORT_CLOSED NOTAM at the ETA. Every refused
                           candidate carries a typed reason.
ETA at an alternate = ETA at the destination + ``missed_approach_minutes`` + distance at ``diversion_speed_factor`` ×
the type's cruise speed. Company policy (``RegulatoryConfig``, verify): an alternate whose weather at the ETA has any
at_risk finding (near a limit, significant weather such as squalls) is refused — an alternate is chosen for certainty
(the planning-minima idea of CAT.OP.MPA.182 / AMC1, where alternates need margins above operating minima).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Literal

from pydantic import BaseModel, ConfigDict, PositiveFloat, PositiveInt

from ..models.airports import haversine_km
from ..models.common import UtcDatetime
from ..models.findings import DEFAULT_AT_RISK_MINUTES, Finding
from ..models.fleet import AIRCRAFT_TYPES, AircraftType
from ..models.operational import AirportProfile, Notam, WeatherObservation
from ._clock import as_utc
from ._reasons import Reason
from .curfew import Movement, check_movement_at
from .weather import assess_weather

NOTAM_CLAUSE = "NOTAM {notam_id} (ICAO Annex 15, PANS-AIM Doc 10066)"
WASG_CLAUSE = "IATA Worldwide Airport Slot Guidelines (WASG), slot tolerance at a coordinated airport"
ALTERNATE_CLAUSE = "Destination/en-route alternate selection (CAT.OP.MPA.181/182; company policy, verify)"

AlternateRefusalCode = Literal[
    "IS_DESTINATION",
    "UNKNOWN_TYPE",
    "OUT_OF_RANGE",
    "NO_RUNWAY_DATA",
    "RUNWAY_TOO_SHORT",
    "AIRPORT_CLOSED",
    "NO_WEATHER",
    "WEATHER",
    "CURFEW",
]


class RegulatoryConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    max_diversion_km: PositiveFloat = 500.0  # default destination/en-route alternate radius (verify)
    missed_approach_minutes: PositiveInt = 10  # go-around and climb before heading to the alternate (verify)
    diversion_speed_factor: PositiveFloat = 0.75  # diversion flown lower and slower than cruise (verify)
    weather_max_gap_minutes: PositiveInt = 90  # observation/forecast used only this close to the ETA
    accept_at_risk_weather: bool = False  # company policy: alternates need weather clear of every limit
    at_risk_minutes: int = DEFAULT_AT_RISK_MINUTES


DEFAULT_REGULATORY = RegulatoryConfig()


class AlternateRefusal(Reason):
    code: AlternateRefusalCode
    iata: str


class Alternate(BaseModel):
    model_config = ConfigDict(frozen=True)

    iata: str
    distance_km: float
    eta: UtcDatetime
    longest_open_runway_m: int
    findings: tuple[Finding, ...]  # weather, curfew and NOTAM findings at the ETA (none illegal)

    @property
    def at_risk(self) -> int:
        return sum(f.status == "at_risk" for f in self.findings)


class AlternatesResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    destination: str
    aircraft_type: str
    max_distance_km: float
    ranked: tuple[Alternate, ...]  # best first: fewest at_risk findings, then nearest
    refused: tuple[AlternateRefusal, ...]


def _active(notam: Notam, start: datetime, end: datetime) -> bool:
    """Active in [start, end); with start == end, active at that instant (NOTAM windows are [starts_at, ends_at))."""
    if start == end:
        return notam.starts_at <= start < notam.ends_at
    return notam.starts_at < end and notam.ends_at > start


def active_notams(notams: Sequence[Notam], iata: str, start: datetime, end: datetime | None = None) -> list[Notam]:
    start = as_utc(start)
    end = as_utc(end) if end is not None else start
    return sorted((n for n in notams if n.iata == iata and _active(n, start, end)), key=lambda n: n.starts_at)


def notam_findings(
    notams: Sequence[Notam], profile: AirportProfile, start: datetime, end: datetime | None = None
) -> list[Finding]:
    """One finding per NOTAM active at ``profile``'s airport over [start, end) (or at ``start``)."""
    active = active_notams(notams, profile.iata, start, end)
    runways = {r.designator for r in profile.runways}
    closed = {n.runway for n in active if n.kind == "RUNWAY_CLOSED" and n.runway}
    all_closed = bool(runways) and runways <= closed
    findings = []
    for n in active:
        window = f"{n.starts_at:%Y-%m-%d %H:%M}Z-{n.ends_at:%Y-%m-%d %H:%M}Z"
        details = {
            "notam_id": n.notam_id,
            "kind": n.kind,
            "runway": n.runway,
            "starts_at": n.starts_at.isoformat(),
            "ends_at": n.ends_at.isoformat(),
            "text": n.text,
        }
        clause = NOTAM_CLAUSE.format(notam_id=n.notam_id)
        if n.kind == "AIRPORT_CLOSED" or (n.kind == "RUNWAY_CLOSED" and all_closed):
            what = (
                "the airport is closed"
                if n.kind == "AIRPORT_CLOSED"
                else f"runway {n.runway} is closed and no other runway is open"
            )
            findings.append(
                Finding(
                    rule="airport.notam_closed",
                    clause=clause,
                    status="illegal",
                    binding=True,
                    subject=profile.iata,
                    message=f"{profile.iata}: {what} {window} ({n.text}).",
                    details=details,
                )
            )
        elif n.kind in ("RUNWAY_CLOSED", "NAVAID_UNSERVICEABLE"):
            what = f"runway {n.runway} closed" if n.kind == "RUNWAY_CLOSED" else "navaid unserviceable"
            findings.append(
                Finding(
                    rule="airport.notam",
                    clause=clause,
                    status="at_risk",
                    subject=profile.iata,
                    message=f"{profile.iata}: {what} {window} ({n.text}); capacity reduced.",
                    details=details,
                )
            )
        else:
            findings.append(
                Finding(
                    rule="airport.notam",
                    clause=clause,
                    status="legal",
                    subject=profile.iata,
                    message=f"{profile.iata}: {n.text} ({window}).",
                    details=details,
                )
            )
    return findings


def slot_finding(
    profile: AirportProfile, slot_time: datetime, new_time: datetime, movement: Movement, subject: str | None = None
) -> Finding:
    """More than ``slot_tolerance_minutes`` off the slot → at_risk: a new slot must be requested (WASG)."""
    deviation = round((as_utc(new_time) - as_utc(slot_time)).total_seconds() / 60)
    tolerance = profile.slot_tolerance_minutes
    inside = abs(deviation) <= tolerance
    return Finding(
        rule="airport.slot",
        clause=WASG_CLAUSE,
        status="legal" if inside else "at_risk",
        subject=subject or profile.iata,
        margin_minutes=tolerance - abs(deviation),
        limit=tolerance,
        actual=abs(deviation),
        unit="minutes",
        message=(
            f"{movement.capitalize()} at {profile.iata} moves {deviation:+d} min from its "
            f"{as_utc(slot_time):%H:%M}Z slot: "
            + ("within" if inside else "beyond")
            + f" the {tolerance} min tolerance"
            + ("." if inside else "; a new slot is needed.")
        ),
        details={
            "airport": profile.iata,
            "movement": movement,
            "slot": as_utc(slot_time).isoformat(),
            "new_time": as_utc(new_time).isoformat(),
            "deviation_minutes": deviation,
        },
    )


def flight_slot_findings(
    origin: AirportProfile,
    destination: AirportProfile,
    slot_departure: datetime,
    slot_arrival: datetime,
    new_departure: datetime,
    new_arrival: datetime,
    subject: str,
) -> list[Finding]:
    """Departure and arrival slots of one flight (e.g. scheduled times as the slots, estimates as the new times)."""
    return [
        slot_finding(origin, slot_departure, new_departure, "departure", subject),
        slot_finding(destination, slot_arrival, new_arrival, "arrival", subject),
    ]


def nearest_observation(
    weather: Sequence[WeatherObservation],
    iata: str,
    at: datetime,
    max_gap_minutes: int = DEFAULT_REGULATORY.weather_max_gap_minutes,
) -> WeatherObservation | None:
    """The observation/forecast of ``iata`` closest to ``at`` (the earlier one on a tie), within ``max_gap_minutes``."""
    at = as_utc(at)
    rows = [
        w for w in weather if w.airport == iata and abs((w.forecast_time - at).total_seconds()) <= max_gap_minutes * 60
    ]
    return min(rows, key=lambda w: (abs((w.forecast_time - at).total_seconds()), w.forecast_time), default=None)


def diversion_alternates(
    destination: AirportProfile,
    candidates: Sequence[AirportProfile],
    aircraft_type: str,
    eta: datetime,
    weather: Sequence[WeatherObservation],
    notams: Sequence[Notam] = (),
    *,
    max_distance_km: float | None = None,
    config: RegulatoryConfig = DEFAULT_REGULATORY,
) -> AlternatesResult:
    """Ranked alternates for ``destination`` (ETA ``eta``) and the reason each other candidate is refused.

    ``max_distance_km``: the remaining fuel range from the destination, when known; else the configured maximum.
    """
    eta = as_utc(eta)
    limit = float(max_distance_km if max_distance_km is not None else config.max_diversion_km)
    ranked: list[Alternate] = []
    refused: list[AlternateRefusal] = []
    known = AIRCRAFT_TYPES.get(aircraft_type)
    for profile in candidates:
        outcome = _assess_alternate(destination, profile, known, aircraft_type, eta, weather, notams, limit, config)
        if isinstance(outcome, AlternateRefusal):
            refused.append(outcome)
        else:
            ranked.append(outcome)
    ranked.sort(key=lambda a: (a.at_risk, a.distance_km, a.iata))
    return AlternatesResult(
        destination=destination.iata,
        aircraft_type=aircraft_type,
        max_distance_km=limit,
        ranked=tuple(ranked),
        refused=tuple(refused),
    )


def _assess_alternate(
    destination: AirportProfile,
    profile: AirportProfile,
    known: AircraftType | None,
    aircraft_type: str,
    eta: datetime,
    weather: Sequence[WeatherObservation],
    notams: Sequence[Notam],
    limit: float,
    config: RegulatoryConfig,
) -> Alternate | AlternateRefusal:
    code = profile.iata

    def refuse(reason: AlternateRefusalCode, message: str) -> AlternateRefusal:
        return AlternateRefusal(code=reason, iata=code, message=f"{code}: {message}")

    if code == destination.iata:
        return refuse("IS_DESTINATION", "is the destination itself.")
    if known is None:
        return refuse("UNKNOWN_TYPE", f"aircraft type {aircraft_type!r} is not on record.")
    distance = haversine_km(destination.lat, destination.lon, profile.lat, profile.lon)
    if distance > limit:
        return refuse("OUT_OF_RANGE", f"{distance:.0f} km from {destination.iata}, beyond {limit:.0f} km.")
    flying = config.missed_approach_minutes + distance / (known.cruise_kmh * config.diversion_speed_factor) * 60
    at = eta + timedelta(minutes=round(flying))
    if not profile.runways:
        return refuse("NO_RUNWAY_DATA", "no runway data in the airport profile.")
    notes = notam_findings(notams, profile, at)
    if any(f.rule == "airport.notam_closed" for f in notes):
        return refuse("AIRPORT_CLOSED", "; ".join(f.message for f in notes if f.status == "illegal"))
    closed = {n.runway for n in active_notams(notams, code, at) if n.kind == "RUNWAY_CLOSED"}
    open_runways = [r for r in profile.runways if r.designator not in closed]
    longest = max(r.length_m for r in open_runways)
    if longest < known.min_runway_m:
        return refuse(
            "RUNWAY_TOO_SHORT",
            f"longest open runway {longest} m is under the {known.min_runway_m} m a {aircraft_type} needs.",
        )
    obs = nearest_observation(weather, code, at, config.weather_max_gap_minutes)
    if obs is None:
        return refuse("NO_WEATHER", f"no weather within {config.weather_max_gap_minutes} min of the ETA {at:%H:%M}Z.")
    wx = assess_weather(obs, profile.model_copy(update={"runways": open_runways}), aircraft_type, "arrival")
    bad = [
        f for f in wx.findings if f.status == "illegal" or (f.status == "at_risk" and not config.accept_at_risk_weather)
    ]
    if bad:
        return refuse("WEATHER", f"weather at the ETA {at:%H:%M}Z: " + " ".join(f.message for f in bad))
    curfew = check_movement_at(profile, at, "arrival", config.at_risk_minutes)
    if curfew.status == "illegal":
        return refuse("CURFEW", curfew.message)
    findings = (*wx.findings, curfew, *notes)
    return Alternate(
        iata=code, distance_km=round(distance, 1), eta=at, longest_open_runway_m=longest, findings=tuple(findings)
    )
