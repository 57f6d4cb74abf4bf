"""A model's flight number must be written in the report as a flight number, not be a date's digits. Pure:
the structured-output model is LangChain's fake; no airline."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from fakes import ScriptedChatModel

from skymarshal.intake.extraction_llm import extract_with_llm, written_as_flight

NOW = datetime(2027, 1, 18, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("prompt", "number", "expected"),
    [
        ("The Frankfurt flight on January 20th had a bird strike", "EY20", False),
        ("The Frankfurt flight on 20 January had a bird strike", "EY20", False),
        ("Flight 20 to Frankfurt on January 20th had a bird strike", "EY20", True),
        ("EY 20 on 2027-01-20 is delayed", "EY20", True),
        ("Delayed on the 3rd: flight 3", "EY3", True),
        ("Delayed on the 3rd", "EY3", False),
    ],
)
def test_digits_count_only_outside_dates_and_ordinals(prompt, number, expected) -> None:
    assert written_as_flight(prompt, number) is expected


def test_a_flight_number_built_from_the_date_is_not_believed() -> None:
    llm = ScriptedChatModel(
        replies=[{"flight_number": "EY 20", "date_text": "January 20th", "disruption_description": "bird strike"}]
    )
    result = extract_with_llm(
        "The Frankfurt flight on January 20th had a bird strike",
        llm=llm,
        now=NOW,
        flight_dates=lambda number: [date(2027, 1, 20)],
    )
    assert result.status == "input_error" and not (result.flight_info and result.flight_info.flight_number == "EY20")
    assert any("part of a date" in note for note in result.understood["llm_discarded"])
