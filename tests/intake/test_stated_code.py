"""A delay code the report states ("DL15/0012", "code 99", "coded as other") is the cause, above every word the
report uses for it: the writer's own AHM 730 coding."""

from __future__ import annotations

from cause_helpers import first_code
from hypothesis import given
from hypothesis import strategies as st

from skymarshal.models.disruption import DELAY_CODES

# words that alone would read as another cause: the stated code must outrank them
WORDS = ["bags offloaded", "catering truck late", "hydraulic leak found", "fog at the gate", ""]


@given(
    code=st.sampled_from(sorted(c for c in DELAY_CODES if 11 <= c <= 99)),
    form=st.sampled_from(["DL{c}/0020", "DL{c}", "code {c}", "Delay code {c}.", "coded as {c}"]),
    words=st.sampled_from(WORDS),
)
def test_the_stated_code_is_the_cause(code, form, words) -> None:
    text = f"EY343 18JAN AUH: {words}. {form.format(c=code)}"
    assert first_code(text) == code, text


@given(form=st.sampled_from(["Coded other.", "coding as other", "code it as misc", "DL99 OTHER"]))
def test_other_by_its_name_is_99(form) -> None:
    assert first_code(f"EY77 3 Feb held at the gate while police spoke to a passenger. {form}") == 99


@given(
    lead=st.sampled_from(
        ["connecting to", "rebooked on", "booked onto", "onward flight", "misconnect via", "Delta", "pax for"]
    ),
    number=st.sampled_from(["DL15", "DL 15", "DL 31", "DL41"]),
)
def test_a_partner_flight_is_not_a_stated_code(lead, number) -> None:
    """A "DL15" after a word that leads to a flight is Delta's flight: the report's cause words decide."""
    text = f"EY101 18JAN AUH: hydraulic leak found at the walk-round. 40 pax {lead} {number} at JFK will misconnect."
    assert first_code(text) == 41, text


@given(outbound=st.sampled_from(["40 pax connecting to UA15 at JFK", "onward connections at risk for 40 pax"]))
def test_passengers_connecting_onward_are_the_cost_not_the_cause(outbound) -> None:
    """AHM 730 91 is a load awaited from another flight; passengers going on to theirs are what the delay costs."""
    assert first_code(f"EY101 18JAN AUH: hydraulic leak found at the walk-round. {outbound}.") == 41
    assert first_code("EY101 18JAN AUH: held for 30 connecting pax from the late EY12.") == 91
