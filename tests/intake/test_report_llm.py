"""A model completing the parser's reading of a report: only what the parser left empty, only with the report's
own words, only AHM 730 codes; a failure leaves the parser's reading. The fake Bedrock test runs the real
langchain-aws → botocore path (tests/fake_bedrock.py)."""

from __future__ import annotations

import pytest
from fakes import ScriptedChatModel
from test_disruption_facts import flight

from skymarshal.intake.disruption_facts import report_disruption
from skymarshal.intake.report import read_report
from skymarshal.intake.report_llm import ModelReading, read_report_with_model
from skymarshal.models.operational import Flight

# No word of the parser's lexicon: a model is needed to read it as a defect.
STEERING = "EY124 on January 20th: an odd knocking from under the nose at FRA, someone is looking at it"
ENDS = {"FRA", "AUH"}


def _flight() -> Flight:
    return flight("EY124", "FRA", "AUH")


def test_the_parser_cannot_place_the_cause_alone():
    assert read_report(STEERING, ENDS).cause_code is None


def test_a_cause_the_parser_missed_is_read_with_its_words():
    llm = ScriptedChatModel(replies=[{"delay_code": 41, "cause_words": "odd knocking from under the nose"}])
    reading = read_report_with_model(STEERING, llm, ENDS)
    assert (reading.cause_code, reading.fact) == (41, "aircraft_defect")
    assert reading.cause and STEERING[slice(*reading.cause.span)] == "odd knocking from under the nose"


@pytest.mark.parametrize(
    ("answer", "dropped"),
    [
        ({"delay_code": 41, "cause_words": "the APU failed"}, "is not in the report"),  # words it made up
        ({"delay_code": 10, "cause_words": "odd knocking"}, "not an AHM 730 code"),
        ({"delay_code": 41, "cause_words": ""}, "no words quoted"),
        ({"airport_code": "JFK", "airport_words": "FRA"}, "not one the report can be about"),
    ],
)
def test_a_reading_without_the_report_s_words_or_outside_the_codes_is_dropped_and_noted(answer, dropped):
    # AUH only: the parser reads no airport here, so the model's airport is weighed
    reading = read_report_with_model(STEERING, ScriptedChatModel(replies=[answer]), {"AUH"})
    assert reading.cause_code is None and reading.airport is None
    assert any(dropped in note for note in reading.notes), reading.notes


def test_the_parser_s_reading_stands_over_the_model_s():
    """'captain called in sick' is the parser's 64: a model saying 'weather' changes nothing."""
    report = "The captain of EY20 on January 19th called in sick"
    answer = {"delay_code": 71, "cause_words": "called in sick", "crew_position": "CABIN", "crew_words": "captain"}
    reading = read_report_with_model(report, ScriptedChatModel(replies=[answer]), {"AUH", "LHR"})
    assert reading.cause_code == 64 and reading.crew_position and reading.crew_position.value == "CAPTAIN"


def test_a_failing_model_leaves_the_parser_s_reading_and_says_so():
    reading = read_report_with_model(STEERING, ScriptedChatModel(replies=[TimeoutError("read timed out")]), ENDS)
    assert reading.cause_code is None and any("parser's reading stands" in n for n in reading.notes)


def test_a_model_read_defect_becomes_the_flight_s_stated_fact():
    llm = ScriptedChatModel(replies=[{"delay_code": 41, "cause_words": "odd knocking from under the nose"}])
    disruption = report_disruption(STEERING, _flight(), llm)
    assert disruption.iata_delay_code == 41
    assert [f.source for f in disruption.facts if f.name == "aircraft_defect"] == ["stated"]


def test_the_model_reading_through_langchain_aws_and_botocore(fake_bedrock):
    from skymarshal.llm.provider import chat_model

    fake_bedrock.tool_inputs["ModelReading"] = ModelReading(
        delay_code=41, cause_words="odd knocking from under the nose", airport_code="FRA", airport_words="FRA"
    ).model_dump()
    reading = read_report_with_model(STEERING, chat_model("agent", "validate"), ENDS)
    assert reading.cause_code == 41 and reading.cause and reading.cause.words == "odd knocking from under the nose"
    assert fake_bedrock.seen[-1].model_id.startswith("eu.anthropic.")
