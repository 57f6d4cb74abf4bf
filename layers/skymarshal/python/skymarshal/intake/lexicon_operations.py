"""The cause lexicon's cues for AHM 730 codes 61-99: flight operations and crew, weather, ATFM and airport,
reactionary, miscellaneous (lexicon.py holds codes 11-58 and joins the two)."""

from __future__ import annotations

from .lexicon_cue import Cue, cue
from .lexicon_words import (
    ARRIVAL,
    ARRIVING_ON,
    ATC,
    CABIN,
    FLIGHT_DECK,
    OUTSIDE_STAFF,
    OWN_STAFF,
    STRIKE_ACTION,
    UNAVAILABLE,
    WEATHER,
)

# low-visibility operations named by their procedure or measure
VISIBILITY = r"lvps?|low visibility procedures|low vis procedures|rvr|runway visual range"
# AHM 730 65/68: "special request, not within operational requirements", in the words an OCC writes it
NOT_OPERATIONAL = (
    r"special requests?|not (?:an |a )?(?:operations|operational|ops) (?:requirement|required|need\w*)"
    r"|not (?:operationally|operational) (?:required|necessary|needed)|not required (?:for|by) (?:the )?(?:operations?|ops)"
    r"|not within operational requirements"
)
# what belongs to the crew themselves: their meals, rest places, bedding, their own bag
CREW_OWN = r"crew (?:meals?|food|rest|bunks?|bedding|seats?|hotel)|bunks?|bedding|(?:flight|crew|his|her|their) bags?"

OPERATIONS_CUES: tuple[Cue, ...] = (
    # 61-69 flight operations and crew
    # the flight plan named with what happened to it names 61 (AHM 730's own words: its late completion or change)
    cue(
        61,
        "flight_plan",
        3,
        r"flight plan|flightplan|ofp|briefing pack",
        r"late|change\w*|amend\w*|missing|refiled|revis\w*|re-?issu\w*|re-?releas\w*",
    ),
    cue(62, "operational_requirement", 2, r"extra fuel|additional fuel|fuel uplift|load alteration|reduced load"),
    # AHM 730's own words for 62 ("load alteration"), and the commander's decision to carry more fuel: the
    # operational requirement, above the bowser or the loaders that carry it out
    cue(62, "operational_requirement", 3.5, r"load alteration|load alterations"),
    cue(
        62,
        "operational_requirement",
        4,
        FLIGHT_DECK,
        r"(?:extra|additional|more|further|discretionary) (?:\d+(?:\.\d+)? ?)?(?:fuel|t|tonnes?|tons?|kgs?)\b"
        r"|\d+(?:\.\d+)? ?(?:t|tonnes?|tons?|kgs?) (?:of )?(?:extra|additional|more)"
        r"|fuel for (?:expected |the )?holding|tankering",
    ),
    cue(63, "crew_boarding", 2, r"crew", r"late boarding|boarded late|late to|transport|hotel|bus|pick-?up"),
    # a crew member named as the one late (reporting, at briefing, boarding): the crew's lateness (63), not the
    # passengers' boarding (15) nor an unexplained delay
    cue(
        63,
        "crew_boarding",
        3,
        FLIGHT_DECK + "|" + CABIN + r"|crew|crews",
        # late to report or to the briefing in any order of the words, missing it, or the crew's own boarding late
        r"late (?:for |to |at |in )?(?:the )?(?:briefing|report\w*|sign-?in)|(?:reporting|reported|briefed) late"
        r"|(?:not|never) (?:at|in|for) (?:the )?briefing|miss\w* (?:the )?briefing|late crew boarding|crew boarding late"
        # or late to the aircraft itself: "late at the a/c", "arrived at the aircraft after the others"
        r"|late (?:at|to) (?:the |)(?:aircraft|a/c|plane|gate)"
        r"|(?:arrived|got|came|were|was)? ?(?:at|to) (?:the |)(?:aircraft|a/c|plane|gate) (?:late|after)"
        # or signed on late ("signed on 35 mins late")
        r"|sign(?:ed|s)?[- ]?on (?:\S+ ){0,3}late",
    ),
    # AHM 730's own words for 63: the departure procedures late, whoever is named
    cue(
        63,
        "crew_boarding",
        3,
        r"(?:late|delayed) (?:departure|dep) procedures|(?:departure|dep) procedures (?:\w+ )?(?:late|delayed)",
    ),
    cue(64, "crew_unavailable", 3, FLIGHT_DECK, UNAVAILABLE),
    cue(64, "crew_duty_limit", 2.5, r"duty time|duty hours|duty limits?|fdp|ftl|flight time limit\w*|discretion"),
    cue(
        64,
        "crew_duty_limit",
        2.5,
        FLIGHT_DECK + "|" + CABIN + r"|crew|crews",
        r"timed? out|out of hours|over hours|exceed\w*|out of duty|short of rest|insufficient rest|no rest",
    ),
    cue(64, "crew_unavailable", 2, r"pilot|pilots|flight crew|cockpit crew", r"standby|awaiting|reserve|short"),
    # "a crew shortage" naming no position: flight crew shortage, the code AHM 730 gives first; a named cabin
    # position (67, weight 3) or flight-deck position (64, weight 3) outweighs it
    cue(64, "crew_unavailable", 1.5, r"crew|crews", r"short|shortage|shortfall|understaffed|not enough|unavailable"),
    cue(
        64,
        "crew_unavailable",
        2,
        r"medical certificate|medical certificates|class 1|licen[cs]e|licen[cs]es|type rating|recency|proficiency"
        r"|line check|simulator check",
        r"expired|lapsed|invalid|not valid|out of date|overdue|missing|suspended",
    ),
    cue(65, "crew_request", 2, FLIGHT_DECK, r"request\w*|insist\w*|asked for|refus\w*"),
    # a crew member's request said to be beyond the operation's needs (AHM 730's "special request, not within
    # operational requirements"), or for the crew's own things (their meals, rest seats, bedding, bag): the request
    # is the cause, above the caterers, cleaners or engineers who carry it out
    cue(65, "crew_request", 4.5, FLIGHT_DECK + r"|flight crew|cockpit crew", NOT_OPERATIONAL),
    cue(65, "crew_request", 4, FLIGHT_DECK, r"ask\w*|request\w*|insist\w*|wants?", CREW_OWN),
    cue(66, "crew_boarding", 2, CABIN, r"late|boarded late|transport|hotel|bus"),
    cue(67, "crew_unavailable", 3, CABIN, UNAVAILABLE),
    cue(68, "crew_request", 1.5, CABIN, r"request\w*|error\w*|mistake\w*"),
    cue(68, "crew_request", 4.5, CABIN, NOT_OPERATIONAL),
    # the cabin crew's own error (a miscount, a wrong report) is 68, above the passengers or doors it concerns
    cue(68, "crew_request", 3.5, CABIN, r"miscount\w*|wrong|incorrect\w*|forgot\w*|failed to"),
    # the captain asking for the search names the cause (69), above the security family's words it shares (85)
    cue(69, "security_check", 4, r"captain|commander", r"security check|security search|search of|security sweep"),
    # 71-77 weather
    cue(71, "weather", 2, WEATHER),
    # the visibility procedures themselves (LVP, an RVR): weather, above the ATC holds that follow from them — at the
    # destination when the report says so, as the plain weather words are (72 above 71)
    cue(71, "weather", 3.5, VISIBILITY),
    cue(72, "weather", 4, VISIBILITY, ARRIVAL + r"|divert\w*|go-?around|hold\w* (?:over|at destination)|alternate"),
    cue(72, "weather", 2.5, WEATHER, ARRIVAL + r"|divert\w*|go-?around|hold\w*|alternate"),
    cue(73, "weather", 2.5, WEATHER, r"en-?route|enroute|fir|airspace|route|re-?rout\w*|along|across|track"),
    # the alternate gone below its weather minima: AHM 730 73's "at alternate", whatever else the plan then needs
    cue(73, "weather", 3, r"alternates?", r"below (?:the |its |their )?(?:landing |planning )?minim\w*"),
    cue(75, "de_icing", 3.5, r"de-?ic\w*|anti-?ic\w*|deice\w*|antice\w*|de ice|anti ice|glycol|icing pad|deicing pad"),
    cue(
        76,
        "runway_clearance",
        3,
        r"snow|ice|sand|water|slush|standing water|drifts?",
        r"clear\w*|removal|remov\w*|plough\w*|plow\w*|sweep\w*|sweepers?|contaminat\w*|friction",
    ),
    cue(  # the weather stopping a ramp task outranks the task it stops (fuelling suspended for lightning: 77, not 36)
        77,
        "weather_ramp",
        3.5,
        r"ramp|apron|ground handling|handlers|ground ops|ground operations|loading|refuel\w*|fuell?ing|ramp staff",
        r"lightning|thunderstorm\w*|storm\w*|heat|hail|wind\w*|gust\w*|rain|flood\w*",
        r"suspend\w*|stopp?\w*|halt\w*|closed|shut|cleared|withdrawn|sheltering|shelter|red alert|amber alert|alert",
    ),
    # 81-89 ATFM and airport / government restrictions
    cue(81, "atfm_regulation", 2.5, ATC),
    cue(
        81, "atfm_regulation", 2.5, r"regulation|regulated|demand|capacity|congestion", r"en-?route|airspace|fir|sector"
    ),
    cue(
        82,
        "atfm_regulation",
        3,
        ATC,
        r"strike|strikes|industrial|walk-?out|staff\w*|shortage|sick\w*|equipment|radar|system|outage|failure|fail\w*"
        r"|radio|frequency|unmanned|understaffed|short",
    ),
    cue(83, "atfm_regulation", 3, ATC, ARRIVAL),
    cue(83, "atfm_regulation", 2, r"arrival|destination|landing", r"restrict\w*|regulat\w*|slot\w*|flow|rate"),
    cue(84, "atfm_regulation", 2, ATC, WEATHER, ARRIVAL),
    cue(
        85,
        "security",
        3,
        r"security alert|security incident|security threat|security search|security check|security screening"
        r"|bomb threat|suspicious|unattended|evacuat\w*|drones?|uav|police|threat|breach",
    ),
    # screening the authority adds ("additional screening of all hold baggage"): security whoever orders it
    cue(
        85,
        "security",
        3,
        r"(?:additional|extra|enhanced|mandatory|increased|secondary) (?:security )?(?:screening|searches)",
    ),
    cue(
        85,
        "security",
        2.5,
        r"security",
        r"alert|incident|threat|search|check|screen\w*|rescreen\w*|queue\w*|closed|sweep|found|item|bags?",
    ),
    cue(
        86,
        "government_check",
        3,
        r"immigration|customs|passport control|border control|border force|health check|quarantine|health authority"
        r"|port health|health officers?|health declarations?|health screening",
    ),
    cue(
        87,
        "airport_restriction",
        2.5,
        r"runways?|taxiways?|stands?|gates?|terminal|apron|ils|lighting|approach lights|fire cover|fire service"
        r"|rescue|rff|navaid|navaids|vor|jet bridges|airbridges|parking|power outage|power failure|baggage system",
        r"closed|closure|shut|works|repair\w*|maintenance|unavailable|out|lost|outage|fail\w*|inoperative"
        r"|unserviceable|downgrad\w*|congest\w*|no|limited|reduced|blocked|obstruct\w*|disabled|full|occupied|in use"
        r"|broke\w*|breakdown",
    ),
    cue(87, "airport_restriction", 1.5, r"airport|aerodrome", r"closed|closure|shut|capacity|restrict\w*"),
    # the airport's facilities short or broken down (no contact stand, not enough buses, its baggage system)
    cue(
        87,
        "airport_restriction",
        3.5,
        r"no (?:free )?(?:contact )?stands?|(?:contact )?stands? (?:not available|unavailable)|not enough (?:buses|stands|gates)"
        r"|airport facilit\w*|airport(?:'s)? (?:baggage|bhs|power|jet ?bridges?|air ?bridges?)",
    ),
    cue(88, "airport_restriction", 2, r"curfew|night ban|night restriction|noise restriction|noise abatement"),
    # a VIP's movement closing or restricting the airport (AHM 730 88/89), not a VIP on the flight (16)
    cue(
        89,
        "airport_restriction",
        4,
        r"vip|vvip|state visit|head of state|dignitar\w*|royal",
        r"movements?|restrict\w*|closed|closure|runway|rwy",
    ),
    cue(
        89,
        "airport_restriction",
        2.5,
        r"departure|departures|start-?up|startup|push|pushback clearance|taxi\w*",
        r"restrict\w*|regulat\w*|rate|spacing|separation|queue\w*|hold\w*|clearance",
        r"atc|tower|ground control|airport|departures|start-?up|startup",
    ),
    # 91-96 reactionary
    # a connection named outranks the load it carries (cargo or mail "late" alone: lexicon.CARGO_NAMED); AHM 730 91
    # is a load awaited from another flight, so passengers connecting *to* a flight or their onward flights are what
    # the delay costs, not its cause
    cue(
        91,
        "load_connection",
        3.75,
        r"(?:connecting|connection|transfer|transit(?! checks?| inspections?))(?! (?:to|onto|on to|into)\b)",
        r"passengers|travell?ers|customers|guests|load|bags|baggage|cargo|awaiting|waiting|held for|hold for|holding"
        r"|from|service|flights?",
    ),
    cue(91, "load_connection", 3.75, r"onward", r"awaiting|waiting|held for|hold for|holding"),
    cue(92, "through_check_in", 3, r"through check-?in|through-?check\w*|interline check-?in"),
    # the same error on passengers checked through from another station outweighs the check-in error's words (13)
    cue(
        92,
        "through_check_in",
        4,
        r"through check-?in|through-?check\w*|interline check-?in",
        r"wrong\w*|error\w*|incorrect\w*|mis-?\w+|instead of",
    ),
    cue(
        93,
        "aircraft_rotation",
        3,
        r"inbound|previous sector|previous leg|previous flight|prior sector|earlier sector|rotation|knock-?on"
        r"|reactionary|consequential|preceding sector|preceding flight|incoming|late arrival|arrived late"
        r"|came in late|coming in",
        r"late|delay\w*|behind|slipp?\w*|still|running|out|airborne|arriv\w*|rotation|knock-?on|reactionary"
        r"|consequential",
    ),
    cue(  # the aircraft itself said to have come in late, however the arrival is worded ("landed", "back", "in from"):
        # the aircraft before its arrival, the arrival before "late" ("cargo arrived late at the aircraft" is the load)
        93,
        "aircraft_rotation",
        3,
        r"(?:aircraft|a/c|plane|equipment|tail)(?:\s+\S+){0,3}?\s+"
        r"(?:(?:land\w*|arriv\w*|came|come|coming|got|touched down)(?:\s+\S+){0,2}?\s+(?:late|behind)"
        r"|late\s+(?:in|back)|(?:in|back)\s+late)",
    ),
    # the cabin crew awaited from the inbound (late, waited for), not hurt on it ("turbulence on inbound, 2 CC injured")
    cue(
        94,
        "cabin_crew_rotation",
        4,
        CABIN,
        r"inbound|previous|connecting|other flight|another flight|rotation",
        r"late|delay\w*|behind|wait\w*|await\w*|rotation|held|hold\w*|not (?:yet )?(?:arrived|here|at)",
    ),
    # a crew awaited from another flight: operating or positioning in on it, coming off it (AHM 730 94 cabin, 95
    # flight deck or the whole crew)
    cue(94, "cabin_crew_rotation", 4, CABIN, ARRIVING_ON),
    cue(95, "crew_rotation", 3.5, FLIGHT_DECK + r"|(?<!cabin )crew|flight crew|operating crew", ARRIVING_ON),
    cue(
        95,
        "crew_rotation",
        3.5,
        r"(?<!cabin )crew|pilots|flight crew|operating crew",  # the cabin crew's rotation is 94
        r"inbound|previous|prior|connecting|other flight|another flight|rotation|preceding|earlier|late sector"
        r"|from a|positioning|still on",
    ),
    cue(
        96,
        "operations_control",
        2,
        r"operations control|ops control|network control|hub control",
        r"decision|decided|request\w*|instruct\w*|held|hold\w*|protect\w*",
    ),
    # an aircraft changed by the OCC for other than technical reasons (capacity, planning) — AHM 730 96 — above what
    # the new aircraft then needs (catering, fuel)
    cue(
        96,
        "operations_control",
        4,
        r"(?:aircraft|tail|equipment) (?:swap|change)\w*|swapp?\w* (?:the )?(?:tails|aircraft)|(?:tail|aircraft) swapp?\w*"
        r"|swapp?\w* (?:the )?tails?",
        r"\bocc\b|operations control|ops control|network control|capacity|commercial|\bplanning|not tech\w*"
        r"|operational reasons?|initiated",
    ),
    # 97-99 miscellaneous
    # industrial action is the cause above the work it holds up (cargo late, a loadsheet late, counters shut)
    cue(97, "industrial_action", 4, STRIKE_ACTION, OWN_STAFF + r"|pilots|cabin crew|crew|staff|engineers"),
    cue(98, "industrial_action", 4.5, STRIKE_ACTION, OUTSIDE_STAFF),
    cue(98, "industrial_action", 2.5, STRIKE_ACTION),
    # a delay the report states without its reason: "other", at the lowest weight (any named cause outranks it)
    cue(
        99,
        "unexplained_delay",
        0.5,
        r"delay\w*|late|held|holding|hold|waiting|stuck|behind|disrupt\w*|problems?|issues?|cancel\w*|divert\w*",
    ),
)
