"""Thread ids: one per (execution, agent, phase), and parse_thread_id gives the parts back."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skymarshal.checkpoint import PHASES, ThreadKey, parse_thread_id, thread_id

part = st.text(
    alphabet=st.characters(categories=("L", "N", "P", "S", "M"), exclude_characters="#/"), min_size=1, max_size=40
).filter(lambda s: s.isprintable() and not any(c.isspace() for c in s))
triple = st.tuples(part, part, st.sampled_from(PHASES))


# Feature: langgraph-dynamodb-integration, Property 2: Thread ID Uniqueness
@given(st.lists(triple, unique=True, min_size=2, max_size=30))
def test_distinct_triples_give_distinct_thread_ids(triples):
    ids = [thread_id(*t) for t in triples]
    assert len(set(ids)) == len(ids)


@given(triple)
def test_thread_ids_round_trip(parts):
    tid = thread_id(*parts)
    assert parse_thread_id(tid) == ThreadKey(*parts)
    assert tid == "#".join(parts)


@given(triple, st.integers(0, 2), st.sampled_from(["#", "/", " ", "\n", "\t", ""]))
def test_a_part_with_a_forbidden_character_is_refused(parts, index, bad):
    broken = list(parts)
    broken[index] = bad if bad == "" else broken[index] + bad
    with pytest.raises(ValueError):
        thread_id(*broken)


@pytest.mark.parametrize("value", ["a#b", "a#b#initial#x", "a##initial", "a#b#planning", "", "a#b c#initial"])
def test_parse_refuses_what_thread_id_would_not_build(value):
    with pytest.raises(ValueError):
        parse_thread_id(value)


def test_phase_must_be_known():
    with pytest.raises(ValueError, match="initial, revision, debate-3, debate-4, debate-5, arbitration"):
        thread_id("exec-1", "crew_compliance", "phase1")
