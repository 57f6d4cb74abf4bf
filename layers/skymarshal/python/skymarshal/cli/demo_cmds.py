"""`skymarshal demo`: the airline in numbers, and the three demo flights looked up through the GSIs."""

from __future__ import annotations

from collections import Counter

from ..data import queries as q
from ..data.generator import GeneratorConfig, demo_situations
from ..local import control


def register(commands) -> None:
    demo = commands.add_parser("demo", help="summarise the local airline and look up the demo flights")
    demo.set_defaults(run=_demo)


def _demo(args) -> int:
    with control.account(allow_temporary=True) as account:
        seeded = account.seed_info()
        config = GeneratorConfig(**seeded["config"]) if seeded else GeneratorConfig()
        counts = seeded["counts"] if seeded else {}
        handle = account.handle()
        print(f"SkyMarshal local airline (seed {config.seed}, {config.start} to {config.end})")
        if seeded and seeded.get("schedule"):
            print(f"  flights from the SSIM schedule {seeded['schedule']}")
        fleet: Counter[str] = Counter()
        for type_code in ("A320", "A321", "B789", "B78X", "B77W", "A35K"):
            days = q.fleet_of_type(handle, type_code, config.start)
            fleet[type_code] = len(days)
        print(f"  fleet: {sum(fleet.values())} aircraft — " + ", ".join(f"{n} {t}" for t, n in fleet.items()))
        if counts:
            print(
                f"  flights: {counts.get('flights', 0)} ({counts.get('flights', 0) / config.days:.0f} a day)"
                f" · bookings: {counts.get('bookings', 0)} · passengers: {counts.get('passengers', 0)}"
                f" · crew: {counts.get('CrewMembers', 0)} · bags: {counts.get('Baggage', 0)}"
                f" · cargo shipments: {counts.get('CargoShipments', 0)}"
            )
        print("Demo situations (looked up through flight-number-date-index):")
        for situation in demo_situations(config):
            flight = q.find_flight(handle, situation.flight_number, situation.flight_date)
            if flight is None:
                print(f"  {situation.flight_number} {situation.flight_date}: not found")
                continue
            crew = q.crew_assignments(handle, flight.flight_id)
            pax = sum(flight.booked.values())
            print(
                f"  [{situation.key}] {flight.flight_id} {flight.origin}→{flight.destination} "
                f"dep {flight.scheduled_departure:%Y-%m-%d %H:%MZ} {flight.aircraft_type} {flight.aircraft_registration}"
                f" · {flight.status} · {pax} passengers · {len(crew)} crew"
            )
            print(f'      prompt: "{situation.prompt}"\n      expected: {situation.expected}')
    return 0
