"""Weather against aircraft and aerodrome limits.

- ``wind_components``   headwind and crosswind from wind direction/speed and a runway heading (trigonometry).
- ``best_runway_end``   of the runways long enough for the type, the end with the least crosswind, then the
                        most headwind. Gusts are used when reported (the conservative value).
- ``crosswind_finding`` against ``AIRCRAFT_TYPES[code].max_crosswind_kt``: the manufacturer's demonstrated
                        crosswind, used as the operator's limit (AFM crosswind limitation / OM-B; the demonstrated
                        value is not always an AFM limitation — verify per operator).
- ``minima_finding``    visibility and ceiling against the aerodrome operating minima of the AirportProfile
                        (OM-A 8.1.3 aerodrome operating minima; CAT.OP.MPA.110 and the approach ban of
                        CAT.OP.MPA.305 for arrivals).
- ``phenomena_finding`` thunderstorms, squalls, freezing precipitation, hail, snow: at_risk only (operator
                        policy, not a regulatory limit).
Runway headings are compared with the wind direction as given (METAR wind is true, runway headings often
magnetic): the magnetic variation is ignored (verify where it is large).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..models.findings import Finding
from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import AirportProfile, Runway, WeatherObservation

Movement = Literal["arrival", "departure"]
SIGNIFICANT_PHENOMENA: tuple[str, ...] = ("TS", "SQ", "FC", "FZRA", "FZDZ", "GR", "SN")


class WeatherConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    crosswind_at_risk_margin_kt: float = 5.0
    minima_at_risk_factor: float = 1.5  # legal but below 1.5 × minima → at_risk
    significant_phenomena: tuple[str, ...] = SIGNIFICANT_PHENOMENA


DEFAULT_WEATHER = WeatherConfig()


class RunwayEnd(BaseModel):
    model_config = ConfigDict(frozen=True)

    runway: str  # designator of the runway, e.g. "13/31"
    end: str  # the end in use, e.g. "31"
    heading_deg: int
    length_m: int
    headwind_kt: float  # negative: tailwind
    crosswind_kt: float  # absolute value


class WeatherAssessment(BaseModel):
    model_config = ConfigDict(frozen=True)

    airport: str
    runway_end: RunwayEnd | None
    findings: tuple[Finding, ...]


def wind_components(wind_direction_deg: float, wind_speed_kt: float, runway_heading_deg: float) -> tuple[float, float]:
    """(headwind, crosswind) in knots; headwind negative for a tailwind, crosswind always ≥ 0."""
    angle = math.radians(wind_direction_deg - runway_heading_deg)
    return wind_speed_kt * math.cos(angle), abs(wind_speed_kt * math.sin(angle))


def effective_wind_kt(obs: WeatherObservation) -> int:
    """The wind speed limits are checked with: the gust when reported."""
    return max(obs.wind_speed_kt, obs.gust_kt or 0)


def _ends(runway: Runway) -> list[tuple[str, int]]:
    names = runway.designator.split("/")
    low = runway.heading_deg % 360
    high = (low + 180) % 360
    return [(names[0], low), (names[-1] if len(names) > 1 else names[0], high)]


def best_runway_end(
    runways: Sequence[Runway], wind_direction_deg: float, wind_speed_kt: float, min_length_m: int = 0
) -> RunwayEnd | None:
    """The end with the least crosswind, then the most headwind, among runways ≥ ``min_length_m`` (all runways
    when none is long enough). None when there are no runways."""
    usable = [r for r in runways if r.length_m >= min_length_m] or list(runways)
    best: RunwayEnd | None = None
    for runway in usable:
        for name, heading in _ends(runway):
            head, cross = wind_components(wind_direction_deg, wind_speed_kt, heading)
            end = RunwayEnd(
                runway=runway.designator,
                end=name,
                heading_deg=heading,
                length_m=runway.length_m,
                headwind_kt=round(head, 1),
                crosswind_kt=round(cross, 1),
            )
            if best is None or (end.crosswind_kt, -end.headwind_kt) < (best.crosswind_kt, -best.headwind_kt):
                best = end
    return best


def crosswind_finding(
    airport: str, end: RunwayEnd | None, aircraft_type: str, config: WeatherConfig = DEFAULT_WEATHER
) -> Finding:
    """Crosswind on the best runway end against the type's maximum demonstrated crosswind."""
    clause = "AFM crosswind limitation (manufacturer's demonstrated crosswind, operator limit)"
    known = AIRCRAFT_TYPES.get(aircraft_type)
    if known is None:
        return Finding(
            rule="wx.crosswind",
            clause=clause,
            status="illegal",
            binding=True,
            subject=airport,
            message=f"Aircraft type {aircraft_type!r} has no crosswind limit on record.",
        )
    if end is None:
        return Finding(
            rule="wx.crosswind",
            clause=clause,
            status="at_risk",
            subject=airport,
            message=f"No runway data for {airport}: crosswind cannot be computed.",
        )
    limit = known.max_crosswind_kt
    margin = limit - end.crosswind_kt
    status = "illegal" if margin < 0 else "at_risk" if margin < config.crosswind_at_risk_margin_kt else "legal"
    return Finding(
        rule="wx.crosswind",
        clause=clause,
        status=status,
        binding=status == "illegal",
        subject=airport,
        limit=limit,
        actual=end.crosswind_kt,
        unit="kt",
        message=(
            f"Crosswind {end.crosswind_kt:.0f} kt on runway {end.end} is "
            f"{'within' if margin >= 0 else 'above'} the {aircraft_type} limit of {limit} kt."
        ),
        details=end.model_dump() | {"margin_kt": round(margin, 1)},
    )


def minima_finding(
    obs: WeatherObservation,
    profile: AirportProfile,
    movement: Movement = "arrival",
    config: WeatherConfig = DEFAULT_WEATHER,
) -> Finding:
    """Visibility (m) and ceiling (ft; None = no ceiling) against the aerodrome's operating minima."""
    clause = "OM-A 8.1.3 aerodrome operating minima (CAT.OP.MPA.110" + (
        ", CAT.OP.MPA.305)" if movement == "arrival" else ")"
    )
    vis_ratio = obs.visibility_m / profile.minima_visibility_m
    ceiling_ratio = (
        math.inf
        if obs.ceiling_ft is None or profile.minima_ceiling_ft == 0
        else (obs.ceiling_ft / profile.minima_ceiling_ft)
    )
    below = [what for what, ratio in (("visibility", vis_ratio), ("ceiling", ceiling_ratio)) if ratio < 1]
    near = [
        what
        for what, ratio in (("visibility", vis_ratio), ("ceiling", ceiling_ratio))
        if 1 <= ratio < config.minima_at_risk_factor
    ]
    status = "illegal" if below else "at_risk" if near else "legal"
    ceiling = "no ceiling" if obs.ceiling_ft is None else f"ceiling {obs.ceiling_ft} ft"
    return Finding(
        rule="wx.minima",
        clause=clause,
        status=status,
        binding=status == "illegal",
        subject=profile.iata,
        limit=profile.minima_visibility_m,
        actual=obs.visibility_m,
        unit="m",
        message=(
            f"Visibility {obs.visibility_m} m, {ceiling} at {profile.iata} "
            + (
                f"is below minima ({', '.join(below)})."
                if below
                else f"is close to minima ({', '.join(near)})."
                if near
                else "is above minima."
            )
            + f" Minima {profile.minima_visibility_m} m / {profile.minima_ceiling_ft} ft."
        ),
        details={
            "visibility_m": obs.visibility_m,
            "ceiling_ft": obs.ceiling_ft,
            "minima_visibility_m": profile.minima_visibility_m,
            "minima_ceiling_ft": profile.minima_ceiling_ft,
            "movement": movement,
        },
    )


def phenomena_finding(obs: WeatherObservation, config: WeatherConfig = DEFAULT_WEATHER) -> Finding | None:
    """Significant weather reported (at_risk, operator policy), or None."""
    present = [p for p in obs.phenomena if any(code in p for code in config.significant_phenomena)]
    if not present:
        return None
    return Finding(
        rule="wx.phenomena",
        clause="Operator policy: significant weather (not a regulatory limit)",
        status="at_risk",
        subject=obs.airport,
        message=f"Significant weather reported at {obs.airport}: {' '.join(present)}.",
        details={"phenomena": present},
    )


def assess_weather(
    obs: WeatherObservation,
    profile: AirportProfile,
    aircraft_type: str,
    movement: Movement = "arrival",
    config: WeatherConfig = DEFAULT_WEATHER,
) -> WeatherAssessment:
    """All weather findings for one movement of ``aircraft_type`` at ``profile``'s airport."""
    known = AIRCRAFT_TYPES.get(aircraft_type)
    end = best_runway_end(
        profile.runways, obs.wind_direction_deg, effective_wind_kt(obs), known.min_runway_m if known else 0
    )
    findings = [
        crosswind_finding(profile.iata, end, aircraft_type, config),
        minima_finding(obs, profile, movement, config),
    ]
    if known is not None and end is not None and end.length_m < known.min_runway_m:
        findings.append(
            Finding(
                rule="wx.runway_length",
                clause="Typical field length for the type (performance check needed)",
                status="at_risk",
                subject=profile.iata,
                limit=known.min_runway_m,
                actual=end.length_m,
                unit="m",
                message=f"Runway {end.runway} ({end.length_m} m) is shorter than the {known.min_runway_m} m the "
                f"{aircraft_type} typically needs.",
            )
        )
    extra = phenomena_finding(obs, config)
    if extra is not None:
        findings.append(extra)
    return WeatherAssessment(airport=profile.iata, runway_end=end, findings=tuple(findings))
