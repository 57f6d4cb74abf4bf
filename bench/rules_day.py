"""Time to evaluate every rule for every flight of one synthetic day (target: under 2 s on this machine).

Data is generated and grouped in memory first (not timed); the timed part is the rules engine alone:
crew legality of every rostered crew member, airworthiness of every tail, curfews and weather at both
ends, and EU261/UK261 for a 3-hour technical delay.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from datetime import date, timedelta

from skymarshal.data import schema as s
from skymarshal.data.generator import GeneratorConfig, generate
from skymarshal.rules import curfew, eu261, mel, weather
from skymarshal.rules.rostered import flight_crew_legality


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--day", type=date.fromisoformat, default=date(2027, 1, 20))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    airline = generate(GeneratorConfig(load_factor=0.05))  # passengers are not inputs of these rules
    flights = [f for f in airline.tables[s.FLIGHTS] if f.flight_date == args.day]
    members = {m.crew_id: m for m in airline.tables[s.CREW_MEMBERS]}
    rosters, crew_of = defaultdict(list), defaultdict(list)
    for row in airline.tables[s.CREW_ROSTER]:
        rosters[row.crew_id].append(row)
        if row.flight_id:
            crew_of[row.flight_id].append(members[row.crew_id])
    orders = defaultdict(list)
    for order in airline.tables[s.MAINTENANCE_WORK_ORDERS]:
        orders[order.aircraft_registration].append(order)
    profiles = {p.iata: p for p in airline.tables[s.AIRPORTS] if p.record == "PROFILE"}
    observations = {(w.airport, w.forecast_time): w for w in airline.tables[s.WEATHER]}

    def hour(at):
        return at.replace(minute=0, second=0, microsecond=0)

    groups = {
        "crew legality (ORO.FTL.205/210/235, recency, type)": lambda f: sum(
            len(r.findings) for r in flight_crew_legality(f.flight_id, crew_of[f.flight_id], rosters, f.delay_minutes)),
        "airworthiness (MEL intervals, AOG)": lambda f: len(
            mel.aircraft_airworthiness(orders[f.aircraft_registration], f.scheduled_departure).findings),
        "curfews at both ends": lambda f: len([
            curfew.check_movement_at(profiles[f.origin], f.scheduled_departure, "departure"),
            curfew.check_movement_at(profiles[f.destination], f.scheduled_arrival, "arrival")]),
        "weather at both ends": lambda f: sum(
            len(weather.assess_weather(observations[(code, hour(at))], profiles[code], f.aircraft_type, move).findings)
            for code, at, move in ((f.origin, f.scheduled_departure, "departure"),
                                   (f.destination, f.scheduled_arrival, "arrival"))),
        "EU261/UK261 (3 h technical delay)": lambda f: int(eu261.assess_compensation(
            f.origin, f.destination, f.carrier, "delay", arrival_delay_minutes=180, cause="technical").owed),
    }
    print(f"Rules engine, every rule for every flight of {args.day}: {len(flights)} flights, "
          f"{sum(len(crew_of[f.flight_id]) for f in flights)} crew duties (best of {args.repeat})")
    total = 0.0
    for name, evaluate in groups.items():
        best = float("inf")
        for _ in range(args.repeat):
            started = time.perf_counter()
            count = sum(evaluate(f) for f in flights)
            best = min(best, time.perf_counter() - started)
        total += best
        print(f"  {name:<55} {best * 1000:8.1f} ms  ({count} results)")
    print(f"  {'total':<55} {total * 1000:8.1f} ms  (target < 2000 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
