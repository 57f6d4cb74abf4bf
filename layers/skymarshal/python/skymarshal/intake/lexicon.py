"""The cause lexicon: for each IATA AHM 730 delay code, the words that name the cause and the parts, systems, people
and places that imply it, as data.

A cue is one or more word groups that must all occur in one sentence of the normalised report (normalise.py):
"captain" with "sick", "loader" with "hit", a word alone where it names the cause by itself ("de-icing",
"bowser"). Each group is an alternation of one or two words, stems allowed (`refuel\\w*`). The reader scores every
code by the cues it finds (cause.py); a cue's weight says how much it alone settles the cause: 3 names it, 2 implies
it, 1 hints at it. Codes 31-58 are here, 11-29 in lexicon_loads.py, 61-99 in lexicon_operations.py, the Cue in
lexicon_cue.py; the shared word groups are in lexicon_words.py; the codes and their titles are the disruption model's
(models/disruption.py).
"""

from __future__ import annotations

from ..models.disruption import DELAY_CODES
from .lexicon_cue import Cue, cue
from .lexicon_loads import FAMILY_ONLY, LOAD_CUES
from .lexicon_operations import OPERATIONS_CUES
from .lexicon_words import (
    AIRCRAFT_PARTS,
    CONTACT,
    DEFECT,
    GROUND_VEHICLE,
    SYSTEM_FAILED,
    software,
)

# Words before a noun that make it the moment something happened ("on pushback"), not a thing
AS_THE_MOMENT = "".join(
    f"(?<!{w} )" for w in ("on", "at", "during", "after", "before", "on the", "at the", "during the", "after the")
)
# A system named by what it does with its failure ("the cargo system crashed"): above the paperwork it holds up
# (a loadsheet or NOTOC cue names a document, 3) and any load named with what happened to it
SYSTEM_NAMED = 3.75

_WORDED: tuple[Cue, ...] = (
    *LOAD_CUES,
    # 31-39 aircraft and ramp handling
    cue(32, "loading", FAMILY_ONLY, r"ramp handling|ground handling|handling agent|handling delay|ramp delay"),
    cue(
        31,
        "aircraft_documentation",
        3,
        r"loadsheets?|load sheets?|mass balance|weight balance|trim sheet|trimsheet|load control|load planning"
        r"|general declaration|gendec|load figures|final figures|weight figures",
    ),
    cue(31, "aircraft_documentation", 2, r"weight|mass|balance|trim|load", r"figures?|wrong|incorrect|recalculat\w*"),
    cue(
        32,
        "loading",
        2,
        r"loading|unloading|offloading|offload|hold|ramp team|ramp staff|ramp agents|loaders|handlers",
        r"slow|late|short|shortage|understaffed|not enough|lack|insufficient|delayed|delays?|took|behind",
    ),
    # the load put in the wrong place and moved: the loading's (32), above the bags or transfer load it concerns
    cue(
        32,
        "loading",
        4,
        r"re-?stow\w*|mis-?load\w*|wrong (?:hold|uld|position|compartment)|loaded (?:\S+ ){0,5}instead of",
    ),
    # the loading team short or its load put in the wrong place: 32, above the bags or ULDs it concerns
    cue(
        32,
        "loading",
        3.5,
        r"load(?:ing)? (?:team|staff|crew|agents?)|loaders|ramp (?:team|staff|crew|agents?)|loading|loaded",
        r"short\w*|understaffed|half strength|not enough|mixed up|instead of|re-?stow\w*|mis-?load\w*"
        r"|re-?sequenc\w*|wrong (?:hold|uld|position|compartment|container)",
    ),
    cue(
        33,
        "loading_equipment",
        2.5,
        r"loaders?|hi-?loaders?|highloaders?|high loaders?|k-?loaders?|belt loaders?|conveyors?|lift platform"
        r"|lifting platform|platform|transporters?|dolly|dollies|lifts?|container lifts?",
        r"broke\w*|broken|fail\w*|unserviceable|u/s|inoperative|not available|unavailable|out|down|fault\w*"
        r"|no|none|lack|short\w*|awaiting|waiting|stuck|out|action",
    ),
    cue(
        34,
        "servicing_equipment",
        2.5,
        r"stairs|steps|lavatory truck|lav truck|toilet truck|toilet service|water truck|potable water|water service"
        r"|waste truck|lav service|lavatory service|passenger steps",
        r"broke\w*|broken|fail\w*|unserviceable|inoperative|not available|unavailable|out|late|delayed"
        r"|no|none|lack|awaiting|waiting|not arrived|shown up|did not|out|off|action",
    ),
    cue(
        35,
        "cleaning",
        3,
        r"clean\w*|cleaners?|grooming|cabin groom\w*|deep clean",
    ),
    cue(
        36,
        "fuelling",
        3,
        r"refuel\w*|defuel\w*|fuell?ing|fuell?er|bowser|fuel truck|fuel trucks|fuel tanker|hydrant|hydrant dispenser"
        r"|into-?plane|fuel suppl\w*|fuel compan\w*|fuel agent|fuel farm|fuel uplift|fuel bowser",
    ),
    cue(
        36, "fuelling", 1.5, r"fuel", r"late|delayed|supplier|truck|not arrived|awaiting|waiting|shortage|contaminat\w*"
    ),
    cue(
        37,
        "catering",
        3,
        r"catering|caterers?|meals|galley carts|trolleys|carts|catering truck|catering uplift|catering load\w*|food carts",
    ),
    cue(17, "catering_order", 2, r"catering|meals|special meals", r"order\w*|wrong|missing|short|miscount\w*"),
    # the order itself wrong or never sent (by sales, reservations, commercial): 17, above the caterer who then
    # delivers it late (37)
    cue(
        17,
        "catering_order",
        3.5,
        r"orders?|ordered",
        r"meals?|spmls?|ksmls?|catering",
        r"wrong|incorrect\w*|short|missing|not (?:sent|transmitted|passed|placed|given)|never|error\w*|mistake\w*",
    ),
    cue(38, "uld", 2, r"uld|ulds|containers?|pallets?", r"short\w*|lack|not enough|none|unserviceable|damaged|no"),
    cue(
        39,
        "ramp_equipment",
        3,
        # pushback named as the moment ("on pushback", "during the push-back") is when, not what
        rf"gpu|ground power|{AS_THE_MOMENT}push-?back|tug|tugs|tow tractor|towbar|tow bar|air start|air starter"
        r"|preconditioned air|pca|air conditioning|acu|asu|de-?icing truck|ground equipment|ramp equipment|gse",
    ),
    # 41-48 technical
    cue(41, "aircraft_defect", 2, AIRCRAFT_PARTS, DEFECT),
    # a defect the aircraft is dispatched with under the MEL: technical, above the ground power arranged for it
    cue(
        41,
        "aircraft_defect",
        3.5,
        r"\bmel\b (?:items? |dispatch|raised|applied|invoked|\d)|dispatch(?:ed)? under (?:the )?mel|mel dispatch",
    ),
    # the aircraft's own inspection finding something: a defect of the aircraft, whatever the words for it
    cue(
        41,
        "aircraft_defect",
        2,
        r"walk-?rounds?|walk-?arounds?|walk around|exterior (?:inspection|check)|pre-?flight (?:inspection|check)"
        r"|daily check|transit check",
        r"found|finds|revealed|spotted|noticed|discovered|showed|detected",
    ),
    cue(
        41,
        "aircraft_defect",
        2.5,
        r"aog|mechanical|technical problem|technical fault|technical issue|technical defect|tech issue|tech problem"
        r"|defect|no-?go item|mel item|snag|malfunction\w*|borescope\w*|boroscope\w*",
    ),
    cue(41, "aircraft_defect", 1.5, r"unserviceable|inoperative|u/s"),
    cue(
        41,
        "aircraft_defect",
        1,
        r"fault\w*|fail\w*|leak\w*|crack\w*|warning|broken|technical|engineering|(?<!flight )engineers?",
    ),
    cue(
        42,
        "scheduled_maintenance",
        3,
        r"a-?check|b-?check|c-?check|d-?check|weekly check|daily check|overnight check|hangar check|line check"
        r"|scheduled maintenance|scheduled check|planned maintenance|planned check|maintenance check|heavy check",
        r"overrun\w*|over-?run\w*|late|not finished|unfinished|running|past|extended|still|behind|not complete\w*"
        r"|not released|release|overdue|longer",
    ),
    cue(
        42,
        "scheduled_maintenance",
        2,
        r"hangar|maintenance|check",
        r"overrun\w*|over-?run\w*|late release|not finished|unfinished|not complete\w*|not released|still in",
    ),
    cue(
        43,
        "unscheduled_maintenance",
        2,
        r"unscheduled|non-?scheduled|unplanned|additional work|extra work|special inspection|additional inspection",
    ),
    cue(
        44,
        "spares",
        2,
        r"spares?|spare parts?|parts?|components?|wheel assembly|tooling|tools|jack|jacks|stores|replacement",
        r"no stock|unavailable|not available|awaiting|awaited|waiting|missing|lack|shortage"
        r"|none|not held|back-?order\w*|on order|being flown|being sent|en route|sourced|stock"
        r"|do not hold|don't hold|not hold|borrow\w*|robb\w*",
    ),
    # the engineers' own equipment missing or broken (a nitrogen cart, a test rig): 44, above the part it serves
    cue(
        44,
        "spares",
        3,
        r"(?:nitrogen|oxygen|hydraulic|servicing|test|defuel\w*) (?:carts?|bottles?|rigs?|trolleys?|mules?|sets?)"
        r"|maintenance equipment|engineering equipment|test equipment",
        r"\bno\b|none|unserviceable|not serviceable|u/s|unavailable|not available|broken|borrow\w*|awaiting|missing",
    ),
    # the cabin's own scheduled re-fit running over (AHM 730 48), not a defect of it
    cue(
        48,
        "cabin_configuration",
        3.5,
        r"re-?config\w*|version (?:change|adjust\w*)|lopa|cabin (?:re-?)?configuration|seat blocking",
    ),
    cue(45, "aog_spares", 2, r"aog spares|spares|parts", r"carried|hand-?carry|courier|onboard|on board|to another"),
    cue(46, "aircraft_change", 2, r"aircraft change|tail swap|tail change|swap aircraft|change of aircraft"),
    cue(47, "standby_aircraft", 2, r"standby aircraft|spare aircraft|reserve aircraft", r"no|none|lack|unavailable"),
    # no standby of the type to take over the unserviceable one ("no standby A35K planned"): 47, above the defect
    cue(
        47,
        "standby_aircraft",
        3.5,
        r"(?:no|lack of|without (?:a|any)) (?:standby|spare|reserve) (?:aircraft|a/c|tail|[a-z0-9]{3,4}\b)",
    ),
    # 51-58 damage and automation
    cue(
        51,
        "aircraft_damage",
        3,
        r"bird ?strikes?|birdstrikes?|bird hit|struck by lightning|lightning strikes?|hail damage|heavy landing"
        r"|hard landing|tail ?strike|severe turbulence|flock|gulls?|geese|birds?|eagle|hawk",
    ),
    cue(51, "aircraft_damage", 2.5, r"lightning|hail|turbulence", r"struck|strike|hit|damag\w*|dent\w*|inspection"),
    cue(
        51,
        "aircraft_damage",
        3,
        r"damage (?:found|discovered|noticed|reported|seen) (?:on|to)|(?:aircraft|fuselage|airframe|radome) damage",
    ),
    cue(52, "aircraft_damage", 3.5, GROUND_VEHICLE, CONTACT),
    # the ground staff's own work damaging the aircraft (cleaners, caterers, loaders), above the work itself
    cue(
        52,
        "aircraft_damage",
        3.5,
        r"cleaners?|cleaning|caterers?|loaders?|handlers?|ground staff|ramp staff|ramp agents?",
        r"caused (?:the )?damage|damaged|broke (?:a|the)|dented|fell",
    ),
    cue(52, "aircraft_damage", 2.5, r"ground damage|ramp damage|ramp incident|ground incident|ground collision"),
    cue(
        55,
        "departure_control",
        3,
        r"dcs|departure control|check-?in system|altea|sita|boarding system|boarding pass system|gate system",
    ),
    cue(55, "departure_control", 2, r"check-?in|boarding", r"outage|offline|crash\w*|down|it failure"),
    cue(56, "cargo_system", 3, r"cargo system|cargo preparation system|cargo it|cargospot"),
    cue(57, "flight_plan_system", 3, r"flight plan system|flight planning system|lido|jeppesen|planning tool"),
    cue(
        57,
        "flight_plan_system",
        3.5,
        r"\bofp\b|flight plans?|flt plans?|nav(?:igation)? data ?bases?|airways?",
        r"\bold\b|outdated|out of date|not updated|wrong|incorrect|invalid|expired|re-?plan\w*|re-?fil\w*",
    ),
    cue(58, "automated_system", 1.5, r"system|systems|it|network|server|computer", r"outage|offline|crash\w*|down"),
    # A system named by what it does, with its failure: the automation code of that work, above the paperwork it
    # holds up ("the load control system crashed, manual loadsheet" is 58, not 31)
    cue(
        55, "departure_control", SYSTEM_NAMED, software(r"departure control|check-?in|boarding|gate|dcs"), SYSTEM_FAILED
    ),
    cue(
        56,
        "cargo_system",
        SYSTEM_NAMED,
        software(r"cargo|freight|awb|uld|cargo management|cargo handling"),
        SYSTEM_FAILED,
    ),
    cue(
        57,
        "flight_plan_system",
        SYSTEM_NAMED,
        software(r"flight plan|flight planning|flt plan|flt planning|dispatch|ofp"),
        SYSTEM_FAILED,
    ),
    # "system" alone is also the aircraft's (a hydraulic system): another automated system is named by its work or
    # is software by its noun
    cue(
        58,
        "automated_system",
        SYSTEM_NAMED,
        software(
            r"load control|weight (?:and|&) balance|w&b|loadsheet|acars|datalink|data link|efb|tech ?log|crew"
            r"|rostering|scheduling|reservations?|revenue|it|computer|company"
        ),
        SYSTEM_FAILED,
    ),
    cue(
        58,
        "automated_system",
        SYSTEM_NAMED - 0.5,
        r"applications?|apps?|software|servers?|database|acars|datalink|data link|efbs?|electronic flight bags?",
        SYSTEM_FAILED,
    ),
    *OPERATIONS_CUES,
)
# A code the report states ("DL15/0012", "code 99", "coded as other"): the writer's own coding names the cause above
# every word for it; the cue carries the fact of that code's first worded cue.
STATED = 6.0
# "DL15" is also Delta's flight 15: after a word that leads to a flight ("connecting to DL 15", "rebooked on DL15")
# it is a flight, never a code (Python's look-behind is fixed-width, so one per word)
_FLIGHT_LEADS = ("to", "on", "onto", "via", "for", "flight", "flt", "delta") + (
    "connecting",
    "connection",
    "onward",
    "booked",
)
_NOT_A_FLIGHT = "".join(rf"(?<!\b{lead} )" for lead in _FLIGHT_LEADS)


def _stated(cues: tuple[Cue, ...]) -> tuple[Cue, ...]:
    facts: dict[int, str] = {}
    for c in cues:
        facts.setdefault(c.code, c.fact)
    stated = []
    for code in sorted(DELAY_CODES):
        fact = facts.get(code, "cause")  # a code no words name yet: the generic fact
        words = rf"{_NOT_A_FLIGHT}dl ?{code}|(?:delay |iata |ahm 730 |ahm )?code {code}"
        words += rf"|cod(?:ed|ing) (?:as |it as )?{code}"
        if code == 99:  # AHM 730's "other", by its name
            words += r"|cod(?:ed|ing|e) (?:as |it as )?(?:other|misc\w*)"
        stated.append(cue(code, fact, STATED, words))
    return tuple(stated)


CUES: tuple[Cue, ...] = (*_WORDED, *_stated(_WORDED))

# Codes kept apart for the crew they name (a stated crew position completes them); for the weather and ATFM codes
# the station (departure or destination) decides between the codes of one family (cause.py).
CREW_CODES = frozenset({64, 67})
