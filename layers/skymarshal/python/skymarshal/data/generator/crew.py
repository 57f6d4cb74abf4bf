"""Crew members and the roster: pairings, duty assignment, standby reserves and 28 days of history.

Short round trips are one two-sector duty; longer ones are layover pairings (out, rest away from base,
back). Pairings are crewed in time order from the base pool, each position by the member who has been
available longest, never before their rest is complete and never over 55 h of duty in 7 days or 95 h of flight time in 28, so the
generated roster is legal; the rules engine checks that in the tests rather than trusting it here.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ...models.fleet import AIRCRAFT_TYPES
from ...models.operational import CrewDuty, CrewMember, Flight, LandingRecord
from .config import GeneratorConfig, local_to_utc
from .names import person_name
from .network import HUB

REPORT_BEFORE = {True: 60, False: 75}  # minutes before departure; narrowbody / widebody
POST_FLIGHT = 30  # minutes from on-blocks to release
MAX_TWO_PILOT_FDP = 11 * 60  # lowest 2-sector EASA limit: a two-pilot duty planned under it is legal at any start
MAX_THREE_PILOT_FDP = 15 * 60 + 30  # planning margin under 16:00 (one extra pilot, class 1 rest)
WEEKLY_PLANNING_CAP = 55 * 60  # minutes of duty in any 7 days, planning margin under ORO.FTL.210(a)'s 60 h
FLIGHT_TIME_28D_CAP = 95 * 60  # minutes of flight time in any 28 days, margin under ORO.FTL.210(b)(1)'s 100 h
RESERVE_POOL = {  # standby crew per rating group and rank, split over three standby rotations
    "A320": {"CPT": 6, "FO": 6, "CD": 3, "CA": 15},
    "B787": {"CPT": 6, "FO": 9, "CD": 6, "CA": 33},
    "B777": {"CPT": 6, "FO": 9, "CD": 6, "CA": 36},
    "A350": {"CPT": 3, "FO": 6, "CD": 3, "CA": 24},
}
STANDBY_SHIFTS = (("05:00", 12), ("17:00", 12))  # hub local start, hours


@dataclass
class Duty:
    sectors: list[Flight]
    report: datetime
    fdp_end: datetime
    release: datetime

    @property
    def minutes(self) -> int:
        return int((self.release - self.report).total_seconds() // 60)


@dataclass
class Pairing:
    duties: list[Duty]
    rating_group: str
    pilots: int
    cabin: int

    @property
    def start_station(self) -> str:
        return self.duties[0].sectors[0].origin


@dataclass
class Member:
    profile: CrewMember
    available_at: datetime
    station: str
    duties: list[list[Any]] = field(default_factory=list)  # [report, release, block minutes], history included

    def duty_minutes_between(self, start: datetime, end: datetime) -> int:
        return sum(
            int((min(e, end) - max(s, start)).total_seconds() // 60) for s, e, _ in self.duties if e > start and s < end
        )

    def flight_minutes_touching(self, start: datetime, end: datetime) -> int:
        """Block time of every duty that touches [start, end) — counted whole, as the rules engine does."""
        return sum(block for s, e, block in self.duties if e > start and s < end)


def make_duty(sectors: list[Flight]) -> Duty:
    narrow = sectors[0].aircraft_type in ("A320", "A321")
    report = sectors[0].scheduled_departure - timedelta(minutes=REPORT_BEFORE[narrow])
    fdp_end = sectors[-1].scheduled_arrival
    return Duty(sectors, report, fdp_end, fdp_end + timedelta(minutes=POST_FLIGHT))


def rest_after(duty_minutes: int, at_base: bool) -> timedelta:
    """ORO.FTL.235: at base max(duty, 12 h); away max(duty, 10 h)."""
    return timedelta(minutes=max(duty_minutes, (12 if at_base else 10) * 60))


def build_pairings(flights: list[Flight]) -> list[Pairing]:
    by_route: dict[tuple[str, str], list[Flight]] = {}
    for f in flights:
        if f.destination == HUB:
            by_route.setdefault((f.origin, AIRCRAFT_TYPES[f.aircraft_type].rating_group), []).append(f)
    returns = {key: sorted(v, key=lambda f: f.scheduled_departure) for key, v in by_route.items()}
    used: set[str] = set()
    pairings: list[Pairing] = []
    outbound = sorted((f for f in flights if f.origin == HUB), key=lambda f: f.scheduled_departure)
    by_tail: dict[str, list[Flight]] = {}
    for f in flights:
        by_tail.setdefault(f.aircraft_registration, []).append(f)
    for out in outbound:
        group = AIRCRAFT_TYPES[out.aircraft_type].rating_group
        t = AIRCRAFT_TYPES[out.aircraft_type]
        tail_legs = sorted(by_tail[out.aircraft_registration], key=lambda f: f.scheduled_departure)
        same_tail_back = next((f for f in tail_legs if f.scheduled_departure > out.scheduled_departure), None)
        turnaround = make_duty([out, same_tail_back]) if same_tail_back else None
        if (
            turnaround
            and same_tail_back
            and turnaround.fdp_end - turnaround.report <= timedelta(minutes=MAX_TWO_PILOT_FDP)
        ):
            used.add(same_tail_back.flight_id)
            pairings.append(Pairing([turnaround], group, 2, t.cabin_crew))
            continue
        first = make_duty([out])
        earliest_report = first.release + rest_after(first.minutes, at_base=False)
        back = next(
            (
                f
                for f in returns.get((out.destination, group), ())
                if f.flight_id not in used
                and f.scheduled_departure - timedelta(minutes=REPORT_BEFORE[False]) >= earliest_report
            ),
            None,
        )
        duties = [first]
        if back is not None:
            used.add(back.flight_id)
            duties.append(make_duty([back]))
        pairings.append(Pairing(duties, group, _pilots(duties), t.cabin_crew))
    for key, legs in returns.items():  # returns whose crews flew out before the window
        for back in legs:
            if back.flight_id not in used:
                duty = make_duty([back])
                pairings.append(Pairing([duty], key[1], _pilots([duty]), AIRCRAFT_TYPES[back.aircraft_type].cabin_crew))
    pairings.sort(key=lambda p: p.duties[0].report)
    return pairings


def _pilots(duties: list[Duty]) -> int:
    longest = max(d.fdp_end - d.report for d in duties)
    if longest <= timedelta(minutes=MAX_TWO_PILOT_FDP):
        return 2
    return 3 if longest <= timedelta(minutes=MAX_THREE_PILOT_FDP) else 4


def positions(pairing: Pairing) -> list[str]:
    captains = 2 if pairing.pilots == 4 else 1
    return ["CPT"] * captains + ["FO"] * (pairing.pilots - captains) + ["CD"] + ["CA"] * (pairing.cabin - 1)


class Roster:
    """Builds members and CrewRoster rows; deterministic for the rng it is given."""

    def __init__(self, config: GeneratorConfig, rng: random.Random):
        self.config, self.rng = config, rng
        self.window_start = local_to_utc(config.start, "00:00", "Asia/Dubai")
        self.members: list[Member] = []
        self.rows: list[CrewDuty] = []
        self.pools: dict[tuple[str, str, str], list[tuple[datetime, int]]] = {}

    def hire(self, rank: str, group: str, station: str, reserve: bool = False) -> Member:
        index = len(self.members)
        crew_id = f"C{index + 1:05d}"
        types = [code for code, t in AIRCRAFT_TYPES.items() if t.rating_group == group]
        landings = []
        if rank in ("CPT", "FO"):
            for _ in range(self.rng.randint(3, 6)):
                at = self.window_start - timedelta(days=self.rng.randint(2, 60), minutes=self.rng.randint(0, 1439))
                landings.append(LandingRecord(aircraft_type=self.rng.choice(types), at=at))
            landings.sort(key=lambda r: r.at)
        profile = CrewMember(
            crew_id=crew_id,
            name=person_name(self.rng),
            rank=rank,
            base=HUB,
            type_ratings=[group],
            recent_landings=landings,
            reserve=reserve,
        )
        member = Member(profile, available_at=self.window_start - timedelta(days=30), station=station)
        self.members.append(member)
        self._history(member)
        return member

    def _history(self, member: Member) -> None:
        """Past duties over the 28 days before the window: the input of the cumulative limits."""
        at = self.window_start - timedelta(days=28) + timedelta(hours=self.rng.randint(0, 48))
        stop = self.window_start - timedelta(days=2)
        while at < stop:
            hours = self.rng.uniform(6, 13)
            end = at + timedelta(hours=hours)
            block = int(hours * 60 * 0.6)
            self._add_row(
                member,
                CrewDuty(
                    crew_id=member.profile.crew_id,
                    duty_key=f"{_z(at)}#HISTORY#",
                    duty_id=f"H-{member.profile.crew_id}-{_z(at)}",
                    kind="HISTORY",
                    duty_start=at,
                    duty_end=end,
                    fdp_end=end - timedelta(minutes=POST_FLIGHT),
                    start_station=HUB,
                    end_station=HUB,
                    sectors=self.rng.choice((1, 1, 2)),
                    block_minutes=block,
                ),
            )
            at = end + timedelta(hours=self.rng.uniform(40, 80))
        member.available_at = max(member.available_at, stop)

    def _add_row(self, member: Member, row: CrewDuty) -> None:
        self.rows.append(row)
        if row.kind == "FLIGHT" and member.duties and member.duties[-1][0] == row.duty_start:
            member.duties[-1][2] += row.block_minutes  # another sector of the same duty
        else:
            member.duties.append([row.duty_start, row.duty_end, row.block_minutes])

    def crew_pairing(self, pairing: Pairing) -> None:
        start = pairing.duties[0].report
        total = sum(d.minutes for d in pairing.duties)
        block = sum(f.block_minutes for d in pairing.duties for f in d.sectors)
        for rank in positions(pairing):
            member = self._take(rank, pairing.rating_group, pairing.start_station, start, total, block)
            self._fly(member, pairing, rank)

    def _take(self, rank: str, group: str, station: str, report: datetime, minutes: int, block: int) -> Member:
        heap = self.pools.setdefault((group, rank, station), [])
        skipped, chosen = [], None
        while heap and heap[0][0] <= report:
            item = heapq.heappop(heap)
            member = self.members[item[1]]
            week = member.duty_minutes_between(report - timedelta(days=7), report)
            flown = member.flight_minutes_touching(report - timedelta(days=28), report)
            if week + minutes <= WEEKLY_PLANNING_CAP and flown + block <= FLIGHT_TIME_28D_CAP:
                chosen = member
                break
            skipped.append(item)
        for item in skipped:
            heapq.heappush(heap, item)
        return chosen or self.hire(rank, group, station)

    def _fly(self, member: Member, pairing: Pairing, rank: str) -> None:
        for duty in pairing.duties:
            duty_id = f"D-{member.profile.crew_id}-{_z(duty.report)}"
            for sector in duty.sectors:
                self._add_row(
                    member,
                    CrewDuty(
                        crew_id=member.profile.crew_id,
                        duty_key=f"{_z(duty.report)}#{_z(sector.scheduled_departure)}#{sector.flight_id}",
                        duty_id=duty_id,
                        kind="FLIGHT",
                        duty_start=duty.report,
                        duty_end=duty.release,
                        fdp_end=duty.fdp_end,
                        start_station=duty.sectors[0].origin,
                        end_station=duty.sectors[-1].destination,
                        flight_id=sector.flight_id,
                        flight_number=sector.flight_number,
                        position=rank,
                        sector_departure=sector.scheduled_departure,
                        sector_arrival=sector.scheduled_arrival,
                        sectors=len(duty.sectors),
                        block_minutes=sector.block_minutes,
                        aircraft_type=sector.aircraft_type,
                        pilots_on_board=pairing.pilots,
                    ),
                )
        last = pairing.duties[-1]
        end_station = last.sectors[-1].destination
        member.station = end_station
        member.available_at = last.release + rest_after(last.minutes, at_base=end_station == HUB)
        if end_station == HUB:
            heapq.heappush(
                self.pools.setdefault((pairing.rating_group, rank, HUB), []), (member.available_at, _index(member))
            )

    def standby(self) -> None:
        """Reserve crew on home standby at the hub, in three rotations (morning, evening, off)."""
        for group, ranks in RESERVE_POOL.items():
            for rank, count in ranks.items():
                reserves = [self.hire(rank, group, HUB, reserve=True) for _ in range(count)]
                for i, member in enumerate(reserves):
                    for offset in range(self.config.days):
                        slot = (offset + i) % 3
                        if slot == 2:
                            continue
                        day = self.config.start + timedelta(days=offset)
                        hhmm, hours = STANDBY_SHIFTS[slot]
                        start = local_to_utc(day, hhmm, "Asia/Dubai")
                        self._add_row(
                            member,
                            CrewDuty(
                                crew_id=member.profile.crew_id,
                                duty_key=f"{_z(start)}#STANDBY#",
                                duty_id=f"S-{member.profile.crew_id}-{_z(start)}",
                                kind="STANDBY",
                                duty_start=start,
                                duty_end=start + timedelta(hours=hours),
                                start_station=HUB,
                                end_station=HUB,
                                standby_base_date=f"{HUB}#{day.isoformat()}",
                            ),
                        )


def _index(member: Member) -> int:
    """Position in Roster.members: crew ids are issued in hiring order."""
    return int(member.profile.crew_id[1:]) - 1


def _z(at: datetime) -> str:
    return at.strftime("%Y-%m-%dT%H:%M:%SZ")


def build_roster(
    config: GeneratorConfig, flights: list[Flight], rng: random.Random
) -> tuple[list[CrewMember], list[CrewDuty]]:
    roster = Roster(config, rng)
    roster.standby()
    for pairing in build_pairings(flights):
        roster.crew_pairing(pairing)
    return [m.profile for m in roster.members], roster.rows
