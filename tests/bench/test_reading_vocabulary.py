"""The reading bench's words live apart from the reader's: no import of it, no phrase of three words or more taken
from its tables (the corpus must measure the reader, not mirror it), and the same family names as the model."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bench.reading import causes, vocabulary
from bench.reading.truth import FAMILIES, family_of_code
from skymarshal.models.disruption import DELAY_CODES, family_of

READING = Path(__file__).resolve().parents[2] / "bench" / "reading"
LIBRARY = Path(__file__).resolve().parents[2] / "layers" / "skymarshal" / "python" / "skymarshal"
READER_PACKAGES = ("agents", "intake")  # the reader today, and where the next one is built
MIN_WORDS = 3
# Regex syntax a phrase reads through (groups, so optional words stay in: "awaiting (?:the )?crew"), syntax that
# stands for a space, and syntax that breaks it (alternation, gaps such as .{0,40}, classes of other characters)
_THROUGH = re.compile(r"\((?:\?(?:[:=!]|<[=!])?)?|\)[?*+]?|\\b|(?<=[a-z])\?")
_SPACE = re.compile(r"\\s[*+?]?|\[- \]\??|\[ -\]\??")
_BREAKS = re.compile(r"\.\{\d*,?\d*\}|\.[*+?]|\\[SdDwW][*+?]?|\[[^\]]*\][*+?]?|[|^$*+{}]")
IDENTIFIER = re.compile(r"^[a-z]+(?:_[a-z]+)+$")
_WORD = re.compile(r"[a-z][a-z'/&-]*")


def phrases_of(text: str) -> set[str]:
    """Runs of MIN_WORDS or more literal words in a string or a regex source (optional parts kept)."""
    found: set[str] = set()
    plain = _THROUGH.sub("", _SPACE.sub(" ", text.lower()))
    for piece in _BREAKS.sub("|", plain).split("|"):
        words = _WORD.findall(piece)
        for size in range(MIN_WORDS, len(words) + 1):
            found.update(" ".join(words[i : i + size]) for i in range(len(words) - size + 1))
    return found


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


def reader_phrases() -> set[str]:
    """Every phrase in the reader's string constants (its pattern and word tables), docstrings and messages aside."""
    found: set[str] = set()
    for package in READER_PACKAGES:
        for path in sorted((LIBRARY / package).glob("*.py")):
            tree = ast.parse(path.read_text())
            skip = _docstrings(tree)
            for node in ast.walk(tree):
                if isinstance(node, ast.JoinedStr):  # f-strings are messages to a person, not tables
                    skip.update(id(v) for v in node.values)
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
                    found |= phrases_of(node.value)
    return found


def vocabulary_entries() -> list[str]:
    entries: list[str] = []
    for module in (vocabulary, causes):
        for name, value in vars(module).items():
            if name.isupper():
                entries += _strings(value)
    for cause in causes.CAUSES:
        entries += [*cause.clauses, *cause.shorthand, *cause.station_clauses]
    return [e for e in entries if not IDENTIFIER.match(e)]  # the model's family names are labels, not phrases


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, tuple | list | set | frozenset):
        return [s for v in value for s in _strings(v)]
    return []


def shared(entries: list[str], phrases: set[str]) -> list[tuple[str, str]]:
    """(entry, reader phrase) for each entry holding one of the reader's phrases as whole words."""
    hits = []
    for entry in entries:
        text = " " + " ".join(_WORD.findall(entry.lower())) + " "
        hits += [(entry, p) for p in phrases if f" {p} " in text]
    return hits


def test_the_vocabulary_imports_nothing_but_the_standard_library():
    for name in ("vocabulary.py", "causes.py"):
        tree = ast.parse((READING / name).read_text())
        imported = {
            alias.name.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for alias in (node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")])
        }
        assert imported <= {"__future__", "dataclasses"}, f"{name} imports {imported}"


def test_no_phrase_of_the_readers_tables_is_in_the_vocabulary():
    phrases = reader_phrases()
    assert len(phrases) > 100  # the reader's tables were found (an empty set would pass anything)
    assert shared(vocabulary_entries(), phrases) == []


@pytest.mark.parametrize(
    ("entry", "phrase"),
    [
        ("the first officer did not report at the hotel", "did not report"),  # a literal run
        ("the flight plan system froze", "flight plan system"),
        ("a pilot failed to report", "failed to report"),
    ],
)
def test_the_check_finds_a_phrase_copied_from_the_reader(entry, phrase):
    assert (entry, phrase) in shared([entry], reader_phrases())


def test_regex_sources_give_their_literal_runs():
    assert "late release from" in phrases_of(r"late release from (?:the )?(?:hangar|maintenance)")
    assert "awaiting the inbound crew" in phrases_of(r"awaiting (?:the )?(?:inbound )?crew")
    assert phrases_of(r"(?:captain|pilot)\b.{0,60}\b(?:sick|ill)") == set()


def test_the_bench_families_are_the_models():
    assert {family_of_code(code) for code in DELAY_CODES} == set(FAMILIES)
    for code in DELAY_CODES:
        assert family_of_code(code) == family_of(code)


def test_every_cause_is_of_its_family_and_can_be_written_for_each_of_its_scopes():
    for cause in causes.CAUSES:
        assert cause.family in FAMILIES
        if cause.code is not None:
            assert family_of_code(cause.code) == cause.family
        if cause.scopes & {"flight", "flights", "tail", "crew_member"}:
            assert cause.clauses and cause.shorthand, cause
        if cause.scopes & {"airport", "airspace"}:
            assert cause.station_clauses, cause
