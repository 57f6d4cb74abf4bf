"""The disruption stream: drawn reproducibly by seed from the history, written and read back whole, and a bad
stream refused on one line naming the event before anything is decided."""

from __future__ import annotations

import json
from datetime import date

import pytest
from day_rows import F1, FLIGHTS, HISTORY, crew, utc
from hypothesis import given, settings
from hypothesis import strategies as st

from skymarshal.day.draw import draw_day
from skymarshal.day.stream import (
    AirlineRef,
    Stream,
    StreamEvent,
    StreamHeader,
    StreamRefused,
    check_against_data,
    parse_stream,
)

DAY = date(2027, 1, 20)
CREWS = {f.flight_id: [crew(f"C-{f.flight_id}", f)] for f in FLIGHTS}


def drawn(seed: int, intensity: str = "bad") -> list[StreamEvent]:
    return draw_day(HISTORY, FLIGHTS, DAY, intensity, seed, lambda fid: CREWS.get(fid, []))


def stream_of(events) -> Stream:
    header = StreamHeader(
        stream_id="t",
        seed=1,
        intensity="bad",
        days=[DAY],
        airline=AirlineRef(seed=2027, start=date(2027, 1, 17), days=7, load_factor=0.1),
    )
    return Stream(header=header, events=tuple(events))


def text_of(events) -> str:
    path_text = [json.dumps({"header": stream_of(events).header.model_dump(mode="json")})]
    return "\n".join(path_text + [e.model_dump_json() for e in events]) + "\n"


@given(seed=st.integers(0, 10_000), intensity=st.sampled_from(["ordinary", "bad", "meltdown"]))
@settings(max_examples=40, deadline=None)
def test_the_same_seed_draws_the_same_day_in_time_order_from_the_data(seed, intensity):
    events = drawn(seed, intensity)
    assert events == drawn(seed, intensity)
    assert [e.at for e in events] == sorted(e.at for e in events)
    assert len({e.event_id for e in events}) == len(events)
    known = {f.flight_id: f for f in FLIGHTS}
    for e in events:
        assert e.flight_id is None or known[e.flight_id].flight_number == e.flight_number
        assert e.at <= e.end and e.start < e.end
    assert parse_stream(text_of(events)).events == tuple(events) if events else True


def test_different_seeds_draw_different_days():
    assert len({tuple(drawn(seed)) for seed in range(8)}) > 1


def test_a_meltdown_closes_the_hub_and_grounds_two_widebodies_besides_the_bad_day():
    events = drawn(5, "meltdown")
    closure = [e for e in events if e.holds == "station" and e.closes]
    assert closure and closure[0].station == "AUH"
    assert (closure[0].start.hour, closure[0].end.hour) == (3, 6)
    assert len(events) > len(drawn(5, "bad"))


@pytest.mark.parametrize(
    "line, expected",
    [
        ("{not json", "line 2: not JSON"),
        ('{"event_id": "E9", "at": "2027-01-20T08:00:00Z"}', "line 2 (event 'E9'):"),
        ("[]", "line 2:"),
    ],
)
def test_a_malformed_line_is_refused_naming_it(line, expected):
    good = text_of([drawn(1)[0]]).splitlines()
    with pytest.raises(StreamRefused) as refused:
        parse_stream("\n".join([good[0], line, good[1]]))
    assert expected in str(refused.value)
    assert "\n" not in str(refused.value)


def test_an_event_twice_no_header_and_no_events_are_refused():
    one = drawn(1)[0]
    with pytest.raises(StreamRefused, match=f"event '{one.event_id}'.*twice"):
        parse_stream(text_of([one, one]))
    with pytest.raises(StreamRefused, match="first line must be"):
        parse_stream(one.model_dump_json())
    with pytest.raises(StreamRefused, match="no events"):
        parse_stream(text_of([]))


def test_an_event_holding_a_tail_without_one_is_refused():
    fields = drawn(1)[0].model_dump(mode="json") | {"holds": "tail", "registration": None}
    with pytest.raises(StreamRefused, match="needs registration"):
        parse_stream(text_of([]).splitlines()[0] + "\n" + json.dumps(fields))


@given(field=st.sampled_from(["event_id", "at", "holds", "cause", "start", "end", "report"]))
@settings(max_examples=20, deadline=None)
def test_any_event_missing_a_required_field_is_refused_on_one_line(field):
    fields = drawn(2)[0].model_dump(mode="json")
    del fields[field]
    with pytest.raises(StreamRefused) as refused:
        parse_stream(text_of([]).splitlines()[0] + "\n" + json.dumps(fields))
    assert "line 2" in str(refused.value) and "\n" not in str(refused.value)


def lookup(fid):
    return {f.flight_id: f for f in FLIGHTS}.get(fid)


def test_an_unknown_flight_a_wrong_number_or_a_window_outside_the_data_is_refused_naming_the_event():
    event = next(e for e in drawn(1) if e.flight_id)
    days = (date(2027, 1, 17), date(2027, 1, 23))
    check_against_data(stream_of([event]), lookup, days, {"AUH", "FRA", "BOM"})
    for bad, message in (
        (event.model_copy(update={"flight_id": "EY999-20270120"}), "is not in the data"),
        (event.model_copy(update={"flight_number": "EY777"}), "not EY777"),
        (
            event.model_copy(update={"start": utc(2027, 2, 3), "end": utc(2027, 2, 4), "at": utc(2027, 2, 3)}),
            "outside the data",
        ),
    ):
        with pytest.raises(StreamRefused, match=f"event '{event.event_id}'.*{message}"):
            check_against_data(stream_of([bad]), lookup, days, {"AUH"})


def test_a_station_outside_the_network_is_refused():
    closure = next(e for e in drawn(5, "meltdown") if e.holds == "station")
    with pytest.raises(StreamRefused, match="is not an airport of the network"):
        check_against_data(stream_of([closure]), lookup, (date(2027, 1, 17), date(2027, 1, 23)), {"FRA"})


def test_the_first_flight_of_the_day_is_never_reported_after_it_left():
    for seed in range(20):
        for e in drawn(seed, "ordinary"):
            if e.flight_id == F1.flight_id:
                assert e.at <= F1.scheduled_departure
