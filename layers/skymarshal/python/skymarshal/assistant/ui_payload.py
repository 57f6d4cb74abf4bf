"""``build_ui_payload(plan, tool_result)``: the stable JSON the console renders — the UI's only contract.

Hybrid by design (seed 004): a ``kind`` (route, airport, rules), a few stable top-level fields that are
always present (``departure``, ``destination``, ``icao``, ``region``, ``topic``; null when they do not apply),
flattened conveniences (``filters``, ``visualization``, ``airports``), ``suggested_queries``, and the tool's full
result under ``tool_raw``. Planner schema changes stay inside this function; contract tests pin the shape.
"""

from __future__ import annotations

from typing import Any

from .tools import MANIFEST

PAYLOAD_VERSION = 1
AIRPORT_FIELDS = (
    "iata",
    "icao",
    "name",
    "city",
    "country",
    "lat",
    "lon",
    "longest_runway_ft",
    "kind",
    "distance_nm",
    "along_route_nm",
    "curfews",
)


def _slim(airport: dict) -> dict:
    return {key: airport.get(key) for key in AIRPORT_FIELDS}


def _airports(result: dict) -> list[dict]:
    if "airports" in result:
        return [_slim(a) for a in result["airports"]]
    if "airport" in result:
        return [_slim(result["airport"])]
    return []


def _visualization(kind: str, result: dict) -> dict:
    if kind == "route" and "departure" in result:
        points = [_slim(result["departure"]), _slim(result["destination"])]
        return {
            "type": "route_map",
            "route": [{"iata": p["iata"], "lat": p["lat"], "lon": p["lon"]} for p in points],
            "corridor_nm": result.get("corridor_nm"),
            "markers": len(result.get("airports", [])),
        }
    if kind == "airport" and "centre" in result:
        return {"type": "radius_map", "centre": _slim(result["centre"]), "radius_nm": result.get("radius_nm")}
    if kind == "airport":
        return {"type": "airport_card" if "airport" in result else "airport_table"}
    return {"type": "rules_comparison" if result.get("_tool_type") == "rules_comparison" else "rules_list"}


def _rules_topic(result: dict) -> str | None:
    if result.get("topics"):
        return ", ".join(t["tag"] for t in result["topics"])
    if result.get("_tool_type") == "rules_list":
        return ", ".join(result.get("tags") or []) or "all topics"
    return result.get("question")


def build_ui_payload(plan: dict, tool_result: dict, suggested_queries: list[str] | None = None) -> dict[str, Any]:
    """The payload for one answered turn; ``tool_result`` may be empty when the tool could not run."""
    spec = MANIFEST.get(plan.get("selected_tool", ""))
    kind = spec.ui_kind if spec else "airport"
    result = tool_result or {}
    focus = result.get("airport") or result.get("centre") or {}
    countries = result.get("countries") or ([result["country"]] if result.get("country") else [])
    return {
        "version": PAYLOAD_VERSION,
        "kind": kind,
        "tool": plan.get("selected_tool"),
        "departure": (result.get("departure") or {}).get("iata"),
        "destination": (result.get("destination") or {}).get("iata"),
        "icao": focus.get("icao"),
        "region": ", ".join(countries) if countries else focus.get("country"),
        "topic": _rules_topic(result) if kind == "rules" else None,
        "filters": result.get("filters") or {},
        "visualization": _visualization(kind, result),
        "airports": _airports(result),
        "suggested_queries": list(suggested_queries or []),
        "tool_raw": result,
    }
