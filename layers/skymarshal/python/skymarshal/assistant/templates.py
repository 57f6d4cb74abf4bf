"""Offline answers: one markdown template per tool type, rendered from the tool's DATA alone."""

from __future__ import annotations

from collections.abc import Callable

from .rule_compute import fdp_answer

MAX_ROWS = 15


def _runway(a: dict) -> str:
    return f"{a['longest_runway_ft']:,} ft" if a.get("longest_runway_ft") else "runway unknown"


def _curfew(a: dict) -> str:
    windows = a.get("curfews") or []
    return (
        "; ".join(f"{w['kind'].replace('_', ' ')} {w['start_local']}-{w['end_local']} local" for w in windows)
        or "none on record"
    )


def _filters(filters: dict) -> str:
    parts = []
    if filters.get("aircraft_type"):
        parts.append(f"runway for a {filters['aircraft_type']}")
    if filters.get("required_runway_ft"):
        parts.append(f"longest runway at least {filters['required_runway_ft']:,} ft")
    if filters.get("no_curfew"):
        parts.append("no curfew on record (usable at night)")
    if filters.get("country"):
        parts.append(f"in {filters['country']}")
    return ", ".join(parts) or "no filters"


def _table(rows: list[dict], with_route: bool) -> list[str]:
    head = (
        "| Airport | Country | Runway | Off route | Along route | Curfew |"
        if with_route
        else "| Airport | Country | Runway | Distance | Curfew |"
    )
    lines = [head, "|---" * (6 if with_route else 5) + "|"]
    for a in rows[:MAX_ROWS]:  # callers sample longer lists first
        name = f"{a['iata']} {a['name']}"
        if with_route:
            lines.append(
                f"| {name} | {a['country']} | {_runway(a)} | {a['distance_nm']} nm | {a['along_route_nm']} nm | {_curfew(a)} |"
            )
        else:
            distance = f"{a['distance_nm']} nm" if a.get("distance_nm") is not None else "-"
            lines.append(f"| {name} | {a['country']} | {_runway(a)} | {distance} | {_curfew(a)} |")
    if len(rows) > MAX_ROWS:
        lines.append(f"\n…and {len(rows) - MAX_ROWS} more in the panel.")
    return lines


def _one_per_stretch(rows: list[dict], length_nm: float) -> list[dict]:
    """Split the route into MAX_ROWS equal stretches and keep, in each, a large airport nearest the track."""
    best: dict[int, dict] = {}
    for a in rows:
        stretch = min(int(a["along_route_nm"] / max(length_nm, 1) * MAX_ROWS), MAX_ROWS - 1)
        rank = (a.get("kind") != "large_airport", a["distance_nm"])
        if stretch not in best or rank < (best[stretch].get("kind") != "large_airport", best[stretch]["distance_nm"]):
            best[stretch] = a
    return [best[k] for k in sorted(best)]


def route_alternates(r: dict) -> str:
    dep, dest = r["departure"], r["destination"]
    shown = (
        f"{r['total']} airports"
        if r["total"] == r["count"]
        else f"{r['total']} airports ({r['count']} spread along it listed)"
    )
    head = (
        f"**{shown} within {r['corridor_nm']:g} nm of the {dep['iata']}–{dest['iata']} great-circle "
        f"route** ({r['route_length_nm']:,.0f} nm), filtered by {_filters(r['filters'])}, in order along the route:"
    )
    if not r["airports"]:
        return head + "\n\nNone pass the filters; widen the corridor or relax a filter."
    countries = list(dict.fromkeys(a["country"] for a in r["airports"]))
    rows = r["airports"]
    if len(rows) > MAX_ROWS:  # the best one per stretch of the route; the panel has every row
        rows = _one_per_stretch(rows, r["route_length_nm"])
        head += f" (the best per stretch of the route shown; the panel lists all {r['count']})"
    return "\n".join(
        [
            head,
            "",
            *_table(rows, True),
            "",
            f"Countries along the way: {', '.join(countries)}. Runway lengths come from the project's "
            "surveyed reference where it has one, else airports-py; curfews from the rules engine.",
        ]
    )


def airport_list(r: dict) -> str:
    if "centre" in r:
        c = r["centre"]
        head = (
            f"**{r['count']} airports within {r['radius_nm']:g} nm of {c['iata']} {c['name']}**, filtered by "
            f"{_filters(r['filters'])}, nearest first:"
        )
    else:
        head = f"**{r['count']} airports match {r['query']!r}** ({_filters(r['filters'])}):"
    if not r["airports"]:
        return head + "\n\nNo airport matches; try a code (LHR) or a wider radius."
    return "\n".join([head, "", *_table(r["airports"], False)])


def airport_details(r: dict) -> str:
    a = r["airport"]
    service = {True: "scheduled service", False: "no scheduled service", None: "service unknown"}[
        a.get("scheduled_service")
    ]
    return "\n".join(
        [
            f"**{a['iata']} / {a['icao']} — {a['name']}**, {a['city']}, {a['country']}",
            f"- Longest runway: {_runway(a)} (source: {a.get('runway_source') or 'none'})",
            f"- Type: {(a.get('kind') or 'unknown').replace('_', ' ')}, {service}",
            f"- Position {a['lat']:.4f}, {a['lon']:.4f}; elevation {a['elevation_ft']:,} ft; time zone {a['tz']}",
            f"- Curfew / night restrictions: {_curfew(a)}",
        ]
    )


def airport_notification(r: dict) -> str:
    a, curfew, notams = r["airport"], r["curfew"], r["notams"]
    lines = [
        f"**{a['iata']} {a['name']} — {r['movement']} at {r['at']}**",
        f"- Curfew: **{curfew['status'].replace('_', ' ')}** — {curfew['message']} ({curfew['clause']})",
    ]
    if not notams["connected"]:
        lines.append("- NOTAMs: not connected in this session (run against local or AWS data to include them).")
    elif notams["active"]:
        lines += [f"- NOTAM {n['notam_id']} ({n['kind']}): {n['text']}" for n in notams["active"]]
    else:
        lines.append("- NOTAMs: none in force at that time.")
    return "\n".join(lines)


def rules_answer(r: dict) -> str:
    if not r["results"]:
        return (
            f"No {r['country_name']} rule on record matches this question closely enough (TF-IDF cosine "
            f"below {r['threshold']}). Try `browse rules in {r['country']}` to see what is on record."
        )
    best, *others = r["results"]
    lines = [f"**{r['country_name']}** — {best['answer']}", "", f"_Source: {best['source']}_"]
    if others:
        lines += ["", "Related:"] + [f"- {o['question']} {o['answer']} _({o['source']})_" for o in others]
    return "\n".join(lines)


def rules_list(r: dict) -> str:
    where = r["country"] or "all jurisdictions"
    tags = f" tagged {', '.join(r['tags'])}" if r["tags"] else ""
    lines = [f"**Rules for {where}{tags}** ({r['offset'] + 1}–{r['offset'] + len(r['entries'])} of {r['total']}):", ""]
    lines += [f"- **{e['jurisdiction']}: {e['question']}** {e['answer']} _({e['source']})_" for e in r["entries"]]
    if r["has_more"]:
        lines.append(f"\nMore on record: ask for the next page (offset {r['offset'] + r['limit']}).")
    return "\n".join(lines)


def rules_comparison(r: dict) -> str:
    names = r["country_names"]
    lines = [
        f"**{' vs '.join(names[c] for c in r['countries'])}** — topic by topic (answers compared by TF-IDF "
        f"cosine; below {r['difference_threshold']} counts as a difference):"
    ]
    shown: set[str] = set()  # an entry carries several tags: quote it once, under its first topic
    for topic in r["topics"]:
        verdict = "differs" if topic["differs"] else "broadly the same"
        lines += ["", f"### {topic['tag'].replace('_', ' ')} — {verdict}"]
        for code, entries in topic["entries"].items():
            fresh = next((e for e in entries if e["id"] not in shown), None)
            if fresh is None:
                lines.append(f"- **{names[code]}:** as quoted above.")
                continue
            shown.add(fresh["id"])
            lines.append(f"- **{names[code]}:** {fresh['answer']} _({fresh['source']})_")
        lines += [f"- No {names[c]} rule on record for this topic." for c in topic["missing"]]
        for pair in topic["pairs"]:
            if pair["only_in_a"] or pair["only_in_b"]:  # even "broadly the same" rules differ somewhere
                lines.append(
                    f"- Key terms only in {pair['a']}: {', '.join(pair['only_in_a'])}; only in "
                    f"{pair['b']}: {', '.join(pair['only_in_b'])} (similarity {pair['similarity']:.2f})."
                )
    if not r["topics"]:
        lines.append("\nNo shared topic on record for these jurisdictions.")
    return "\n".join(lines)


TEMPLATES: dict[str, Callable[[dict], str]] = {
    "route_alternates": route_alternates,
    "airport_list": airport_list,
    "airport_details": airport_details,
    "airport_notification": airport_notification,
    "rules_answer": rules_answer,
    "rules_list": rules_list,
    "rules_comparison": rules_comparison,
    "fdp_limit": fdp_answer,
}
