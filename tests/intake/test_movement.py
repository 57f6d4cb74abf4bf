"""Movement messages (MVT, MVA, DIV) read by the message parser: a message written from its elements reads back as
those elements, whatever the spacing, case or zeros; anything else is a Movement or one line saying what is wrong,
never another error."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skymarshal.intake.movement import MalformedMessage, Movement, is_movement_message, read_movement
from skymarshal.models.disruption import DELAY_CODES

CODES = st.sampled_from(sorted(DELAY_CODES))
LETTERS = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=3, max_size=3)


@st.composite
def messages(draw) -> tuple[str, dict]:
    kind = draw(st.sampled_from(["MVT", "MVA", "DIV"]))
    number = draw(st.integers(1, 9999))
    zeros = draw(st.sampled_from(["", "0", "00"])) if number < 100 else ""
    day = draw(st.integers(1, 31))
    registration = draw(st.text("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789", min_size=5, max_size=5))
    station = draw(LETTERS)
    codes = draw(st.lists(CODES, min_size=1, max_size=2))
    minutes = [draw(st.integers(1, 23 * 60 + 59)) for _ in codes]
    lines = [kind, f"EY{zeros}{number}/{day:02d}.{registration}.{station}"]
    expected: dict = {
        "kind": kind,
        "flight_number": f"EY{number}",
        "day_of_month": day,
        "registration": registration,
        "station": station,
        "delay_codes": tuple(codes),
        "delay_minutes": tuple(minutes),
    }
    if kind == "DIV":
        alternate, reason = draw(LETTERS), draw(CODES)
        lines.append(f"AD0815/0830 EA1010 {alternate}")
        lines.append(f"DR{reason}")
        expected |= {"diverted_to": alternate, "diversion_code": reason}
    else:
        hour, minute = draw(st.integers(0, 23)), draw(st.integers(0, 59))
        lines.append(f"ED{day:02d}{hour:02d}{minute:02d}")
        expected |= {"estimated_departure": (day, hour, minute)}
    lines.append(
        "DL" + "/".join(f"{c:02d}" for c in codes) + "/" + "/".join(f"{m // 60:02d}{m % 60:02d}" for m in minutes)
    )
    lines.append("SI " + draw(st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ ", max_size=30)).strip())
    return "\n".join(lines), expected


@given(messages(), st.sampled_from(["\n", "\r\n", "\n  \n"]), st.booleans())
def test_a_message_reads_back_as_the_elements_it_was_written_from(written, newline, lower):
    text, expected = written
    text = newline.join(text.split("\n"))
    movement = read_movement(text.lower() if lower else text)
    assert is_movement_message(text)
    for name, value in expected.items():
        assert getattr(movement, name) == value, name
    assert movement.first_code == (expected.get("diversion_code") or expected["delay_codes"][0])


@given(messages(), st.data())
def test_a_damaged_message_is_a_movement_or_one_line(written, data):
    text, _ = written
    at = data.draw(st.integers(0, len(text)))
    damaged = text[:at] + data.draw(st.text(max_size=6)) + text[at + data.draw(st.integers(0, 6)) :]
    try:
        assert isinstance(read_movement(damaged), Movement)
    except MalformedMessage as exc:
        assert str(exc) and "\n" not in str(exc)


@given(st.text(max_size=200))
def test_any_text_is_a_movement_or_one_line(text):
    try:
        read_movement(text)
    except MalformedMessage as exc:
        assert str(exc) and "\n" not in str(exc)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Flight EY123 on January 20th had a mechanical failure", "not a movement message"),
        ("MVT\nEY123\nDL41", "the MVT message is malformed: Invalid flight line"),
        ("MVT\nEY123/20.A6BLA.AUH\nDL7X/0015", "DL7X: '7X' is not an IATA AHM 730 delay code"),
        ("MVT\nEY123/20.A6BLA.AUH\nDL53/0015", "DL53: '53' is not an IATA AHM 730 delay code"),
        ("MVT\nEY123/20.A6BLA.AUH\nDL41/0015/0030", "more durations than codes"),
        ("MVT\nEY123/20.A6BLA.AUH\nDL41/0075", "delay duration 0075: minutes past 59"),
        ("DIV\nEY123/20.A6BLA.AUH\nAD0815/0830\nDR72", "the DIV message names no airport diverted to"),
        ("DIV\nEY123/20.A6BLA.AUH\nAD0815/0830 EA1010 MCT\nDR10", "DR10: '10' is not an IATA AHM 730"),
        ("MVT\nEY123/20.A6BLA.AUH\nED202575", "ED202575: 202575 is not a time"),
        ("MVT\nEY123/32.A6BLA.AUH\nDL41", "Invalid scheduled day"),
    ],
)
def test_a_malformed_message_says_what_is_wrong(text, line):
    with pytest.raises(MalformedMessage) as refused:
        read_movement(text)
    assert line in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize("alternate", ["EDI", "ADD", "EAP", "AAL", "MCT"])
def test_an_alternate_whose_code_starts_like_a_time_element_is_still_the_alternate(alternate):
    # mvt-parser 1.0.0 reads "ADD" as a departure time before asking whether it is an airport: shielded
    movement = read_movement(f"DIV\nEY123/20.A6BLA.AUH\nAD0815/0830 EA1010 {alternate}\nDR72\nSI FOG AT FRA")
    assert (movement.diverted_to, movement.diversion_code, movement.first_code) == (alternate, 72, 72)
