"""The deterministic planner used offline: common question shapes mapped to tools, no LLM.

Entities are read first (airport codes and city names, jurisdictions, aircraft types, distances, times),
then the first matching shape wins, in this order: comparison of jurisdictions, route alternates, airport
status (curfew/NOTAM at a time), airports near a place, rules listing, rules question, airport details,
airport search. A follow-up that names only a new airport or jurisdiction ("and France?") reuses the
previous turn's plan with that entity swapped — the conversation memory at work. Anything else falls back
to an airport search on the question's most specific word.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo

from . import airports as ap
from .aviation_plan import AviationPlan
from .rule_compute import fdp_plan
from .rules import SYNONYMS, find_jurisdictions
from .textsim import STOPWORDS

CODE = re.compile(r"\b[A-Z]{3,4}\b")
DISTANCE = re.compile(r"(\d+(?:\.\d+)?)\s*(nm|nmi|nautical miles?|km|kilomet(?:er|re)s?|mi|miles?)\b", re.I)
RUNWAY = re.compile(r"(\d[\d,]{2,})\s*(ft|feet|m|metres|meters)\b", re.I)
CLOCK = re.compile(r"\b([01]?\d|2[0-3]):([0-5]\d)\s*(z|utc)?\b", re.I)
ISO_TIME = re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?\b")
AIRCRAFT = re.compile(
    r"\b(?:boeing\s*|airbus\s*)?(787-10|787-9|787|dreamliner|777(?:-300er)?|77w|a?350(?:-1000)?|"
    r"a32[01]|b78[9x]|b77w|a35k)\b",
    re.I,
)
WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")
KM_PER = {"km": 1.0, "mi": 1.609344, "nm": 1.852}

# Upper-case words that look like airport codes but are not meant as one.
NOT_CODES = frozenset(
    {
        "THE",
        "AND",
        "FOR",
        "ARE",
        "CAN",
        "NOT",
        "WHO",
        "WHAT",
        "HOW",
        "EU",
        "UK",
        "USA",
        "UAE",
        "NOTAM",
        "NOTAMS",
        "FDP",
        "ETA",
        "ETD",
        "UTC",
        "GMT",
        "ATC",
        "CAA",
        "DOT",
        "FAA",
        "EASA",
        "GCAA",
        "ICAO",
        "IATA",
        "OCC",
        "MEL",
        "ETOPS",
        "EDTO",
        "LIST",
        "SHOW",
        "RULES",
        "ALL",
    }
)
RULE_WORDS = re.compile(
    r"\b(rules?|regulations?|rights?|compensat\w*|refunds?|law|legal|eu261|uk261|delays?|"
    r"cancell?ations?|denied boarding|care|hotels?|meals?|crew|duty|fdp|claims?|"
    r"enforce\w*|time limits?|overbook\w*|passengers?)\b",
    re.I,
)
TAG_WORDS: dict[str, str] = {
    "compensation": "compensation",
    "compensate": "compensation",
    "delay": "delay",
    "late": "delay",
    "cancellation": "cancellation",
    "cancelled": "cancellation",
    "refund": "refund",
    "care": "care",
    "hotel": "care",
    "meal": "care",
    "curfew": "curfew",
    "night": "night_flights",
    "crew": "crew_duty",
    "duty": "crew_duty",
    "denied": "denied_boarding",
    "overbooking": "denied_boarding",
    "claim": "claims",
    "enforcement": "enforcement",
    "scope": "scope",
    "long-haul": "long_haul",
    "longhaul": "long_haul",
}


def airports_named(text: str) -> list[str]:
    """IATA codes in the order the question names them: upper-case codes, then city or airport names."""
    found: list[tuple[int, str]] = []
    for match in CODE.finditer(text):
        if match.group() in NOT_CODES:
            continue
        try:
            found.append((match.start(), ap.find_airport(match.group()).iata))
        except LookupError:
            continue
    for start, iata in _cities(text):
        if iata not in [code for _, code in found]:
            found.append((start, iata))
    ordered = [code for _, code in sorted(found)]
    return list(dict.fromkeys(ordered))


def _cities(text: str) -> list[tuple[int, str]]:
    """Capitalised one- or two-word names that are the city of a large airport (the longest runway wins)."""
    index = _city_index()
    words = [(m.start(), m.group()) for m in WORD.finditer(text)]
    hits, skip = [], -1
    for i, (start, word) in enumerate(words):
        if i <= skip or not word[0].isupper():
            continue
        pair = f"{word} {words[i + 1][1]}".lower() if i + 1 < len(words) else None
        if pair in index:
            hits.append((start, index[pair]))
            skip = i + 1
        elif word.lower() in index and i > 0:  # the first word of a sentence is capitalised anyway
            hits.append((start, index[word.lower()]))
    return hits


@lru_cache(maxsize=1)
def _city_index() -> dict[str, str]:
    """City names (whole, first two words, first word) and distinctive airport-name words → IATA code."""
    best: dict[str, ap.Airport] = {}
    for airport in ap.airport_table():
        if airport.kind != "large_airport" or not airport.scheduled_service:
            continue
        for key in {
            airport.city.lower(),
            " ".join(airport.city.lower().split()[:2]),
            airport.city.lower().split()[0] if airport.city else "",
        }:
            if key and (key not in best or (airport.longest_runway_ft or 0) > (best[key].longest_runway_ft or 0)):
                best[key] = airport
    cities = {key: airport.iata for key, airport in best.items() if len(key) > 3}
    cities.update({word: iata for word, iata in _distinct_name_words().items() if word not in cities})
    return cities


def _distinct_name_words() -> dict[str, str]:
    """Words naming exactly one large airport ("heathrow", "schiphol"), so a question may use the airport's name."""
    generic = {"airport", "international", "regional", "national", "municipal", "field", "airfield", "air", "base"}
    owners: dict[str, set[str]] = {}
    for airport in ap.airport_table():
        if airport.kind == "large_airport":
            for word in WORD.findall(airport.name.lower()):
                if len(word) > 4 and word not in generic:
                    owners.setdefault(word, set()).add(airport.iata)
    return {word: next(iter(codes)) for word, codes in owners.items() if len(codes) == 1}


def distance_nm(text: str) -> float | None:
    match = DISTANCE.search(text)
    if not match:
        return None
    value, unit = float(match.group(1)), match.group(2).lower()
    key = "nm" if unit.startswith("n") else "km" if unit.startswith("k") else "mi"
    return round(value * KM_PER[key] / KM_PER["nm"], 1)


def filters_in(text: str) -> dict:
    filters: dict = {}
    aircraft = AIRCRAFT.search(text)
    if aircraft:
        code = ap.aircraft_code(aircraft.group(1))
        if code:
            filters["aircraft_type"] = code
    runway = RUNWAY.search(text)
    if runway and re.search(r"runway", text, re.I):
        value = int(runway.group(1).replace(",", ""))
        filters["min_runway_ft"] = value if runway.group(2).lower() in ("ft", "feet") else round(value * ap.FT_PER_M)
    if re.search(r"\b(at night|night|overnight|24[- ]?h(ours?)?|no curfew|without (a )?curfew)\b", text, re.I):
        filters["no_curfew"] = True
    return filters


def instant_in(text: str, now: datetime, tz: str = "UTC") -> str | None:
    """The instant the question names: an ISO timestamp, HH:MMZ / HH:MM UTC, or HH:MM in the airport's local
    time (``tz``) — duty managers quote curfews in local time — on the local date of ``now``."""
    iso = ISO_TIME.search(text)
    if iso:
        value = datetime.fromisoformat(iso.group().replace(" ", "T").replace("Z", "+00:00"))
        return (value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()
    clock = CLOCK.search(text)
    if not clock:
        return None
    zone = UTC if clock.group(3) else ZoneInfo(tz)
    local = now.astimezone(zone).replace(hour=int(clock.group(1)), minute=int(clock.group(2)), second=0, microsecond=0)
    return local.astimezone(UTC).isoformat()


def tags_in(text: str) -> list[str]:
    lowered = text.lower()
    return list(dict.fromkeys(tag for word, tag in TAG_WORDS.items() if re.search(rf"\b{re.escape(word)}", lowered)))


def plan_offline(question: str, previous: dict | None = None, now: datetime | None = None) -> AviationPlan:
    now = now or datetime.now(UTC)
    text = question.strip()
    lowered = text.lower()
    codes = airports_named(text)
    jurisdictions = find_jurisdictions(text)
    follow_up = _follow_up(text, codes, jurisdictions, previous, now)
    if follow_up is not None:
        return follow_up
    computed = fdp_plan(text)  # a figure the rules engine computes (the FDP limit), never a text search
    if computed is not None:
        return computed
    if len(jurisdictions) >= 2 and re.search(r"\b(compar\w*|differ\w*|versus|vs\.?|between)\b", lowered):
        arguments: dict[str, Any] = {"countries": jurisdictions, "question": text}
        if tags_in(text):
            arguments["tags"] = tags_in(text)
        return AviationPlan(
            selected_tool="compare_rules_between_countries",
            answer_style="comparison",
            arguments=arguments,
            reasoning=f"Two or more jurisdictions ({', '.join(jurisdictions)}) to compare.",
        )
    if len(codes) >= 2 and re.search(r"\b(route|along|alternates?|en[- ]route|between|from)\b", lowered):
        # Alternates for a diversion: airports with scheduled service (handling, immigration), not air bases.
        arguments = {
            "departure": codes[0],
            "destination": codes[1],
            "filters": {"scheduled_service": True, **filters_in(text)},
        }
        if distance_nm(text):
            arguments["corridor_nm"] = distance_nm(text)
        return AviationPlan(
            selected_tool="find_airports_near_route",
            arguments=arguments,
            answer_style="table",
            reasoning=f"A route {codes[0]}-{codes[1]} with a corridor: alternates along it.",
        )
    if (
        codes
        and re.search(
            r"\b(notams?|status|closed|open|right now|now|tonight|at \d|curfew at|in curfew|"
            r"can (we|i|it|a|an) (land|depart|take ?off|arrive))\b",
            lowered,
        )
        and not re.search(r"\brules?\b", lowered)
    ):
        arguments = {
            "code": codes[0],
            "movement": "departure" if re.search(r"\b(depart|take ?off)", lowered) else "arrival",
        }
        instant = instant_in(text, now, ap.find_airport(codes[0]).tz)
        if instant:
            arguments["at"] = instant
        return AviationPlan(
            selected_tool="get_notification_for_airport",
            arguments=arguments,
            reasoning=f"Status of {codes[0]} at a time: curfew and NOTAMs.",
        )
    if codes and re.search(r"\b(near|around|close to|within|nearby|diversion|alternates?)\b", lowered):
        arguments = {"location": codes[0], "filters": filters_in(text)}
        if distance_nm(text):
            arguments["radius_nm"] = distance_nm(text)
        return AviationPlan(
            selected_tool="find_airports_near_location",
            arguments=arguments,
            answer_style="table",
            reasoning=f"Airports around {codes[0]}.",
        )
    if re.search(r"\b(list|browse|show( me)?( all)?)\b.*\brules\b", lowered):
        arguments = {"tags": [t for t in tags_in(text) if t != "curfew"] or []}
        if jurisdictions:
            arguments["country"] = jurisdictions[0]
        return AviationPlan(
            selected_tool="browse_rules",
            arguments=arguments,
            answer_style="list",
            reasoning="A listing of rules by country and topic.",
        )
    country = jurisdictions[0] if jurisdictions else (ap.find_airport(codes[0]).country if codes else None)
    if country and (jurisdictions or RULE_WORDS.search(text) or "curfew" in lowered or "night" in lowered):
        return AviationPlan(
            selected_tool="answer_rules_question",
            arguments={"country": country, "question": text},
            reasoning=f"A rules question for {country}.",
        )
    if codes:
        return AviationPlan(
            selected_tool="get_airport_details",
            arguments={"code": codes[0]},
            reasoning=f"Reference data for {codes[0]}.",
        )
    return fallback_plan(text, "no known question shape matched")


def _follow_up(
    text: str, codes: list[str], jurisdictions: list[str], previous: dict | None, now: datetime
) -> AviationPlan | None:
    """ "And France?", "what about LHR?", "and at 23:30?", "and for an A350?": a short question changing one
    subject, time or filter of the last one, answered like it."""
    if (
        not previous
        or len(text.split()) > 6
        or not re.match(r"^(and|what about|how about|same for|and for)\b", text.strip().lower())
    ):
        return None
    tool, arguments = previous.get("selected_tool"), dict(previous.get("arguments") or {})
    if jurisdictions and tool == "answer_rules_question":
        arguments["country"] = jurisdictions[0]
    elif jurisdictions and tool == "compare_rules_between_countries":
        arguments["countries"] = list(dict.fromkeys([*arguments.get("countries", []), *jurisdictions]))
    elif jurisdictions and tool == "browse_rules":
        arguments["country"] = jurisdictions[0]
    elif codes and tool in ("get_airport_details", "get_notification_for_airport"):
        arguments["code"] = codes[0]
    elif codes and tool == "find_airports_near_location":
        arguments["location"] = codes[0]
    elif tool == "get_notification_for_airport" and CLOCK.search(text):  # "and at 23:30?"
        arguments["at"] = instant_in(text, now, ap.find_airport(arguments["code"]).tz)
    elif tool in ("find_airports_near_route", "find_airports_near_location") and filters_in(text):
        arguments["filters"] = {**arguments.get("filters", {}), **filters_in(text)}  # "and for an A350?"
    else:
        return None
    return AviationPlan(
        selected_tool=tool,
        arguments=arguments,
        answer_style=previous.get("answer_style", "brief"),
        reasoning=f"A follow-up: the previous question ({tool}) for the newly named subject.",
    )


FILLER = frozenset(
    {
        "tell",
        "about",
        "please",
        "show",
        "find",
        "give",
        "airport",
        "airports",
        "list",
        "search",
        "hello",
        "thanks",
        "could",
        "would",
        "know",
    }
)


def fallback_plan(question: str, why: str) -> AviationPlan:
    """An airport search on the question's most specific word — the planner's fallback when all else fails:
    a code-like token (XQZ9), else a capitalised word after the first, else the longest remaining word."""
    words = [
        w
        for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9'-]+", question)
        if w.lower() not in STOPWORDS | FILLER and w.lower() not in SYNONYMS
    ]
    codes = [w for w in words if w.isupper() and 3 <= len(w) <= 4]
    capitalised = [w for w in words[1:] if w[0].isupper()]
    query = (codes or capitalised or sorted(words, key=len, reverse=True) or [question.strip()[:40] or "airport"])[0]
    return AviationPlan(
        selected_tool="search_airports",
        arguments={"query": query},
        answer_style="list",
        reasoning=f"Fallback to an airport search for {query!r}: {why}.",
    )
