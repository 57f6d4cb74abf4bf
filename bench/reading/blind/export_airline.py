"""Export the seeded airline the reading bench uses, as the blind writers need it (no reader code involved).

`python -m bench.reading.blind.export_airline [--days N]` writes, beside this file:
- airline.csv: every flight of the first N operating days the bench draws reports about (flight id, number,
  local date at the origin, origin, destination, STD/STA UTC, registration, type), cancelled flights left out;
- crew.csv: who is rostered on a sample of those flights (flight id, crew id, name, rank);
- airports.csv: the served airports (IATA, city, time zone).
The airline is generated exactly as `python -m bench.reading` generates it (load factor 0.05, its own seed).
"""

from __future__ import annotations

import argparse
import csv
import random
from pathlib import Path

from skymarshal.data.generator import GeneratorConfig, generate
from skymarshal.models.operational import CrewDuty, CrewMember

from ..airline_view import view_of

HERE = Path(__file__).parent
CREW_SAMPLE = 40  # flights whose crew is listed: enough for crew-member reports, small enough to read


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--days", type=int, default=2)
    args = parser.parse_args(argv)
    airline = generate(GeneratorConfig(load_factor=0.05))
    view = view_of(airline)
    days = view.days[: args.days]
    flights = [f for d in days for f in view.by_day[d]]
    with open(HERE / "airline.csv", "w", newline="") as out:
        w = csv.writer(out)
        w.writerow(
            [
                "flight_id",
                "flight_number",
                "date_local",
                "origin",
                "destination",
                "std_utc",
                "sta_utc",
                "registration",
                "aircraft_type",
            ]
        )
        for f in flights:
            w.writerow(
                [
                    f.flight_id,
                    f.flight_number,
                    f.flight_date.isoformat(),
                    f.origin,
                    f.destination,
                    f"{f.scheduled_departure:%Y-%m-%dT%H:%MZ}",
                    f"{f.scheduled_arrival:%Y-%m-%dT%H:%MZ}",
                    f.aircraft_registration,
                    f.aircraft_type,
                ]
            )
    members = {m.crew_id: m for m in airline.tables["CrewMembers"] if isinstance(m, CrewMember)}
    sample = {f.flight_id for f in random.Random(730).sample(flights, k=min(CREW_SAMPLE, len(flights)))}
    rows = sorted(
        (d.flight_id, d.position, d.crew_id)
        for d in airline.tables["CrewRoster"]
        if isinstance(d, CrewDuty) and d.kind == "FLIGHT" and d.flight_id in sample and d.position
    )
    with open(HERE / "crew.csv", "w", newline="") as out:
        w = csv.writer(out)
        w.writerow(["flight_id", "rank", "crew_id", "name"])
        for flight_id, rank, crew_id in rows:
            w.writerow([flight_id, rank, crew_id, members[crew_id].name if crew_id in members else ""])
    with open(HERE / "airports.csv", "w", newline="") as out:
        w = csv.writer(out)
        w.writerow(["iata", "city", "time_zone"])
        for iata in view.served:
            w.writerow([iata, view.airports[iata].city, view.airports[iata].tz])
    print(f"{len(flights)} flights over {', '.join(map(str, days))}; crew of {len(sample)} flights ({len(rows)} rows)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
