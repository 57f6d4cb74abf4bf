"""Regulatory: curfews at both ends (and the latest arrival they allow), NOTAMs, weather at the
destination around the arrival, and diversion alternates in range (Weather, AirportReference, flights)."""

from __future__ import annotations

from datetime import datetime, timedelta

from ..data import queries as q
from ..data import schema as s
from ..data.access import DataHandle
from ..models.agent_response import RecoveryProposal, RegulatoryConstraint, TimeWindow
from ..models.airports import airports_within
from ..models.operational import AirportProfile, Flight
from ..rules.curfew import Movement, check_movement_at
from ..rules.regulatory import DEFAULT_REGULATORY, diversion_alternates, nearest_observation, notam_findings
from ..rules.weather import assess_weather
from .base import Analysis, sources

WEATHER_LOOKAHEAD = timedelta(hours=12)


def _profiles(handle: DataHandle, codes: list[str]) -> dict[str, AirportProfile]:
    rows = handle.batch_get(s.AIRPORTS, [{"iata": c, "record": "PROFILE"} for c in codes])
    return {r["iata"]: AirportProfile.model_validate(r) for r in rows}


def analyse_regulatory(handle: DataHandle, flight: Flight, *, now: datetime | None = None) -> Analysis:
    profiles = _profiles(handle, [flight.origin, flight.destination])
    analysis = Analysis(agent="regulatory", recommendation="", inputs_expected=3, inputs_present=len(profiles))
    origin, destination = profiles.get(flight.origin), profiles.get(flight.destination)
    eta, etd = flight.arrival, flight.departure
    latest_arrival = None
    movement: Movement
    for profile, at, movement in ((origin, etd, "departure"), (destination, eta, "arrival")):
        if profile is None:
            analysis.facts.append(
                f"No airport reference for {flight.origin if movement == 'departure' else flight.destination}."
            )
            continue
        finding = check_movement_at(profile, at, movement)
        analysis.findings.append(finding)
        if profile.curfews:
            analysis.facts.append(f"{movement.capitalize()} at {profile.iata} {at:%H:%MZ}: {finding.message}")
        hard = any(w.kind == "curfew" for w in profile.curfews)  # a night quota is at risk, not a limit
        if hard and movement == "arrival" and finding.margin_minutes is not None and finding.margin_minutes >= 0:
            latest_arrival = at + timedelta(minutes=finding.margin_minutes)
            analysis.constraints.append(
                RegulatoryConstraint(
                    constraint_type="curfew",
                    affected_airports=[profile.iata],
                    time_windows=[TimeWindow(start=latest_arrival, end=latest_arrival + timedelta(hours=6))],
                    restrictions=[f"arrive at {profile.iata} before {latest_arrival:%H:%MZ}"],
                    reasoning=finding.message,
                )
            )
            analysis.limits.append(
                f"Arrival at {profile.iata} before {latest_arrival:%Y-%m-%d %H:%MZ} [{finding.clause}]"
            )
        for notam in notam_findings(
            q.notams(handle, profile.iata, at - timedelta(hours=1), at + timedelta(hours=1)),
            profile,
            at - timedelta(hours=1),
            at + timedelta(hours=1),
        ):
            analysis.findings.append(notam)
    if destination is not None:
        _weather(handle, flight, destination, analysis, latest_arrival)
    analysis.inputs_present += int(any(f.rule.startswith("weather") for f in analysis.findings))
    if not analysis.recommendation:
        analysis.recommendation = f"No regulatory restriction stops {flight.flight_number} at its current times" + (
            f"; arrival at {flight.destination} must stay before {latest_arrival:%H:%MZ}." if latest_arrival else "."
        )
    analysis.data_sources = sources(handle)
    return analysis


def _weather(
    handle: DataHandle, flight: Flight, destination: AirportProfile, analysis: Analysis, latest_arrival
) -> None:
    eta = flight.arrival
    observations = q.weather(handle, destination.iata, eta - timedelta(hours=2), eta + WEATHER_LOOKAHEAD)
    current = nearest_observation(observations, destination.iata, eta)
    if current is None:
        analysis.facts.append(f"No weather for {destination.iata} near {eta:%H:%MZ}: arrival weather not assessed.")
        return
    assessment = assess_weather(current, destination, flight.aircraft_type, "arrival")
    analysis.findings.extend(assessment.findings)
    if all(f.status != "illegal" for f in assessment.findings):
        return
    bad = [
        o
        for o in observations
        if o.forecast_time >= current.forecast_time
        and any(f.status == "illegal" for f in assess_weather(o, destination, flight.aircraft_type).findings)
    ]
    clears = next(
        (o.forecast_time for o in observations if o.forecast_time > current.forecast_time and o not in bad), None
    )
    window_end = clears or observations[-1].forecast_time + timedelta(hours=1)
    reasons = sorted({f.message for f in assessment.findings if f.status == "illegal"})
    analysis.constraints.append(
        RegulatoryConstraint(
            constraint_type="weather",
            affected_airports=[destination.iata],
            time_windows=[TimeWindow(start=current.forecast_time, end=window_end)],
            restrictions=[f"no landing at {destination.iata} before {window_end:%H:%MZ}"],
            reasoning=" ".join(reasons),
        )
    )
    analysis.limits.append(
        f"No landing at {destination.iata} {current.forecast_time:%Y-%m-%d %H:%MZ}–{window_end:%H:%MZ}: "
        + " ".join(reasons)
    )
    wait = max(0, int((window_end - eta).total_seconds() // 60))
    if latest_arrival is None or window_end <= latest_arrival:
        analysis.proposals.append(
            RecoveryProposal(
                kind="delay",
                title=f"Delay {flight.flight_number} so it lands after the weather clears",
                detail=f"{destination.iata} is below limits until {window_end:%H:%MZ}.",
                parameters={"delay_minutes": wait},
                estimated_delay_minutes=wait,
            )
        )
    nearby = [code for code, _ in airports_within(destination.iata, DEFAULT_REGULATORY.max_diversion_km)]
    candidates = list(_profiles(handle, nearby).values())
    weather = [
        o for c in candidates for o in q.weather(handle, c.iata, eta - timedelta(hours=2), eta + timedelta(hours=2))
    ]
    notams = [
        n for c in candidates for n in q.notams(handle, c.iata, eta - timedelta(hours=1), eta + timedelta(hours=1))
    ]
    alternates = diversion_alternates(destination, candidates, flight.aircraft_type, eta, weather, notams)
    for alternate in alternates.ranked[:3]:
        analysis.proposals.append(
            RecoveryProposal(
                kind="divert",
                title=f"Divert to {alternate.iata} ({alternate.distance_km:.0f} km)",
                detail=f"Weather, runway ({alternate.longest_open_runway_m} m), curfew and NOTAMs acceptable at {alternate.eta:%H:%MZ}.",
                parameters={"alternate": alternate.iata, "distance_km": round(alternate.distance_km)},
                estimated_delay_minutes=0,
            )
        )
    refused = ", ".join(f"{r.iata} ({r.code.lower()})" for r in alternates.refused[:6])
    analysis.facts.append(
        f"{destination.iata} below limits {current.forecast_time:%H:%MZ}–{window_end:%H:%MZ}: "
        + "; ".join(reasons)
        + " Alternates in range: "
        + (", ".join(a.iata for a in alternates.ranked) or "none")
        + (f"; refused: {refused}." if refused else ".")
    )
    best = alternates.ranked[0].iata if alternates.ranked else None
    analysis.recommendation = (
        f"{flight.flight_number} cannot land at {destination.iata} at {eta:%H:%MZ}: "
        + (
            f"delay {wait} min"
            if analysis.proposals and analysis.proposals[0].kind == "delay"
            else "no delay fits the curfew"
        )
        + (f" or divert to {best}." if best else "; no alternate in range is acceptable.")
    )
