"""Flight numbers a report names as context, not as its subject: the late flight this one waits for, the feeder
its crew, load or aircraft come off, the other flight of a consolidation (intake/extraction_core.parse keeps the
others)."""

from __future__ import annotations

import re

# Words right before a flight number that make it context for another flight, not the report's subject.
CONTEXT_BEFORE = re.compile(
    r"\b(?:inbound|in-bound|incoming|previous (?:sector|leg|flight)|operating as|arriving as)\s*(?:flight\s*)?$"
    # the late flight this one waits for: "off the late-running EY213", "the late Islamabad arrival (EY362)",
    # "crew operating in on EY80"
    r"|\b(?:off|from|behind|for)\s+the\s+(?:late|delayed)(?:[\s-]running)?\s+(?:flight\s*)?$"
    r"|\bthe\s+(?:(?:late|delayed)\s+)?[\w-]+\s+(?:arrival|inbound)\s*\(\s*$"
    r"|\b(?:operating|coming|arriving|positioning)\s+in\s+on\s+(?:flight\s*)?$"
    # the flight the aircraft came in on: "the aircraft arriving on EY369", "came back late from Muscat on EY314",
    # "a/c late in from AUH (EY361)"
    r"|\b(?:arriv\w*|landed|came|coming|got|back|in)\s+(?:late\s+|)(?:from\s+\S+(?:\s+\S+)?\s+)?on\s+(?:flight\s*)?$"
    r"|\b(?:in|back)\s+from\s+\S+\s*\(\s*$"
    # the feeder by its state after a word of origin: "ex late EY425", "following the delayed EY310", "from the
    # cancelled EY85", "same aircraft as the late EY303", "knock-on from EY325", "late arrival of EY376"
    r"|\b(?:ex|off|from|following|behind|after|as|by)\s+(?:the\s+)?(?:late|delayed|cancel+ed|diverted|late-running)"
    r"\s+(?:flight\s*)?$"
    r"|\b(?:knock-?on|knocks?\s+on|reactionary|consequential)\s+(?:delay\s+)?(?:from|of|ex)\s+(?:the\s+)?$"
    r"|\blate\s+arrival\s+of\s+(?:the\s+)?$"
    # the flight a delay is said to come from: "late because EY318 got the aircraft back late", "due to the late EY5"
    r"|\b(?:because|due\s+to|owing\s+to|caused\s+by)\s+(?:of\s+)?(?:the\s+)?(?:(?:late|delayed)(?:[\s-]running)?\s+)?"
    r"(?:flight\s*)?$"
    # who or what comes off the feeder: "passengers off EY403", "crew off EY314", "bags ex EY12"
    r"|\b(?:passengers|pax|bags|baggage|crew|crews|load|cargo|mail|transfers?)\s+(?:off|ex)\s+(?:the\s+)?$"
    # the other flight of a consolidation, the tail's flight in the report's brackets ("(A6-BLE on EY11)")
    r"|\b(?:consolidated|combined|merged)\s+(?:in)?to\s*$|\b(?:consolidated|combined|merged)\s+with\s+$"
    r"|\(\s*[A-Z0-9]{1,2}-[A-Z0-9]{3,5}\s+on\s+$"
    # the inbound in brackets with no word between ("the inbound (EY25, …)"), operating in on the late flight
    r"|\bthe\s+(?:(?:late|delayed)\s+)?(?:arrival|inbound)\s*\(\s*$"
    r"|\bin\s+on\s+the\s+(?:late|delayed)\s+(?:flight\s*)?$"
    r"|\blate\s+(?:ex|from)\s+\S+\s+on\s+$",
    re.I,
)


def context_flight(prompt: str, start: int) -> bool:
    """Whether the flight number at `start` is named as context: the words before it make it another flight's."""
    return CONTEXT_BEFORE.search(prompt[max(0, start - 40) : start]) is not None
