"""The tool manifest — the single source of truth for what the planner may call — and the tools themselves.

Every tool takes a pydantic arguments model and returns DATA only (no prose), a JSON-ready dict marked with
``_tool_type`` (which formatter strategy applies) and ``_tool`` (which tool produced it). A tool that cannot
answer raises ``ToolInputError`` with a sentence the formatter can show; the runner turns it into ``error``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..models.airports import UnknownAirport
from ..models.operational import Notam
from ..rules.curfew import check_movement
from . import airports as ap
from .config import AssistantBehaviour
from .rule_compute import MaxFdpArgs, compute_max_fdp
from .rules import RulesCorpus, UnknownJurisdiction

ToolType = Literal[
    "airport_list",
    "route_alternates",
    "airport_details",
    "airport_notification",
    "rules_answer",
    "rules_list",
    "rules_comparison",
    "fdp_limit",
]
UiKind = Literal["route", "airport", "rules"]
NotamLookup = Callable[[str, datetime, datetime], list[Notam]]


class ToolInputError(ValueError):
    """The arguments name something that does not exist or cannot be answered; the message says which."""


class Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SearchAirportsArgs(Args):
    query: str = Field(min_length=1, description="name, city or code fragment")
    filters: ap.AirportFilters = ap.AirportFilters()
    limit: int = Field(10, ge=1, le=100)


class NearLocationArgs(Args):
    location: str = Field(min_length=2, description="airport code or a place name an airport is named after")
    radius_nm: float | None = Field(None, gt=0, le=2000)
    filters: ap.AirportFilters = ap.AirportFilters()


class NearRouteArgs(Args):
    departure: str = Field(min_length=3, max_length=4)
    destination: str = Field(min_length=3, max_length=4)
    corridor_nm: float | None = Field(None, gt=0, le=1000)
    filters: ap.AirportFilters = ap.AirportFilters()


class AirportCodeArgs(Args):
    code: str = Field(min_length=3, max_length=4, description="IATA or ICAO code")


class NotificationArgs(AirportCodeArgs):
    at: datetime | None = Field(None, description="UTC instant; default now")
    movement: Literal["arrival", "departure"] = "arrival"

    @field_validator("at")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        return value.replace(tzinfo=UTC) if value is not None and value.tzinfo is None else value


class RulesQuestionArgs(Args):
    country: str = Field(min_length=2)
    question: str = Field(min_length=3)


class BrowseRulesArgs(Args):
    country: str | None = None
    tags: list[str] = Field(default_factory=list)
    offset: int = Field(0, ge=0)
    limit: int = Field(10, ge=1, le=50)


class CompareRulesArgs(Args):
    countries: list[str] = Field(min_length=2, max_length=6)
    tags: list[str] = Field(default_factory=list)
    question: str = ""


def notams_from(handle) -> NotamLookup:
    """A NOTAM lookup over the operational AirportReference table (a ``data.access.DataHandle``): a Query on
    the airport's key, never a Scan."""
    from ..data import queries

    return lambda iata, start, end: queries.notams(handle, iata, start, end)


@dataclass
class ToolContext:
    """What the tools read: configuration, the rules corpus and, when connected, the operational NOTAMs."""

    behaviour: AssistantBehaviour
    rules: RulesCorpus
    notams: NotamLookup | None = None
    now: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    args: type[BaseModel]  # an Args (extra fields forbidden), or rule_compute's own
    tool_type: ToolType
    ui_kind: UiKind
    run: Callable[[Any, ToolContext], dict]


def _airport(code: str) -> ap.Airport:
    try:
        return ap.find_airport(code)
    except UnknownAirport:
        raise ToolInputError(f"unknown airport {code!r}: give a three-letter IATA or four-letter ICAO code") from None


def _card(airport: ap.Airport) -> dict:
    return airport.model_dump(mode="json")


def _nearby(found: list[ap.NearbyAirport]) -> list[dict]:
    return [{**_card(n.airport), "distance_nm": n.distance_nm, "along_route_nm": n.along_route_nm} for n in found]


def _filters_used(filters: ap.AirportFilters) -> dict:
    return {**filters.model_dump(mode="json"), "required_runway_ft": filters.required_runway_ft()}


def search_airports(args: SearchAirportsArgs, ctx: ToolContext) -> dict:
    found = ap.search(args.query, args.filters, args.limit)
    return {
        "query": args.query,
        "filters": _filters_used(args.filters),
        "airports": [_card(a) for a in found],
        "count": len(found),
    }


def _location(text: str) -> ap.Airport:
    """An airport code, else the best airport a name or city search finds."""
    if len(text.strip()) in (3, 4):
        try:
            return ap.find_airport(text)
        except UnknownAirport:
            pass
    found = ap.search(text, ap.AirportFilters(), 1)
    if not found:
        raise ToolInputError(f"no airport or place matches {text!r}: give an airport code such as LHR")
    return found[0]


def find_airports_near_location(args: NearLocationArgs, ctx: ToolContext) -> dict:
    centre = _location(args.location)
    radius = args.radius_nm or ctx.behaviour.airports.default_radius_nm
    found = [
        n
        for n in ap.near_point(centre.lat, centre.lon, radius, args.filters, ctx.behaviour.airports.max_results + 1)
        if n.airport.iata != centre.iata
    ]
    return {
        "centre": _card(centre),
        "radius_nm": radius,
        "filters": _filters_used(args.filters),
        "airports": _nearby(found[: ctx.behaviour.airports.max_results]),
        "count": len(found),
    }


def find_airports_near_route(args: NearRouteArgs, ctx: ToolContext) -> dict:
    departure, destination = _airport(args.departure), _airport(args.destination)
    if departure.iata == destination.iata:
        raise ToolInputError(f"departure and destination are both {departure.iata}: a route needs two airports")
    corridor = args.corridor_nm or ctx.behaviour.airports.default_corridor_nm
    found, total, length = ap.near_route(
        departure, destination, corridor, args.filters, ctx.behaviour.airports.max_results
    )
    return {
        "departure": _card(departure),
        "destination": _card(destination),
        "route_length_nm": length,
        "corridor_nm": corridor,
        "filters": _filters_used(args.filters),
        "airports": _nearby(found),
        "count": len(found),
        "total": total,
    }


def get_airport_details(args: AirportCodeArgs, ctx: ToolContext) -> dict:
    airport = _airport(args.code)
    return {"airport": _card(airport)}


def get_notification_for_airport(args: NotificationArgs, ctx: ToolContext) -> dict:
    """Curfew status at the instant (rules.curfew) and the NOTAMs in force, when NOTAM data is connected."""
    airport = _airport(args.code)
    at = args.at or ctx.now()
    curfew = check_movement(airport.iata, at, args.movement, windows=airport.curfews, tz=airport.tz)
    notams: dict[str, Any] = {"connected": ctx.notams is not None, "active": []}
    if ctx.notams is not None:
        active = [n for n in ctx.notams(airport.iata, at, at + timedelta(hours=1)) if n.starts_at <= at < n.ends_at]
        notams["active"] = [n.model_dump(mode="json") for n in active]
    return {
        "airport": _card(airport),
        "at": at.isoformat(),
        "movement": args.movement,
        "curfew": curfew.model_dump(mode="json"),
        "notams": notams,
    }


def _jurisdiction(rules: RulesCorpus, text: str) -> str:
    try:
        return rules.jurisdiction(text)
    except UnknownJurisdiction as exc:
        raise ToolInputError(str(exc)) from None


def answer_rules_question(args: RulesQuestionArgs, ctx: ToolContext) -> dict:
    code = _jurisdiction(ctx.rules, args.country)
    settings, features = ctx.behaviour.retrieval, ctx.behaviour.features
    found = ctx.rules.answer(
        code,
        args.question,
        top_k=settings.top_k,
        threshold=settings.similarity_threshold,
        reformulate=features.query_reformulation,
        rerank=features.reranking,
    )
    return {
        "country": code,
        "country_name": ctx.rules.rules.jurisdictions[code],
        "question": args.question,
        "threshold": settings.similarity_threshold,
        "results": [{**r.entry.model_dump(mode="json"), "score": r.score} for r in found],
    }


def browse_rules(args: BrowseRulesArgs, ctx: ToolContext) -> dict:
    code = _jurisdiction(ctx.rules, args.country) if args.country else None
    unknown = [t for t in args.tags if t not in ctx.rules.tags]
    if unknown:
        raise ToolInputError(f"unknown rules tag {unknown[0]!r}: known tags are {', '.join(ctx.rules.tags)}")
    page = ctx.rules.browse(jurisdiction=code, tags=args.tags, offset=args.offset, limit=args.limit)
    return {"country": code, "tags": args.tags, **page.model_dump(mode="json")}


def compare_rules_between_countries(args: CompareRulesArgs, ctx: ToolContext) -> dict:
    codes = list(dict.fromkeys(_jurisdiction(ctx.rules, c) for c in args.countries))
    if len(codes) < 2:
        raise ToolInputError(f"a comparison needs two different jurisdictions, got {', '.join(codes)}")
    topics = ctx.rules.compare(
        codes,
        tags=args.tags,
        question=args.question,
        difference_threshold=ctx.behaviour.retrieval.compare_difference_threshold,
    )
    return {
        "countries": codes,
        "country_names": {c: ctx.rules.rules.jurisdictions[c] for c in codes},
        "question": args.question,
        "measure": "tfidf_cosine",
        "difference_threshold": ctx.behaviour.retrieval.compare_difference_threshold,
        "topics": [{**t.model_dump(mode="json"), "differs": t.differs} for t in topics],
    }


MANIFEST: dict[str, ToolSpec] = {
    spec.name: spec
    for spec in (
        ToolSpec(
            "search_airports",
            "Find airports by name, city or code, with optional filters.",
            SearchAirportsArgs,
            "airport_list",
            "airport",
            search_airports,
        ),
        ToolSpec(
            "find_airports_near_location",
            "Airports within a radius (nm) of an airport or place, filtered.",
            NearLocationArgs,
            "airport_list",
            "airport",
            find_airports_near_location,
        ),
        ToolSpec(
            "find_airports_near_route",
            "Alternates within a corridor (nm) of the great-circle route between "
            "two airports, filtered by runway, aircraft type, curfew, country.",
            NearRouteArgs,
            "route_alternates",
            "route",
            find_airports_near_route,
        ),
        ToolSpec(
            "get_airport_details",
            "One airport's reference data: runway, type, time zone, curfews.",
            AirportCodeArgs,
            "airport_details",
            "airport",
            get_airport_details,
        ),
        ToolSpec(
            "get_notification_for_airport",
            "Curfew and NOTAM status at an airport at a UTC time (default now).",
            NotificationArgs,
            "airport_notification",
            "airport",
            get_notification_for_airport,
        ),
        ToolSpec(
            "compute_max_fdp",
            "The maximum daily FDP computed by the rules engine (EASA ORO.FTL.205(b) or FAA 117.13) for a reference "
            "start time (local HH:MM) and a number of sectors, with the clause.",
            MaxFdpArgs,
            "fdp_limit",
            "rules",
            compute_max_fdp,
        ),
        ToolSpec(
            "answer_rules_question",
            "Answer a rules question for one country from the rules corpus.",
            RulesQuestionArgs,
            "rules_answer",
            "rules",
            answer_rules_question,
        ),
        ToolSpec(
            "browse_rules",
            "List rules entries by country and tag, paged (offset, limit, has_more).",
            BrowseRulesArgs,
            "rules_list",
            "rules",
            browse_rules,
        ),
        ToolSpec(
            "compare_rules_between_countries",
            "Compare the rules of two or more countries topic by topic.",
            CompareRulesArgs,
            "rules_comparison",
            "rules",
            compare_rules_between_countries,
        ),
    )
}


def run_tool(name: str, arguments: dict, ctx: ToolContext) -> dict:
    """Validate the arguments against the manifest and run the tool; the result carries its markers."""
    spec = MANIFEST[name]
    result = spec.run(spec.args.model_validate(arguments), ctx)
    return {"_tool": name, "_tool_type": spec.tool_type, **result}


def manifest_for_prompt() -> str:
    """The manifest as the planner prompt lists it: name, description and the JSON schema of the arguments."""
    return "\n".join(
        f"- {s.name}: {s.description}\n  arguments: {json.dumps(s.args.model_json_schema())}" for s in MANIFEST.values()
    )
