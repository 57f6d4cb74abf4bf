"""Grounding for the arbitrator: the knowledge corpus (`knowledge/*.md`) behind one retriever interface.

In AWS: the Bedrock Knowledge Base through langchain-aws's `AmazonKnowledgeBasesRetriever`
(SKYMARSHAL_KNOWLEDGE_BASE_ID set). Locally, or when that retrieval fails: the same corpus, split on its
markdown headings (langchain-text-splitters) and ranked by BM25 (rank-bm25) — a lexical measure, which suits
a corpus full of clause numbers and airport codes. Either way the result is LangChain Documents whose metadata
name the document and the section, so a citation reads "crew-limits.md § ORO.FTL.205 maximum daily FDP".
A failed retrieval never fails the arbitration: it falls back, logs, and the output names the mode used.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import cast

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_text_splitters import MarkdownHeaderTextSplitter
from pydantic import ConfigDict
from rank_bm25 import BM25Okapi

from .models import Citation

log = logging.getLogger("skymarshal.arbitration.knowledge")
TOKEN = re.compile(r"[a-z0-9]+(?:[.:/][a-z0-9]+)*")
EXCERPT_CHARS = 320
DEFAULT_K = 4


def corpus_dir(env=os.environ) -> Path | None:
    """SKYMARSHAL_KNOWLEDGE_DIR, else the corpus packaged into the library layer, else the repo's knowledge/."""
    if env.get("SKYMARSHAL_KNOWLEDGE_DIR"):
        return Path(env["SKYMARSHAL_KNOWLEDGE_DIR"])
    here = Path(__file__).resolve()
    for candidate in (here.parents[1] / "knowledge", *(p / "knowledge" for p in here.parents)):
        if candidate.is_dir() and any(candidate.glob("*.md")):
            return candidate
    return None


def tokens(text: str) -> list[str]:
    return TOKEN.findall(text.lower())


def load_corpus(directory: Path) -> list[Document]:
    """One Document per `## ` section, with document, title and section in the metadata."""
    splitter = MarkdownHeaderTextSplitter([("#", "title"), ("##", "section")], strip_headers=False)
    passages = []
    for path in sorted(directory.glob("*.md")):
        if path.name.lower() == "readme.md":
            continue
        for part in splitter.split_text(path.read_text(encoding="utf-8")):
            if "section" in part.metadata:
                passages.append(
                    Document(page_content=part.page_content, metadata={**part.metadata, "document": path.name})
                )
    return passages


class LocalKnowledgeRetriever(BaseRetriever):
    """BM25 over the corpus sections, in process."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    passages: list[Document]
    k: int = DEFAULT_K
    index: BM25Okapi | None = None

    def model_post_init(self, _context) -> None:
        if self.passages:
            self.index = BM25Okapi([tokens(f"{p.metadata.get('section', '')} {p.page_content}") for p in self.passages])

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        if self.index is None:
            return []
        scores = self.index.get_scores(tokens(query))
        ranked = sorted(range(len(self.passages)), key=lambda i: (-scores[i], i))[: self.k]
        return [
            Document(
                page_content=self.passages[i].page_content,
                metadata={**self.passages[i].metadata, "score": round(float(scores[i]), 3)},
            )
            for i in ranked
            if scores[i] > 0
        ]


@lru_cache(maxsize=4)
def local_retriever(directory: str | None = None, k: int = DEFAULT_K) -> LocalKnowledgeRetriever:
    found = Path(directory) if directory else corpus_dir()
    return LocalKnowledgeRetriever(passages=load_corpus(found) if found else [], k=k)


def bedrock_retriever(knowledge_base_id: str, k: int = DEFAULT_K) -> BaseRetriever:
    from langchain_aws import AmazonKnowledgeBasesRetriever

    return AmazonKnowledgeBasesRetriever(
        knowledge_base_id=knowledge_base_id,
        retrieval_config={"vectorSearchConfiguration": {"numberOfResults": k}},
        min_score_confidence=None,
    )  # its default; mypy reads it as required


def _citation(doc: Document, local: LocalKnowledgeRetriever) -> Citation:
    meta = doc.metadata or {}
    document = (
        meta.get("document")
        or Path(
            str(((meta.get("location") or {}).get("s3Location") or {}).get("uri", ""))
            or meta.get("source", "knowledge base")
        ).name
    )
    section = meta.get("section") or _section_of(doc.page_content, document, local)
    text = re.sub(r"^#+ .*\n+", "", doc.page_content.strip())
    excerpt = " ".join(text.split())[:EXCERPT_CHARS]
    score = meta.get("score")
    return Citation(
        document=document, section=section, excerpt=excerpt, score=float(score) if score is not None else None
    )


def _section_of(chunk: str, document: str, local: LocalKnowledgeRetriever) -> str:
    """A Knowledge Base chunk's section: its own `## ` heading, else the local section it overlaps most."""
    heading = re.search(r"^##\s+(.+)$", chunk, re.M)
    if heading:
        return heading.group(1).strip()
    words = set(tokens(chunk))
    same = [p for p in local.passages if p.metadata.get("document") == document]
    best = max(same, key=lambda p: len(words & set(tokens(p.page_content))), default=None)
    return best.metadata["section"] if best else "(section not identified)"


def retrieve(
    query: str,
    *,
    k: int = DEFAULT_K,
    knowledge_base_id: str | None = None,
    remote: BaseRetriever | None = None,
    local: LocalKnowledgeRetriever | None = None,
) -> tuple[list[Citation], str]:
    """Citations for `query` and the mode used: "bedrock", "local", "local (fallback: …)" or "none"."""
    local = local or local_retriever()
    knowledge_base_id = (
        knowledge_base_id if knowledge_base_id is not None else os.environ.get("SKYMARSHAL_KNOWLEDGE_BASE_ID")
    )
    if remote is not None or knowledge_base_id:
        try:
            # without a remote retriever this branch was entered for its Knowledge Base id: a str here
            docs = (remote or bedrock_retriever(cast(str, knowledge_base_id), k)).invoke(query)
            return [_citation(d, local) for d in docs], "bedrock"
        except Exception as exc:  # any failure of the managed service: fall back, never fail the decision
            log.warning("knowledge base retrieval failed, using the local corpus: %s: %s", type(exc).__name__, exc)
            mode = f"local (fallback: {type(exc).__name__})"
    else:
        mode = "local"
    if not local.passages:
        return [], "none (no corpus found)"
    return [_citation(d, local) for d in local.invoke(query)], mode


def dedupe(citations: Sequence[Citation]) -> list[Citation]:
    seen, out = set(), []
    for c in citations:
        if (c.document, c.section) not in seen:
            seen.add((c.document, c.section))
            out.append(c)
    return out
