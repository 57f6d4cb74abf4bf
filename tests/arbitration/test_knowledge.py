"""The knowledge corpus and the local retriever: every document cites by section; queries find the right one."""

from __future__ import annotations

import re

import pytest

from skymarshal.arbitration.knowledge import LocalKnowledgeRetriever, corpus_dir, load_corpus, retrieve

CORPUS = corpus_dir()


def test_the_corpus_is_found_and_every_document_has_a_title_and_sections():
    assert CORPUS is not None and CORPUS.name == "knowledge"
    documents = [p for p in CORPUS.glob("*.md") if p.name != "README.md"]
    assert len(documents) >= 6
    for path in documents:
        text = path.read_text(encoding="utf-8")
        assert re.match(r"# \S", text), f"{path.name} must start with '# Title'"
        assert len(re.findall(r"^## \S", text, re.M)) >= 5, f"{path.name} needs at least five '## ' sections"


def test_each_section_becomes_one_passage_naming_document_and_section():
    passages = load_corpus(CORPUS)
    assert len(passages) >= 30
    assert all(p.metadata["document"].endswith(".md") and p.metadata["section"] for p in passages)
    assert len({(p.metadata["document"], p.metadata["section"]) for p in passages}) == len(passages)


@pytest.mark.parametrize(
    "query, document",
    [
        ("maximum daily FDP ORO.FTL.205 sectors", "crew-limits.md"),
        ("expired MEL item category B rectification interval", "mel-policy.md"),
        ("EU261 compensation long-haul delay UK261", "passenger-rights.md"),
        ("Frankfurt night curfew", "curfews-and-airports.md"),
    ],
)
def test_a_query_finds_the_document_that_answers_it(query, document):
    citations, mode = retrieve(query, knowledge_base_id="")
    assert mode == "local" and citations[0].document == document


def test_an_empty_corpus_retrieves_nothing_and_says_so():
    citations, mode = retrieve("anything", knowledge_base_id="", local=LocalKnowledgeRetriever(passages=[]))
    assert citations == [] and mode.startswith("none")
