"""A cancellation's title names each flight once: within a day every flight, across days the first, how many later
ones through which day and their numbers once — not "EY337 and EY338 and … EY337 and EY338" day after day."""

from __future__ import annotations

from datetime import timedelta

from row_builders import flight, utc

from skymarshal.arbitration.plans.cancellation import block_words


def test_a_day_s_flights_are_each_named():
    out = flight("EY21", dep=utc(2027, 1, 20, 8))
    back = flight("EY22", "FRA", "AUH", dep=utc(2027, 1, 20, 16))
    assert block_words([out, back]) == "EY21 and EY22"


def test_a_rotation_over_days_names_each_number_once_and_its_last_day():
    start = utc(2027, 1, 20, 13)
    block = [flight("EY312", "KWI", "AUH", dep=start)]
    for day in range(1, 4):
        at = start + timedelta(days=day)
        block += [flight("EY337", dep=at), flight("EY338", "FRA", "AUH", dep=at + timedelta(hours=8))]
    words = block_words(block)
    assert words == "EY312 and the rotation's 6 later flights through 23 Jan: EY337, EY338"
    assert words.count("EY337") == 1
