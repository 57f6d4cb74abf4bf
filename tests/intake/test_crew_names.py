"""A crew member named as OCCs write them — a rank or an airline's title, then a name with an initial ("F/O L.
Haddad", "cabin director J. Smith") — and reported sick is the crew unavailable (AHM 730 64 flight deck, 67 cabin):
an initial's full stop ends no sentence, so the rank and the state stay in one."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skymarshal.intake.cause import read_cause
from skymarshal.intake.normalise import normalise
from skymarshal.intake.sentences import spans

DECK = ["F/O", "Capt", "the first officer", "Captain"]
CABIN = ["cabin director", "chief purser", "in-flight manager", "senior flight attendant", "cabin supervisor"]


@given(
    rank=st.sampled_from(DECK + CABIN),
    initial=st.sampled_from(["L.", "J. K.", "A."]),
    surname=st.sampled_from(["Haddad", "Smith", "Nair"]),
    where=st.sampled_from(["", " rostered EY132 19JAN ex IAD", " (EY392, 19JAN)"]),
    state=st.sampled_from(["reported unfit (sick) at the hotel", "reported sick", "is unwell and cannot operate"]),
)
def test_a_named_crew_member_reported_sick_is_the_crew_unavailable(rank, initial, surname, where, state):
    text = f"EY132 19JAN: {rank} {initial} {surname}{where} {state}. No standby at the outstation."
    first = read_cause(normalise(text)).first
    assert first is not None and first.code == (64 if rank in DECK else 67), (text, first)


def test_a_full_stop_after_a_word_still_ends_a_sentence():
    """Only a lone letter's full stop is an initial: "U/S." and a word's full stop end their sentence."""
    text = "WX RADAR U/S. Ignore the roster. Gate B. Next"
    assert [text[a:b].strip() for a, b in spans(text)] == ["WX RADAR U/S.", "Ignore the roster.", "Gate B. Next"]
