"""A report in one spelling: control and direction-override characters dropped, compatibility forms folded (NFKC),
and the OCC's abbreviations written out ("A/C" → "aircraft", "F/O" → "first officer", "U/S" → "unserviceable"),
so the cause lexicon reads one word for each thing however the desk wrote it.

Every character of the normalised text remembers where it came from: a reading made on it is quoted back with the
report's own words and span (`Normalised.source`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# OCC and telex abbreviations → the word the lexicon reads (IATA/ICAO usage; matched whole, any case).
ABBREVIATIONS: dict[str, str] = {
    "a/c": "aircraft",
    "acft": "aircraft",
    "aog": "aog grounded",
    "f/o": "first officer",
    "fo": "first officer",
    "cpt": "captain",
    "capt": "captain",
    "cmdr": "captain",
    "cdr": "captain",
    "pic": "captain",
    "p1": "captain",
    "p2": "first officer",
    "s/o": "second officer",
    "2/o": "second officer",
    "f/e": "flight engineer",
    "so": "second officer",
    "cc": "cabin crew",
    "c/c": "cabin crew",
    "ccm": "cabin crew",
    "sccm": "purser",  # the senior cabin crew member
    "w/o": "without",
    "csd": "purser",
    "cse": "purser",
    "fa": "flight attendant",
    "crw": "crew",
    "etd": "estimated departure",
    "eta": "estimated arrival",
    "dla": "delayed",
    "dly": "delay",
    "dlyd": "delayed",
    "wx": "weather",
    "u/s": "unserviceable",
    "inop": "inoperative",
    "tech": "technical",
    "pax": "passengers",
    "mx": "maintenance",
    "mnt": "maintenance",
    "mtc": "maintenance",
    "eng": "engine",
    "hyd": "hydraulic",
    "elec": "electrical",
    "lh": "left",
    "rh": "right",
    "mlg": "main gear",
    "nlg": "nose gear",
    "ldg": "landing",
    "brk": "brake",
    "wchr": "wheelchair",
    "wchs": "wheelchair",
    "wchc": "wheelchair",
    "dg": "dangerous goods",
    "cgo": "cargo",
    "frt": "freight",
    "ctrg": "catering",
    "hdlg": "handling",
    "gnd": "ground",
    "rwy": "runway",
    "twy": "taxiway",
    "arr": "arrival",
    "dep": "departure",
    "restr": "restriction",
    "prev": "previous",
    "sect": "sector",
    "insp": "inspection",
    "req": "required",
    "reqd": "required",
    "stby": "standby",
    "sby": "standby",
    "stn": "station",  # "BOM STN:", "Stn AUH" — also Stansted's code: an airport only where it stands as a place
    "mvts": "movements",
    "mvmts": "movements",
    "canx": "cancelled",
    "cnl": "cancelled",
    "cxl": "cancelled",
    "div": "diverted",
    "vis": "visibility",
    "ts": "thunderstorm",
    "tsra": "thunderstorm",
    "fg": "fog",
    "sn": "snow",
    "xwind": "crosswind",
    "w&b": "mass balance",
    "l/s": "loadsheet",
    "noshow": "no-show",
    "ldsht": "loadsheet",
    "acu": "air conditioning",
    "asu": "air start",
    "bhs": "baggage system",
    "awb": "waybill",
    "hrs": "hours",
    "hr": "hours",
    "fwd": "forward",
    "pob": "passengers",
    "occ": "operations control",
    "ops": "operations",
    "est": "estimated",
    "mgr": "manager",
    "ss": "sandstorm",
    "ds": "duststorm",
    "blw": "below",
    "tkof": "takeoff",
    "awtg": "awaiting",
    "awt": "awaiting",
    "rls": "release",
    "hgr": "hangar",
    "chk": "check",
    "shpt": "shipment",
    "md": "main deck",
    "pwr": "power",
    "gen": "generator",
    "wb": "mass balance",
    "trng": "training",
    "med": "medical",
    "lic": "licence",
    "fcst": "forecast",
    "sec": "security",
    "immig": "immigration",
    "conx": "connecting",
    "cnx": "connecting",
    "trf": "transfer",
    "dmg": "damage",
    "ckin": "check-in",
    "c/a": "cabin crew",
    # a title before a crew member's name ("CA Noura Dlamini", "CD Olga Novak"): only there, where no state, airline
    # or disc is meant (_NAME_TITLES)
    "ca": "cabin attendant",
    "cd": "cabin director",
    "fzfg": "freezing fog",
    "apch": "approach",
    "whl": "wheel",
    "temp": "temperature",
    "hi": "high",
    "cont": "container",
    "mins": "minima",
    "clng": "cleaning",
    "enuf": "enough",
    "ltng": "lightning",
    "clb": "climb",
    "desc": "descent",
    "inb": "inbound",
    "inbd": "inbound",
    "xfer": "transfer",
    # telex has no apostrophe: "APU WONT START"
    "wont": "won't",
    "cant": "can't",
    "dont": "don't",
    "doesnt": "doesn't",
    "didnt": "didn't",
    "isnt": "isn't",
    "arent": "aren't",
    "wasnt": "wasn't",
    "couldnt": "couldn't",
    "wouldnt": "wouldn't",
}
_ABBREVIATION = re.compile(
    r"(?<![\w/&])(" + "|".join(re.escape(k) for k in sorted(ABBREVIATIONS, key=len, reverse=True)) + r")(?![\w/&])",
    re.I,
)
# Two-letter abbreviations that are also words or codes in running text ("so", "fa"): expanded only in capitals.
_CAPITALS_ONLY = frozenset(
    {
        "so",
        "fo",
        "cc",
        "fa",
        "ts",
        "sn",
        "fg",
        "lh",
        "rh",
        "p1",
        "p2",
        "est",
        "ops",
        "ss",
        "ds",
        "md",
        "gen",
        "sec",
        "med",
        "wb",
        "hi",
        "mins",
        "cont",
        "temp",
        "ca",
        "cd",
    }
)
# Abbreviations written out only before a person's name: two capitalised words ("CA Noura Dlamini", "CD WEI O'BRIEN").
_NAME_TITLES = frozenset({"ca", "cd"})
_NAME_AFTER = re.compile(r"\s+[A-Z][\w'’.-]*\s+[A-Z][\w'’-]+")
_KEEP = frozenset("\n\t")


@dataclass(frozen=True)
class Normalised:
    """The normalised text and, for each of its characters, the index of the report character it came from."""

    original: str
    text: str
    origin: tuple[int, ...]  # len(text) + 1 entries; the last is len(original)

    def source(self, start: int, end: int) -> tuple[int, int]:
        """The report's span for a span of the normalised text."""
        if end <= start:
            return self.origin[start], self.origin[start]
        last = self.origin[end - 1]
        # the whole report character the last normalised one came from (an abbreviation expands to many)
        following = next((o for o in self.origin[end:] if o > last), len(self.original))
        return self.origin[start], following

    def words(self, start: int, end: int) -> str:
        a, b = self.source(start, end)
        return self.original[a:b]


def _folded(text: str) -> tuple[str, list[int]]:
    out: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        if ch not in _KEEP and unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs"):
            continue  # control, format (bidi overrides, zero-width), private use: never words
        folded = unicodedata.normalize("NFKC", ch)
        folded = {"\u2019": "'", "\u2018": "'", "\u2013": "-", "\u2014": "-", "\xa0": " "}.get(folded, folded)
        out.append(folded)
        origin.extend([i] * len(folded))
    return "".join(out), origin


def normalise(report: str) -> Normalised:
    """The report folded and with its abbreviations written out (see the module docstring)."""
    folded, origin = _folded(report)
    pieces: list[str] = []
    mapping: list[int] = []
    at = 0
    for m in _ABBREVIATION.finditer(folded):
        word = m.group(1)
        key = word.lower()
        if key in _CAPITALS_ONLY and not word.isupper():
            continue
        if key in _NAME_TITLES and not _NAME_AFTER.match(folded, m.end()):
            continue
        pieces.append(folded[at : m.start()])
        mapping.extend(origin[at : m.start()])
        expansion = ABBREVIATIONS[key]
        pieces.append(expansion)
        mapping.extend([origin[m.start()]] * len(expansion))
        at = m.end()
    pieces.append(folded[at:])
    mapping.extend(origin[at:])
    mapping.append(len(report))
    return Normalised(report, "".join(pieces), tuple(mapping))
