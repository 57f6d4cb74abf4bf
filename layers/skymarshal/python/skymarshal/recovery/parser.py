"""Read a ROADEF 2009 instance folder (and a solution written beside it) into the pydantic models.

Every file is whitespace separated and ends at the first line starting with '#'. Any malformed line is
reported as an InstanceError naming the file and line, so the CLI can print it on one line.
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

from .model import (
    CABINS,
    MINUTES_PER_DAY,
    Aircraft,
    Airport,
    CapacityWindow,
    CostConfig,
    DatedFlightRef,
    Instance,
    Itinerary,
    Leg,
    Maintenance,
    PositionRequirement,
    ReducedCapacity,
    Route,
    ScheduledFlight,
    Solution,
    SolutionFlight,
    SolutionItinerary,
    Unavailability,
)

INSTANCE_FILES = (
    "config.csv",
    "airports.csv",
    "dist.csv",
    "flights.csv",
    "aircraft.csv",
    "rotations.csv",
    "itineraries.csv",
    "position.csv",
    "alt_flights.csv",
    "alt_aircraft.csv",
    "alt_airports.csv",
)


class InstanceError(ValueError):
    """An instance or solution file that cannot be read; the message names the file and line."""


def _rows(path: Path) -> list[tuple[int, list[str]]]:
    try:
        text = path.read_text()
    except OSError as exc:
        raise InstanceError(f"cannot read {path}: {exc.strerror}") from None
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("#"):
            break
        fields = line.split()
        if fields:
            rows.append((number, fields))
    return rows


def parse_date(text: str) -> date:
    return datetime.strptime(text, "%d/%m/%y").date()


def clock(text: str) -> int:
    """'HH:MM' or 'HH:MM+N' -> minutes (N days added)."""
    days = 0
    if "+" in text:
        text, extra = text.split("+")
        days = int(extra)
    hours, minutes = text.split(":")
    return int(hours) * 60 + int(minutes) + days * MINUTES_PER_DAY


class _Reader:
    """Parses one folder; keeps day 0 so every date becomes a day index."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.day0: date | None = None

    def rows(self, name: str) -> list[tuple[int, list[str]]]:
        return _rows(self.folder / name)

    def fail(self, name: str, line: int, what: str) -> InstanceError:
        return InstanceError(f"{self.folder / name}:{line}: {what}")

    def day(self, text: str) -> int:
        assert self.day0 is not None, "config() runs first (instance and read_solution): it sets day 0"
        return (parse_date(text) - self.day0).days

    def moment(self, day_text: str, clock_text: str) -> int:
        return self.day(day_text) * MINUTES_PER_DAY + clock(clock_text)

    def config(self) -> CostConfig:
        rows = self.rows("config.csv")
        if len(rows) < 7:
            raise self.fail(
                "config.csv", len(rows), "expected 7 lines (window, 3 cost tables, downgrades, penalties, weights)"
            )
        window = rows[0][1]
        self.day0 = parse_date(window[0])
        tables = [_keyed(rows[i][1], 2) for i in (1, 2, 3)]
        downgrade = _keyed(rows[4][1], 3)
        family, model, config = (float(x) for x in rows[5][1][:3])
        alpha, beta, gamma = (float(x) for x in rows[6][1][:3])
        return CostConfig(
            window_start=self.moment(window[0], window[1]),
            window_end=self.moment(window[2], window[3]),
            delay_per_minute=tables[0],
            outbound_cancellation=tables[1],
            inbound_cancellation=tables[2],
            downgrade=downgrade,
            penalty_family=family,
            penalty_model=model,
            penalty_config=config,
            alpha=alpha,
            beta=beta,
            gamma=gamma,
        )

    def airports(self) -> dict[str, Airport]:
        airports = {}
        for line, f in self.rows("airports.csv"):
            if (len(f) - 1) % 4:
                raise self.fail("airports.csv", line, "expected airport then groups of 'departures arrivals start end'")
            windows = []
            for i in range(1, len(f), 4):
                end = clock(f[i + 3]) or MINUTES_PER_DAY  # 00:00 as an end means midnight
                windows.append(
                    CapacityWindow(departures=int(f[i]), arrivals=int(f[i + 1]), start=clock(f[i + 2]), end=end)
                )
            airports[f[0]] = Airport(code=f[0], daily=tuple(windows))
        return airports

    def instance(self) -> Instance:
        for name in INSTANCE_FILES:
            if not (self.folder / name).is_file():
                raise InstanceError(f"{self.folder} is not a ROADEF 2009 instance: {name} is missing")
        return self.reported(self._instance, "instance")

    def reported(self, read, what: str):
        """Run a reader; a malformed field becomes one InstanceError naming the folder."""
        try:
            return read()
        except InstanceError:
            raise
        except (ValueError, IndexError, KeyError) as exc:
            raise InstanceError(f"{self.folder}: malformed {what} ({type(exc).__name__}: {exc})") from None

    def _instance(self) -> Instance:
        config = self.config()
        flights = {}
        for _, f in self.rows("flights.csv"):
            departure, arrival = clock(f[3]), clock(f[4])
            flights[int(f[0])] = ScheduledFlight(
                number=int(f[0]),
                origin=f[1],
                destination=f[2],
                departure=departure,
                duration=arrival - departure,
                previous=int(f[5]),
            )
        aircraft = {}
        for _, f in self.rows("aircraft.csv"):
            seats = dict(zip(CABINS, (int(x) for x in f[3].split("/"))))
            aircraft[f[0]] = Aircraft(
                id=f[0],
                model=f[1],
                family=f[2],
                seats=seats,
                range=int(f[4]),
                cost_per_hour=float(f[5]),
                turn_round=int(f[6]),
                transit=int(f[7]),
                initial_airport=f[8],
                maintenance=self._maintenance(f[9] if len(f) > 9 else "NULL"),
            )
        delays, cancellations = {}, set()
        for _, f in self.rows("alt_flights.csv"):
            key = (int(f[0]), self.day(f[1]))
            if int(f[2]) < 0:
                cancellations.add(key)
            else:
                delays[key] = int(f[2])
        return Instance(
            name=self.folder.name,
            day0=self.day0,
            config=config,
            airports=self.airports(),
            routes={(f[0], f[1]): Route(duration=int(f[2]), haul=f[3]) for _, f in self.rows("dist.csv")},
            flights=flights,
            aircraft=aircraft,
            rotations=tuple(
                (DatedFlightRef(number=int(f[0]), day=self.day(f[1])), f[2]) for _, f in self.rows("rotations.csv")
            ),
            itineraries=tuple(self._itinerary(f) for _, f in self.rows("itineraries.csv")),
            positions=tuple(self._positions()),
            imposed_delays=delays,
            imposed_cancellations=frozenset(cancellations),
            unavailabilities=tuple(
                Unavailability(aircraft=f[0], start=self.moment(f[1], f[2]), end=self.moment(f[3], f[4]))
                for _, f in self.rows("alt_aircraft.csv")
            ),
            reduced_capacities=tuple(
                ReducedCapacity(
                    airport=f[0],
                    window=CapacityWindow(
                        start=self.moment(f[1], f[2]),
                        end=self.moment(f[3], f[4]),
                        departures=int(f[5]),
                        arrivals=int(f[6]),
                    ),
                )
                for _, f in self.rows("alt_airports.csv")
            ),
        )

    def _maintenance(self, text: str) -> Maintenance | None:
        if text == "NULL":
            return None
        airport, start_day, start_clock, end_day, end_clock, limit = text.split("-")
        return Maintenance(
            airport=airport,
            start=self.moment(start_day, start_clock),
            end=self.moment(end_day, end_clock),
            flying_limit=int(limit),
        )

    def _itinerary(self, f: list[str]) -> Itinerary:
        return Itinerary(id=int(f[0]), kind=f[1], price=float(f[2]), passengers=int(f[3]), legs=self._legs(f[4:]))

    def _legs(self, f: list[str]) -> tuple[Leg, ...]:
        return tuple(Leg(number=int(f[i]), day=self.day(f[i + 1]), cabin=f[i + 2]) for i in range(0, len(f), 3))

    def _positions(self):
        for _, f in self.rows("position.csv"):
            fields = [x for x in f[1:] if x != "#"]
            for i in range(0, len(fields), 3):
                yield PositionRequirement(airport=f[0], model=fields[i], config=fields[i + 1], count=int(fields[i + 2]))

    def solution(self) -> Solution:
        flights = []
        for line, f in self.rows("sol_rotations.csv"):
            if len(f) != 8:
                raise self.fail(
                    "sol_rotations.csv", line, "expected 'flight origin destination dep arr previous date aircraft'"
                )
            day = self.day(f[6])
            base = day * MINUTES_PER_DAY
            flights.append(
                SolutionFlight(
                    number=int(f[0]),
                    origin=f[1],
                    destination=f[2],
                    departure=base + clock(f[3]),
                    arrival=base + clock(f[4]),
                    previous=int(f[5]),
                    day=day,
                    aircraft=None if f[7] == "cancelled" else f[7],
                )
            )
        itineraries = []
        for _line, f in self.rows("sol_itineraries.csv"):
            legs = () if f[4:] == ["cancelled"] else self._legs(f[4:])
            itineraries.append(
                SolutionItinerary(id=int(f[0]), kind=f[1], price=float(f[2]), passengers=int(f[3]), legs=legs)
            )
        return Solution(flights=tuple(flights), itineraries=tuple(itineraries))


def _keyed(fields: list[str], width: int) -> dict[str, float]:
    """'F D 1.25 F C 1.25 ...' -> {"FD": 1.25, ...}; width counts the key fields plus the value."""
    step = width + 1
    return {"".join(fields[i : i + width]): float(fields[i + width]) for i in range(0, len(fields), step)}


def read_instance(folder: Path | str) -> Instance:
    folder = Path(folder)
    if not folder.is_dir():
        raise InstanceError(f"{folder} is not a directory; pass a ROADEF 2009 instance folder such as .../A01")
    return _Reader(folder).instance()


def read_solution(instance_folder: Path | str, solution_folder: Path | str | None = None) -> Solution:
    """The sol_*.csv files in solution_folder (default: the instance folder), dates read against day 0."""
    reader = _Reader(Path(instance_folder))
    reader.config()
    reader.folder = Path(solution_folder or instance_folder)
    return reader.reported(reader.solution, "solution")
