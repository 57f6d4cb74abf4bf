"""The hindsight's repertoire beyond the greedy baseline's — the answers SkyMarshal's generator gives, so that no
on-line policy's action is outside the bound: a rescue aircraft (a spare swapped in where it stands, or ferried in
with a legal ferry crew and reserves on the ferry, the ferry written as execution writes it and costed by its block
minutes), a late tail's next block handed to a spare, a reserve in place of a crew member out. No AWS: a
hand-built airline."""

from __future__ import annotations

import dataclasses
from datetime import date, timedelta

from day_rows import F1, F2, state, utc
from row_builders import flight, flight_duty
from test_legal_baselines import crewed, hold, member, standby

from skymarshal.day.baselines import event_options
from skymarshal.day.crew_cover import StandbyIndex
from skymarshal.day.foresight import foresight_day
from skymarshal.day.handover import handovers
from skymarshal.day.realize import DayState, realize
from skymarshal.day.rescue import rescues
from skymarshal.day.scorecard import illegal_members, score
from skymarshal.day.stream import StreamEvent
from skymarshal.models.fleet import AIRCRAFT_TYPES
from skymarshal.models.operational import AircraftDay, LandingRecord
from skymarshal.rules import finance
from skymarshal.rules.ferry import ferry_departure, ferry_minutes
from skymarshal.rules.standby import POSITIONING_CONNECTION, REPORT_BEFORE_DEPARTURE

DAY = date(2027, 1, 20)
SPARE = AircraftDay(
    aircraft_registration="A6-BLS", date=DAY, aircraft_type="B789", status="SPARE", station="AUH", capacity={}
)


def pilots(station: str = "AUH", ranks: tuple[str, ...] = ("CPT", "FO")) -> DayState:
    """The hand-built day with F2 FRA-AUH 17:30 on A6-BLA, and pilots of `ranks` on standby at `station` all day."""
    tables = state()
    rows, members = dict(tables.rosters), dict(tables.members)
    for n, rank in enumerate(ranks):
        crew_id = f"P{n}"
        rows[crew_id] = [standby(crew_id, station, 4, 16)]
        landings = [LandingRecord(aircraft_type="B789", at=utc(2027, 1, 10 + k, 8)) for k in range(3)]  # recency
        members[crew_id] = member(crew_id, station).model_copy(update={"rank": rank, "recent_landings": landings})
    return dataclasses.replace(tables, rosters=rows, members=members)


def aog_at_fra(hours: int = 30) -> StreamEvent:
    """A6-BLA grounded at FRA from 12:00 for `hours` (F2's flight)."""
    at = utc(2027, 1, 20, 12)
    return StreamEvent(
        event_id="E-aog",
        at=at,
        holds="tail",
        family="technical",
        cause="technical",
        history_type="mechanical",
        flight_id=F2.flight_id,
        registration="A6-BLA",
        start=at,
        end=at + timedelta(hours=hours),
        report="F2 AOG at FRA",
    )


def test_a_spare_is_ferried_in_with_a_ferry_crew_and_takes_the_grounded_tails_flights():
    tables, e = pilots(), aog_at_fra()
    (rescued,) = rescues(tables, [e], e, F2, [SPARE], StandbyIndex(tables.rosters), "test")
    ferry = rescued.flights["F2-FERRY"]
    assert rescued.added_legs == {"F2-FERRY"}
    assert (ferry.origin, ferry.destination, ferry.aircraft_registration) == ("AUH", "FRA", "A6-BLS")
    assert ferry.scheduled_departure == ferry_departure(e.at) > e.at
    assert ferry.block_minutes == ferry_minutes("AUH", "FRA", "B789")
    assert {r.position for r in rescued.crew_on["F2-FERRY"]} == {"CPT", "FO"}
    assert rescued.flights["F2"].aircraft_registration == "A6-BLS"
    timings = realize(rescued, [e])
    turn = timedelta(minutes=AIRCRAFT_TYPES["B789"].min_turn_minutes)
    assert timings["F2"].departure == max(F2.scheduled_departure, ferry.scheduled_arrival + turn)
    card, waited = score("rescue", rescued, [e], [DAY]), score("wait", tables, [e], [DAY])
    assert card.rotation_breaks == 0 and card.flights == waited.flights
    assert card.passenger_delay_minutes < waited.passenger_delay_minutes
    assert card.operating_cost_usd >= finance.ferry_cost(ferry.block_minutes).amount_usd


def test_no_rescue_without_a_captain_and_a_first_officer_on_standby_where_the_spare_is():
    e = aog_at_fra()
    for tables in (pilots(ranks=("CPT",)), pilots(station="FRA"), state()):
        assert rescues(tables, [e], e, F2, [SPARE], StandbyIndex(tables.rosters), "test") == []


def test_a_spare_where_the_flight_leaves_is_swapped_in_without_a_ferry_and_none_flying_or_of_another_type_is():
    tables, e = pilots(ranks=()), aog_at_fra()  # no ferry crew anywhere: a swap needs none
    index = StandbyIndex(tables.rosters)
    (swapped,) = rescues(tables, [e], e, F2, [SPARE.model_copy(update={"station": "FRA"})], index, "test")
    assert not swapped.added_legs and swapped.flights["F2"].aircraft_registration == "A6-BLS"
    assert realize(swapped, [e])["F2"].departure == F2.scheduled_departure
    flying = SPARE.model_copy(update={"aircraft_registration": F1.aircraft_registration, "station": "FRA"})
    narrow = SPARE.model_copy(update={"aircraft_type": "A320", "station": "FRA"})
    for spare in (flying, narrow):
        assert rescues(tables, [e], e, F2, [spare], index, "test") == [], spare


def test_the_greedy_baseline_is_offered_no_rescue_and_the_planner_who_knows_the_day_takes_it():
    tables, e = pilots(), aog_at_fra()
    assert not any(s.added_legs for s in event_options(tables, [e], e))
    day = foresight_day(tables, [e], [DAY], spares=[SPARE])
    assert day.added_legs == {"F2-FERRY"} and day.flights["F2"].aircraft_registration == "A6-BLS"
    short = aog_at_fra(hours=1)  # released before the ferry could land: waiting is the cheaper day
    assert not foresight_day(tables, [short], [DAY], spares=[SPARE]).added_legs


def test_a_member_the_rescues_wait_makes_illegal_is_replaced_by_a_reserve_travelling_on_the_ferry():
    """BAH-AUH grounded at Bahrain; its first officer's next duty reports 13 h 05 after release, so the rescue's
    wait leaves them short of rest (ORO.FTL.235): a first officer on standby at AUH flies out on the ferry."""
    out = flight("EY5", "AUH", "BAH", utc(2027, 1, 20, 6), 90, "A6-BLA", flight_id="G1")
    back = flight("EY6", "BAH", "AUH", utc(2027, 1, 20, 9), 90, "A6-BLA", flight_id="G2")  # before the ferry leaves
    later = flight("EY7", "AUH", "BAH", utc(2027, 1, 20, 11, 30) + timedelta(hours=13, minutes=50), 90, "A6-BLB",
                   flight_id="G3")  # fmt: skip
    rows = {
        "C1": [flight_duty("C1", back, "FO", aircraft_type="B789", block_minutes=90, pilots_on_board=2),
               flight_duty("C1", later, "FO", aircraft_type="B789", block_minutes=90, pilots_on_board=2,
                           duty_id="D-C1-next")],
    }  # fmt: skip
    tables = pilots(ranks=("CPT", "FO", "FO"))
    members = {**tables.members, "C1": member("C1").model_copy(update={"rank": "FO"})}
    onward = flight("EY9", "AUH", "MCT", utc(2027, 1, 20, 12), 60, "A6-BLA", flight_id="G4")  # overtaken if not moved
    home = flight("EY10", "MCT", "AUH", utc(2027, 1, 20, 14), 60, "A6-BLA", flight_id="G5")
    flights = {f.flight_id: f for f in (out, back, later, onward, home)}
    tables = dataclasses.replace(
        tables,
        flights=flights,
        bookings=[],
        crew_on={"G2": rows["C1"][:1], "G3": rows["C1"][1:]},
        rosters={**tables.rosters, **rows},
        members=members,
        original_tails={k: f.aircraft_registration for k, f in flights.items()},
    )
    at = utc(2027, 1, 20, 8)
    e = StreamEvent(event_id="E-bah", at=at, holds="tail", family="technical", cause="technical",
                    history_type="mechanical", flight_id="G2", registration="A6-BLA", start=at,
                    end=at + timedelta(hours=20), report="EY6 AOG at BAH")  # fmt: skip
    (rescued,) = rescues(tables, [e], e, back, [SPARE], StandbyIndex(tables.rosters), "test")
    on_board = {r.crew_id for r in rescued.crew_on["G2"]}
    assert on_board == {"P2"}, on_board  # P0 and P1 fly the ferry, their standby ended at its call-out
    assert not illegal_members(rescued, back, realize(rescued, [e])["G2"].departure)
    ferry = rescued.flights["G2-FERRY"]
    assert (
        realize(rescued, [e])["G2"].departure
        >= ferry.scheduled_arrival + POSITIONING_CONNECTION + REPORT_BEFORE_DEPARTURE
    )
    assert {rescued.flights[x].aircraft_registration for x in ("G2", "G4", "G5")} == {"A6-BLS"}
    card = score("rescue", rescued, [e], [DAY])  # the flight written after the ferry, its next legs behind it
    assert (card.rotation_breaks, card.crew_violations) == (0, 0), card.rotation_break_notes


def test_a_late_tails_next_block_from_where_a_spare_stands_is_handed_to_it():
    """F1 AUH-FRA held until 14:00 brings its tail back to AUH after 03:00, past its next departure there (F8 at
    01:00): a spare at AUH flies F8 and F9, the block back to AUH, on time; a spare elsewhere or in service, none."""
    tables = state()
    f8 = flight("EY208", "AUH", "BOM", utc(2027, 1, 21, 1), 180, "A6-BLA", flight_id="F8")
    f9 = flight("EY209", "BOM", "AUH", utc(2027, 1, 21, 5), 180, "A6-BLA", flight_id="F9")
    tables.flights |= {"F8": f8, "F9": f9}
    e = StreamEvent(event_id="E-hold", at=utc(2027, 1, 20, 8), holds="flight", family="other", cause="other",
                    history_type="other", flight_id="F1", start=utc(2027, 1, 20, 8), end=utc(2027, 1, 20, 14),
                    report="F1 held")  # fmt: skip
    spare = SPARE.model_copy(update={"date": date(2027, 1, 21)})
    (handed,) = handovers(tables, [e], F1, [spare], "test")
    assert {fid for fid, x in handed.flights.items() if x.aircraft_registration == "A6-BLS"} == {"F8", "F9"}
    waited, card = realize(tables, [e]), realize(handed, [e])
    assert waited["F8"].departure > f8.scheduled_departure and card["F8"].departure == f8.scheduled_departure
    assert score("h", handed, [e], [DAY]).rotation_breaks == 0
    # the knock-on already written as the tail's re-timing (a crew answer's): handed over, F8 flies at its schedule
    written = f8.model_copy(
        update={"estimated_departure": waited["F8"].departure, "estimated_arrival": waited["F8"].arrival}
    )
    tables.flights["F8"] = written
    (handed,) = handovers(tables, [e], F1, [spare], "test")
    assert realize(handed, [e])["F8"].departure == f8.scheduled_departure
    assert handovers(tables, [e], F1, [spare.model_copy(update={"station": "FRA"})], "test") == []
    assert handovers(tables, [e], F1, [spare.model_copy(update={"status": "IN_SERVICE"})], "test") == []


def test_a_crew_member_out_is_replaced_by_a_reserve_on_standby_in_the_hindsights_repertoire_not_greedys():
    tables = crewed(reserves=1, reserve_start=6)  # R0 on standby at AUH from 06:00
    sick = hold("crew", 5 * 60, at_hour=7)  # F1's crew (C1) out until 15:00; F1 leaves AUH at 10:00
    options = event_options(tables, [sick], sick, [SPARE], StandbyIndex(tables.rosters))
    (covered,) = [s for s in options if "R0" in {r.crew_id for r in s.crew_on.get("F1", ())}]
    assert "C1" not in {r.crew_id for r in covered.crew_on["F1"]}
    assert realize(covered, [sick])["F1"].departure == F1.scheduled_departure
    assert score("r", covered, [sick], [DAY]).crew_violations == 0
    assert not any("R0" in {r.crew_id for r in s.crew_on.get("F1", ())} for s in event_options(tables, [sick], sick))


def test_the_reserve_in_place_of_a_member_out_flies_the_rest_of_their_duty():
    """C1 rostered AUH-BAH-AUH in one duty and out sick for the first sector: the reserve takes both sectors (the
    duty it was checked on), and C1 is on neither."""
    out = flight("EY5", "AUH", "BAH", utc(2027, 1, 20, 9), 90, "A6-BLA", flight_id="G1")
    back = flight("EY6", "BAH", "AUH", utc(2027, 1, 20, 11, 30), 90, "A6-BLA", flight_id="G2")
    report, release = out.scheduled_departure - timedelta(minutes=75), back.scheduled_arrival + timedelta(minutes=30)
    duty = [
        flight_duty("C1", x, "FO", aircraft_type="B789", block_minutes=90, pilots_on_board=2, duty_id="D-C1",
                    sectors=2).model_copy(update={"duty_start": report, "duty_end": release})
        for x in (out, back)
    ]  # fmt: skip
    tables = pilots(ranks=("FO",))
    tables = dataclasses.replace(
        tables,
        flights={"G1": out, "G2": back},
        bookings=[],
        crew_on={"G1": duty[:1], "G2": duty[1:]},
        rosters={**tables.rosters, "C1": duty},
        members={**tables.members, "C1": member("C1").model_copy(update={"rank": "FO"})},
        original_tails={"G1": "A6-BLA", "G2": "A6-BLA"},
    )
    at = utc(2027, 1, 20, 6)
    sick = StreamEvent(event_id="E-sick", at=at, holds="crew", family="crew", cause="crew", history_type="crew",
                       flight_id="G1", crew_ids=("C1",), start=at, end=at + timedelta(hours=8),
                       report="EY5 FO sick")  # fmt: skip
    options = event_options(tables, [sick], sick, [SPARE], StandbyIndex(tables.rosters))
    (covered,) = [s for s in options if "P0" in {r.crew_id for r in s.crew_on.get("G1", ())}]
    assert [{r.crew_id for r in covered.crew_on[g]} for g in ("G1", "G2")] == [{"P0"}, {"P0"}]
    assert score("r", covered, [sick], [DAY]).crew_violations == 0
