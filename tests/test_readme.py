"""The README stays a ten-minute read (issue 37): at most 200 lines, every page of docs/ linked from it, and no
relative link in it or in docs/*.md pointing at a file or a heading that does not exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
MAX_README_LINES = 200

FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} +(.+?) *#*$", re.MULTILINE)
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


def prose(text: str) -> str:
    """The text without code blocks and code spans, where `[x](y)` is code, not a link."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def relative_links(text: str) -> list[str]:
    """Every link target in the prose that is not a URL with a scheme (http:, mailto:, …)."""
    return [target for target in LINK.findall(prose(text)) if not SCHEME.match(target)]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    plain = re.sub(r"[^\w\- ]", "", CODE_SPAN.sub(lambda m: m.group(0)[1:-1], heading).lower())
    return plain.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """The anchors of a page's headings, a repeated heading numbered as GitHub numbers it (-1, -2, …)."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    for heading in HEADING.findall(FENCE.sub("", text)):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(page: Path, text: str) -> list[str]:
    """One line per relative link of `page` (holding `text`) whose file, or heading in that file, is missing."""
    broken = []
    for target in relative_links(text):
        path_part, _, anchor = target.partition("#")
        path = (page.parent / path_part).resolve() if path_part else page
        if not path.exists():
            broken.append(f"{page.name}: {target} → no such file")
        elif anchor and path.suffix == ".md":
            target_text = text if path == page else path.read_text(encoding="utf-8")
            if anchor not in anchors(target_text):
                broken.append(f"{page.name}: {target} → no heading #{anchor} in {path.name}")
    return broken


def docs_pages() -> list[Path]:
    return sorted(DOCS.glob("*.md"))


def test_the_readme_is_at_most_200_lines() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, f"README.md has {len(lines)} lines (at most {MAX_README_LINES})"


@pytest.mark.parametrize("page", [README, *docs_pages()], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_points_at_an_existing_file_and_heading(page: Path) -> None:
    assert broken_links(page, page.read_text(encoding="utf-8")) == []


def test_every_docs_page_is_linked_from_the_readme() -> None:
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in relative_links(README.read_text(encoding="utf-8"))}
    unlinked = [p.name for p in docs_pages() if p.resolve() not in linked]
    assert docs_pages(), "docs/ holds no page"
    assert unlinked == [], f"docs pages not linked from README.md: {unlinked}"


def test_a_missing_file_and_a_missing_heading_are_reported() -> None:
    text = (
        "# Title\n\n## A day replayed (issue 33)\n\n"
        "[ok](docs/status.md) [ok](#a-day-replayed-issue-33) [gone](docs/nowhere.md) [gone](#no-such-heading)\n"
        "[no heading there](docs/status.md#no-such-heading) [web](https://example.com/x.md)\n"
        "```\n[in code](docs/also-nowhere.md)\n```\n"
    )
    assert broken_links(README, text) == [
        "README.md: docs/nowhere.md → no such file",
        "README.md: #no-such-heading → no heading #no-such-heading in README.md",
        "README.md: docs/status.md#no-such-heading → no heading #no-such-heading in status.md",
    ]


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("A day replayed (issue 33)", "a-day-replayed-issue-33"),
        ("A deploy rehearsal, in the emulator", "a-deploy-rehearsal-in-the-emulator"),
        (
            "Rules from the command line (JSON out; bad arguments exit 2 with one line)",
            "rules-from-the-command-line-json-out-bad-arguments-exit-2-with-one-line",
        ),
        ("Memory: what `local` AWS holds", "memory-what-local-aws-holds"),
        ("Planner → tools", "planner--tools"),
    ],
)
def test_a_heading_gets_githubs_anchor(heading: str, anchor: str) -> None:
    assert slug(heading) == anchor


def test_a_repeated_heading_is_numbered() -> None:
    assert anchors("## Figures\n\n## Figures\n") == {"figures", "figures-1"}
