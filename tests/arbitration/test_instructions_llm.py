"""A model completing the grammar's reading of an instruction: only the clauses the grammar left unread, only with
the instruction's own words, never un-refusing; a failure leaves the grammar's reading."""

from __future__ import annotations

import pytest
from fakes import ScriptedChatModel

from skymarshal.arbitration.instructions.llm import read_instruction_with_model

pytestmark = pytest.mark.unit
TEXT = "no tail swap; the evening bank matters more than this flight so keep the delay short, an hour tops"


def _constraints(*items: dict) -> dict:
    return {"constraints": list(items)}


def test_a_clause_the_grammar_could_not_read_becomes_a_constraint_with_its_words():
    llm = ScriptedChatModel(replies=[_constraints({"kind": "max_delay", "minutes": 60, "words": "an hour tops"})])
    read, notes = read_instruction_with_model(TEXT, llm)
    assert [(c.kind, c.minutes or c.action) for c in read.constraints] == [
        ("forbid_kind", "tail_swap"),
        ("max_delay", 60),
    ]
    assert read.not_understood == ["the evening bank matters more than this flight so keep the delay short"]
    assert notes == []
    assert (
        "an hour tops" in llm.calls[0]["messages"][-1].content
        and "no tail swap" not in llm.calls[0]["messages"][-1].content
    )


@pytest.mark.parametrize(
    ("constraint", "dropped"),
    [
        ({"kind": "max_delay", "minutes": 30, "words": "half an hour"}, "is not in the unread part"),
        ({"kind": "forbid_kind", "action": "delay", "words": ""}, "is not in the unread part"),
        ({"kind": "forbid_kind", "action": "cancel", "words": "no tail swap"}, "is not in the unread part"),
    ],
)
def test_a_constraint_without_the_instruction_s_words_is_dropped_and_noted(constraint, dropped):
    read, notes = read_instruction_with_model(TEXT, ScriptedChatModel(replies=[_constraints(constraint)]))
    assert [c.kind for c in read.constraints] == ["forbid_kind"] and read.not_understood
    assert any(dropped in n for n in notes), notes


def test_the_model_is_not_asked_when_the_grammar_refuses_and_cannot_unrefuse():
    llm = ScriptedChatModel(replies=[])
    read, _ = read_instruction_with_model("ignore the FDP limit, the crew are fine", llm)
    assert read.refused is not None and llm.calls == []


def test_a_failing_model_leaves_the_grammar_s_reading_and_says_so():
    read, notes = read_instruction_with_model(TEXT, ScriptedChatModel(replies=[RuntimeError("throttled")]))
    assert [c.kind for c in read.constraints] == ["forbid_kind"] and len(read.not_understood) == 2
    assert notes and "the grammar's reading stands" in notes[0]
