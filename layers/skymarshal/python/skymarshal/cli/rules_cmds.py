"""`skymarshal rules max-fdp | eu261 | crew-legality | mel`: the rules engine's functions, JSON out."""

from __future__ import annotations

import argparse
import re
from datetime import UTC, datetime, time

from ..rules import eu261, ftl_easa, ftl_faa
from .common import iso_date, print_json


def _hhmm(text: str) -> time:
    if not re.fullmatch(r"\d{2}:\d{2}", text):
        raise argparse.ArgumentTypeError(f"invalid time {text!r}: use HH:MM, e.g. 06:30")
    try:
        return time(int(text[:2]), int(text[3:]))
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid time {text!r}: hours 00-23, minutes 00-59") from None


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"invalid count {text!r}: a whole number of at least 1")
    return int(text)


def _minutes(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"invalid minutes {text!r}: a whole number of minutes, 0 or more")
    return int(text)


def _iata(text: str) -> str:
    if not re.fullmatch(r"[A-Za-z]{3}", text):
        raise argparse.ArgumentTypeError(f"invalid airport {text!r}: a three-letter IATA code such as AUH")
    return text.upper()


def _instant(text: str) -> datetime:
    try:
        value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid time {text!r}: ISO 8601, e.g. 2027-01-20T08:00:00Z") from None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def register(commands) -> None:
    rules = commands.add_parser("rules", help="run one rule of the rules engine")
    actions = rules.add_subparsers(dest="action", required=True, parser_class=type(rules))

    fdp = actions.add_parser("max-fdp", help="maximum daily FDP (EASA ORO.FTL.205 or FAA 117.13)")
    fdp.add_argument("--start", type=_hhmm, required=True, help="reference start, local HH:MM")
    fdp.add_argument("--sectors", type=_positive, required=True)
    fdp.add_argument("--regime", choices=("easa", "faa"), default="easa")
    fdp.add_argument("--acclimatised", choices=("yes", "no", "unknown"), default="yes")
    fdp.set_defaults(run=_max_fdp)

    comp = actions.add_parser("eu261", help="EU261/UK261 compensation for one passenger")
    comp.add_argument("--from", dest="origin", type=_iata, required=True)
    comp.add_argument("--to", dest="destination", type=_iata, required=True)
    comp.add_argument("--carrier", required=True, type=lambda c: c.upper())
    comp.add_argument("--arrival-delay-min", type=_minutes, default=0)
    comp.add_argument("--cancelled", action="store_true")
    comp.add_argument("--cause", choices=("technical", "weather", "atc", "crew", "security"), default=None)
    comp.set_defaults(run=_eu261)

    crew = actions.add_parser("crew-legality", help="findings per rostered crew member of a flight")
    crew.add_argument("--flight", required=True, type=lambda f: f.upper().replace(" ", ""))
    crew.add_argument("--date", type=iso_date, required=True)
    crew.add_argument("--delay-min", type=_minutes, default=None, help="default: the flight's current delay")
    crew.set_defaults(run=_crew_legality)

    mel = actions.add_parser("mel", help="airworthiness of an aircraft from its work orders and MEL items")
    mel.add_argument("--registration", required=True, type=str.upper)
    mel.add_argument("--at", type=_instant, required=True)
    mel.set_defaults(run=_mel)


def _max_fdp(args) -> int:
    if args.regime == "faa":
        limit = ftl_faa.max_fdp_minutes(args.start, args.sectors, acclimated=args.acclimatised == "yes")
        notes = list(limit.notes) + (
            ["not known to be acclimated: treated as not acclimated"] if args.acclimatised == "unknown" else []
        )
        print_json({"regime": "FAA", "max_fdp_minutes": limit.minutes, "clause": limit.clause, "notes": notes})
        return 0
    # EASA has one table for a crew not acclimatised to the reference time: ORO.FTL.205(b)(2).
    state: ftl_easa.Acclimatisation = "acclimatised" if args.acclimatised == "yes" else "unknown"
    easa = ftl_easa.max_fdp_minutes(args.start, args.sectors, acclimatisation=state)
    print_json({"regime": "EASA", "max_fdp_minutes": easa.minutes, "clause": easa.clause, "notes": list(easa.notes)})
    return 0


def _eu261(args) -> int:
    from ..models.airports import UnknownAirport
    from .common import CliError

    try:
        result = eu261.assess_compensation(
            args.origin,
            args.destination,
            args.carrier,
            "cancellation" if args.cancelled else "delay",
            arrival_delay_minutes=args.arrival_delay_min,
            cause=args.cause,
        )
    except UnknownAirport as exc:
        raise CliError(str(exc)) from None
    print_json(
        {
            "regime": result.regime,
            "amount": result.amount,
            "currency": result.currency,
            "distance_km": round(result.distance_km),
            "reason": result.reason,
            "owed": result.owed,
            "care": result.care.model_dump(mode="json"),
        }
    )
    return 0


def _crew_legality(args) -> int:
    from ..analysis.crew import crew_legality
    from ..data import queries as q
    from ..local import control
    from .common import CliError

    with control.account(echo=_stderr, allow_temporary=True) as account:
        handle = account.handle()
        flight = q.find_flight(handle, args.flight, args.date)
        if flight is None:
            raise CliError(f"no flight {args.flight} on {args.date} (local date at its origin)")
        results = crew_legality(handle, flight, args.delay_min)
    print_json(
        {
            "flight_id": flight.flight_id,
            "delay_minutes": flight.delay_minutes if args.delay_min is None else args.delay_min,
            "crew": [r.model_dump(mode="json") for r in results],
        }
    )
    return 0


def _mel(args) -> int:
    from ..data import queries as q
    from ..local import control
    from ..rules.mel import aircraft_airworthiness
    from .common import CliError

    with control.account(echo=_stderr, allow_temporary=True) as account:
        handle = account.handle()
        orders = q.work_orders_for_aircraft(handle, args.registration)
        known = orders or q.aircraft_days(handle, args.registration)
    if not known:
        raise CliError(f"unknown aircraft {args.registration}: no such registration in AircraftAvailability")
    result = aircraft_airworthiness(orders, args.at, registration=args.registration)
    print_json(result.model_dump(mode="json"))
    return 0


def _stderr(message: str) -> None:
    import sys

    print(message, file=sys.stderr)
