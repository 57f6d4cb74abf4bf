"""AHM 730 94/95, crew rotation: a crew member or crew awaited from another flight that is late — operating in,
positioning in, coming off it — is the crew's rotation (94 cabin, 95 flight deck or the whole crew), however the late
flight is named (its number, "a late flight", "the delayed inbound")."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skymarshal.intake.cause import read_cause
from skymarshal.intake.normalise import normalise

FLIGHT_DECK = ["the captain", "the first officer", "both pilots", "the flight crew", "the operating crew"]
CABIN = ["the cabin crew", "the purser", "two cabin attendants"]
ARRIVING = ["operating in on {late}", "positioning in on {late}", "coming off {late}", "arriving on {late}"]
LATE = ["EY80, which is 2 hrs behind", "the late EY26", "a late flight", "the delayed inbound from BAH", "EY605 (late)"]
lead = st.sampled_from(["EY402 18JAN:", "Flight EY101 on 19 January -", "EY606/18 JNB"])
after = st.sampled_from(["", " The flight will wait, expect 60 min.", " DLA 25.", " ETD 0615Z."])


@given(
    lead=lead,
    crew=st.sampled_from(FLIGHT_DECK + CABIN),
    arriving=st.sampled_from(ARRIVING),
    late=st.sampled_from(LATE),
    end=after,
)
def test_crew_awaited_from_another_late_flight_is_crew_rotation(lead, crew, arriving, late, end) -> None:
    text = f"{lead} {crew} {'is' if crew.startswith('the') and 'crew' not in crew else 'are'} "
    text += f"{arriving.format(late=late)}.{end}"
    first = read_cause(normalise(text)).first
    assert first is not None and first.code == (94 if crew in CABIN else 95), (text, first)


@given(
    lead=lead,
    who=st.sampled_from([*FLIGHT_DECK, *CABIN]),
    how=st.sampled_from(["was late at the a/c", "got to the aircraft after the rest", "came to the gate late"]),
    end=after,
)
def test_a_crew_member_late_to_the_aircraft_is_the_crews_lateness(lead: str, who: str, how: str, end: str) -> None:
    """AHM 730 63: a crew member late to the aircraft itself (not only to the briefing) is the crew's lateness, above
    the boarding it holds up."""
    text = f"{lead} {who} {how}, boarding held.{end}"
    assert read_cause(normalise(text)).found[0].code == 63, text
