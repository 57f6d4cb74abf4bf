"""The operation board assembled from hand-built rows (views.board): what each flight shows, the blocks, the crew
shortfalls, the open runs as markers, the airport windows as bands, and the header from the replay's scorecard."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from board_rows import DAY, END, START, board, full_crew, quiet_card, run
from hypothesis import given
from hypothesis import strategies as st
from row_builders import aircraft_day, flight, flight_duty, utc, work_order

from skymarshal.models.disruption import Disruption, Scope, Window
from skymarshal.views.board import assemble, below_complement, blocks_of, change_of
from skymarshal.views.board_data import BoardRows, LiveDay, overlaps


def test_each_flight_says_what_happened_to_it_in_the_gantts_words():
    on_time = flight("EY1", dep=utc(2027, 1, 20, 6), block=120)
    late = flight("EY2", "FRA", "AUH", utc(2027, 1, 20, 9), block=120, estimated_departure=utc(2027, 1, 20, 9, 40))
    cancelled = flight("EY3", dep=utc(2027, 1, 20, 13), status="CANCELLED")
    diverted = flight("EY4", dep=utc(2027, 1, 20, 16), status="DIVERTED", diverted_to="DWC")
    swapped = flight("EY5", dep=utc(2027, 1, 20, 20), reg="A6-BLT")
    executed = run("ey5-swap", "executed", swaps={swapped.flight_id: "A6-BLA"})
    shown = {
        f.flight_number: f
        for r in board([on_time, late, cancelled, diverted, swapped], [executed]).rows
        for f in r.flights
    }
    assert {n: f.change for n, f in shown.items()} == {
        "EY1": "unchanged",
        "EY2": "delayed",
        "EY3": "cancelled",
        "EY4": "diverted",
        "EY5": "swapped_in",
    }
    assert shown["EY2"].delay_minutes == 40 and shown["EY2"].start == utc(2027, 1, 20, 9, 40)
    assert shown["EY2"].scheduled_departure == utc(2027, 1, 20, 9)
    assert shown["EY5"].swapped_from == "A6-BLA" and shown["EY4"].diverted_to == "DWC"


def test_a_swap_back_to_the_same_tail_is_not_drawn_as_a_swap():
    f = flight("EY5", dep=utc(2027, 1, 20, 20), reg="A6-BLA")
    assert change_of(f, "A6-BLA") == "unchanged"


def test_every_tail_of_the_day_is_a_row_even_one_that_does_not_fly():
    f = flight("EY1", dep=utc(2027, 1, 20, 6))
    spare = aircraft_day("A6-BLT", status="SPARE")
    shown = board([f], availability=[spare, aircraft_day("A6-BLA", status="IN_SERVICE")])
    assert [(r.registration, r.status, len(r.flights)) for r in shown.rows] == [
        ("A6-BLA", "IN_SERVICE", 1),
        ("A6-BLT", "SPARE", 0),
    ]
    assert shown.rows[1].label == "A6-BLT (B789)" and shown.rows[1].station == "AUH"


def test_aog_and_maintenance_blocks_come_from_availability_and_the_work_orders():
    grounded = aircraft_day("A6-BLQ", status="AOG")
    aog = work_order("WO-7", "A6-BLQ", opened=utc(2027, 1, 20, 8), parts=utc(2027, 1, 20, 11), labour=5.5)
    closed_check = work_order(
        "WO-8",
        "A6-BLQ",
        aog=False,
        kind="SCHEDULED_CHECK",
        status="CLOSED",
        opened=utc(2027, 1, 19, 22),
        closed_at=utc(2027, 1, 20, 4),
        parts=None,
    )
    deferred = work_order("WO-9", "A6-BLQ", aog=False, status="DEFERRED", parts=None)
    blocks = blocks_of(grounded, [aog, closed_check, deferred], START, END)
    assert [(b.kind, b.start, b.end, b.source) for b in blocks] == [
        ("aog", START, END, "AircraftAvailability 2027-01-20"),
        ("aog", utc(2027, 1, 20, 8), utc(2027, 1, 20, 16, 30), "work order WO-7"),  # parts at 11:00 + 5.5 h
        ("maintenance", START, utc(2027, 1, 20, 4), "work order WO-8"),  # clipped to the window
    ]
    assert "(open)" in blocks[1].label and "(open)" not in blocks[2].label


def test_a_work_order_closed_before_the_window_blocks_nothing():
    done = work_order("WO-1", status="CLOSED", opened=utc(2027, 1, 18, 8), closed_at=utc(2027, 1, 18, 12))
    assert blocks_of(None, [done], START, END) == []


def test_crew_below_complement_and_crew_illegal_at_the_estimate_are_flagged():
    f = flight("EY1", dep=utc(2027, 1, 20, 6))
    g = flight("EY2", dep=utc(2027, 1, 20, 12), estimated_departure=utc(2027, 1, 20, 15))
    crew = {f.flight_id: [flight_duty("C1", f, "FO")] + full_crew(f)[2:4], g.flight_id: full_crew(g)}
    shown = board([f, g], crew=crew, illegal={g.flight_id: ["CPT C9: FDP over its limit (ORO.FTL.205(b))"]})
    first, second = shown.rows[0].flights
    assert [s.kind for s in first.crew_shortfalls] == ["below_complement"]
    assert "1 of 2 pilots rostered, no captain" in first.crew_shortfalls[0].text
    assert "2 of" in first.crew_shortfalls[0].text  # two cabin crew of the type's complement
    assert [(s.kind, s.text) for s in second.crew_shortfalls] == [
        ("illegal_at_estimate", "CPT C9: FDP over its limit (ORO.FTL.205(b))")
    ]
    assert below_complement(f, full_crew(f)) is None


def test_an_open_run_is_a_marker_on_its_tail_and_flight_linking_to_its_decision():
    f = flight("EY123", dep=utc(2027, 1, 20, 10))
    ey123 = Disruption.of_code(41, scope=Scope(kind="flight", flight_numbers=["EY123"]))
    waiting = run("ey123-mech", disruption=ey123, flight_id=f.flight_id)
    done = run("ey1-done", "executed", disruption=ey123, flight_id=f.flight_id)
    shown = board([f], [waiting, done])
    assert [(m.disruption_id, m.registrations, m.flight_ids, m.link) for m in shown.disruptions] == [
        ("ey123-mech", ["A6-BLA"], [f.flight_id], "#ey123-mech")
    ]
    assert shown.disruptions[0].at == f.departure
    assert shown.rows[0].disruptions == ["ey123-mech"] and shown.rows[0].flights[0].disruptions == ["ey123-mech"]
    assert shown.header.decisions_waiting == 1 and shown.header.runs_open == 1


def test_a_run_about_another_days_flight_is_not_pinned_on_this_day():
    """EY123 of 22 January is waiting; the board of the 20th draws EY123 of the 20th on the same tail: no flag there."""
    f = flight("EY123", dep=utc(2027, 1, 20, 10))
    later = Disruption.of_code(41, scope=Scope(kind="flight", flight_numbers=["EY123"], registration="A6-BLA"))
    shown = board([f], [run("ey123-22", disruption=later, flight_id="EY123-20270122")])
    assert shown.disruptions == [] and shown.rows[0].disruptions == []
    assert shown.header.decisions_waiting == 1  # still a decision waiting, in the header and the runs list


def test_an_airport_closure_and_a_capacity_cut_are_bands_clipped_to_the_window():
    flights = [flight("EY1", dep=utc(2027, 1, 20, 14)), flight("EY2", "FRA", "AUH", utc(2027, 1, 20, 15))]
    fog = Disruption.of_code(
        71,
        scope=Scope(kind="airport", airport="AUH"),
        window=Window(start=utc(2027, 1, 20, 14), end=utc(2027, 1, 20, 17)),
        remarks="closed",
    )
    late_night = Disruption.of_code(
        87,
        scope=Scope(kind="airport", airport="FRA"),
        window=Window(start=utc(2027, 1, 20, 22), end=utc(2027, 1, 21, 3)),
    )
    shown = board(
        flights, [run("fog", "executed", fog, subject="AUH"), run("fra", "running", late_night, subject="FRA")]
    )
    assert [(b.kind, b.airport, b.start, b.end, b.disruption_id) for b in shown.bands] == [
        ("closure", "AUH", utc(2027, 1, 20, 14), utc(2027, 1, 20, 17), "fog"),
        ("disruption", "FRA", utc(2027, 1, 20, 22), END, "fra"),  # no rate stated: drawn as reported
    ]
    assert [m.airport for m in shown.disruptions] == ["FRA"]  # the executed closure is a band, not an open marker


def test_the_header_is_the_replays_scorecard_of_the_day():
    flights = [
        flight("EY1", dep=utc(2027, 1, 20, 6)),
        flight("EY2", dep=utc(2027, 1, 20, 12), reg="A6-BLB", estimated_departure=utc(2027, 1, 20, 13)),
        flight("EY3", dep=utc(2027, 1, 20, 18), reg="A6-BLC", status="CANCELLED"),
    ]
    header = board(flights).header
    card = quiet_card(flights)
    assert (header.flights, header.d15, header.cancellations) == (card.flights, card.d15, card.cancellations)
    assert (header.flights, header.d15, header.cancellations) == (3, 0.5, 1)


@given(
    delays=st.lists(st.integers(min_value=0, max_value=600), min_size=1, max_size=8),
    page=st.tuples(st.integers(0, 23), st.integers(1, 24)),
)
def test_every_flight_in_the_window_is_drawn_once_on_its_own_tail(delays, page):
    flights = [
        flight(
            f"EY{i}",
            dep=utc(2027, 1, 20, 1) + timedelta(hours=2 * i),
            reg=f"A6-BL{'ABC'[i % 3]}",
            block=90,
            **({"estimated_departure": utc(2027, 1, 20, 1) + timedelta(hours=2 * i, minutes=d)} if d else {}),
        )
        for i, d in enumerate(delays)
    ]
    start = datetime(2027, 1, 20, page[0], tzinfo=UTC)
    end = start + timedelta(hours=page[1])
    rows = BoardRows(DAY, start, end, flights, [], {}, {}, {f.flight_id: f for f in flights})
    shown = assemble(rows, [], LiveDay(card=quiet_card(flights), crew_illegal={}))
    drawn = [(r.registration, f.flight_id) for r in shown.rows for f in r.flights]
    expected = sorted((f.aircraft_registration, f.flight_id) for f in flights if overlaps(f, start, end))
    assert sorted(drawn) == expected and len(set(drawn)) == len(drawn)
    for r in shown.rows:
        assert [f.start for f in r.flights] == sorted(f.start for f in r.flights)
