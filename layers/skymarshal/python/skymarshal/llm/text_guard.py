"""What a model's words may be before anyone reads them: bounded in length, and not arguing a binding
constraint away.

The rules decide legality; a model's narrative or justification is shown to the duty manager and, for the
agents, to the other agents' revision prompts. A text that tells its reader to ignore, waive or extend a
limit the rules made binding is replaced by the rules' own rendered text, and the replacement recorded. The
check is deliberately lexical and conservative: a sentence that both dismisses something and names a
constraint (a clause, a crew or tail id of a binding finding, or a regulatory word) fails the whole text.
"""

from __future__ import annotations

import re

# Words that set a rule aside. "extend" only with the things the rules bound (duty, FDP, curfew, MEL).
_DISMISS = re.compile(
    r"\b(?:ignor(?:e|ed|ing)|disregard(?:ed|ing)?|waiv(?:e|ed|er|ing)|overrid(?:e|den|ing)|bypass(?:ed|ing)?|"
    r"set(?:ting)? aside|relax(?:ed|ing)?|suspend(?:ed|ing)?|exempt(?:ed|ion)?|"
    r"(?:is|are|does|do) not (?:binding|apply|applicable|required|relevant)|no longer (?:applies|apply|binding)|"
    r"(?:legal|safe|fine|acceptable) (?:anyway|despite|regardless)|regardless of|despite the|"
    r"(?:captain|commander)['’]?s? (?:discretion|agreed|approval)|extend(?:ed|ing)? (?:the )?(?:duty|fdp|curfew|mel))\b",
    re.I,
)
_CONSTRAINT_WORDS = re.compile(
    r"\b(?:limits?|duty|fdp|rest|ftl|mel|curfew|airworth\w*|constraints?|regulations?|rules?|legal\w*|dispatch|"
    r"minima|notam|crew|maintenance|grounded|no dispatch)\b",
    re.I,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_TOKEN = re.compile(r"\b(?:[A-Z]{2,}[A-Z0-9.()-]*\d[A-Z0-9.()-]*|[A-Z0-9]{2}-[A-Z0-9]{3,})\b")  # clauses, tails, ids


def bounded(text: str, limit: int) -> tuple[str, bool]:
    """The text cut to `limit` characters at the last sentence end that fits (else at a word), and whether it
    was cut."""
    text = (text or "").strip()
    if len(text) <= limit:
        return text, False
    room = text[: max(1, limit - 1)]
    end = max(room.rfind(". "), room.rfind("! "), room.rfind("? "))
    if end >= limit // 2:
        return room[: end + 1], True
    space = room.rfind(" ")
    return (room[:space] if space > 0 else room).rstrip() + "…", True


def binding_tokens(binding: list[str]) -> set[str]:
    """Clause ids, registrations and crew ids named by the binding constraints ("ORO.FTL.205", "A6-BLT")."""
    return {t.lower() for constraint in binding for t in _TOKEN.findall(constraint)}


def contradiction(text: str, binding: list[str]) -> str | None:
    """The first sentence that dismisses a binding constraint, or None. Only checked when something is
    binding: with no binding constraint there is nothing for a text to argue away."""
    if not binding:
        return None
    tokens = binding_tokens(binding)
    for sentence in _SENTENCE.split(text or ""):
        if not _DISMISS.search(sentence):
            continue
        lowered = sentence.lower()
        if _CONSTRAINT_WORDS.search(sentence) or any(t in lowered for t in tokens):
            return " ".join(sentence.split())[:200]
    return None


def checked(text: str, limit: int, binding: list[str]) -> tuple[str | None, str | None]:
    """(the bounded text, or None when it must be replaced; the note to record, or None)."""
    found = contradiction(text, binding)
    if found is not None:
        return None, f"replaced: contradicts a binding constraint ({found!r})"
    cut, was_cut = bounded(text, limit)
    return cut, (f"cut to {limit} characters" if was_cut else None)
