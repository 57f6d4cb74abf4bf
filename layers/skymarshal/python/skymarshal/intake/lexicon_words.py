"""The word groups the cause lexicon's cues share (lexicon.py): people, parts and systems, states, vehicles, actions
and places, each an alternation of one- or two-word terms over the normalised, lower-case report (stems allowed)."""

from __future__ import annotations

FLIGHT_DECK = (
    r"captains?|commanders?|skippers?|first officers?|co-?pilots?|pilots?|flight deck|flightdeck|cockpit"
    r"|second officers?|2nd officers?|relief pilots?|cruise relief|flight engineers?"
)
# "a crew member" names the cabin unless the words before it say the flight deck's ("a cockpit crew member")
GENERIC_CREW_MEMBER = r"(?<!deck )(?<!cockpit )(?<!flight )crew members?"
CABIN = (
    r"cabin crew|cabin crews|cabin crew members?|cabin attendants?|flight attendants?|pursers?|stewards?|stewardess\w*"
    r"|cabin managers?|cabin seniors?|" + GENERIC_CREW_MEMBER + r"|cabin services? directors?|csd"
    # the senior cabin member's titles airlines give: "cabin director", "chief purser", "in-flight manager"
    r"|cabin directors?|cabin supervisors?|chief pursers?|chief stewards?|chief stewardess\w*|in-?flight managers?"
    r"|lead flight attendants?|senior flight attendants?|senior pursers?"
)
# A crew member out of duty time or short of rest is not unavailable: the rules compute what a shorter delay or a
# reserve allows (lexicon.py's crew_duty_limit cue reads those words), where "unavailable" would ground them.
UNAVAILABLE = (
    r"sick|sickness|ill|illness|unwell|no[- ]?shows?|unfit|fatigued?|fatigue|tired|exhausted|injur\w*|unavailable"
    r"|missing|absent"
    r"|stood down|called in|off sick|not reported|did not report|failed to report|short|shortage|incapacitated"
    r"|food poisoning|fever|vomiting|migraine|hospital\w*|medical\w*|licen[cs]e\w*|expired|lapsed|invalid"
    r"|show up|showed up|turn up|turned up|sign-?on|sign on"
    # cannot fly for want of a document: the passport (a licence or medical is the certificate cue's)
    r"|cannot operate|can't operate|unable to operate|without (?:a |his |her |their )?passport|no passport"
    r"|passport (?:missing|expired|lost|forgotten)"
)
# Unfit through fatigue (CAT.GEN.MPA.100(c)): unavailable now, but a minimum rest makes the member fit again, which
# no sickness does (intake/disruption_facts.py states it as crew_fatigue; arbitration/crew/rest.py reads it)
FATIGUE = r"\b(?:fatigu\w*|tired|exhausted|worn out|insufficient rest|not (?:fully )?rested|unrested)\b"
DEFECT = (
    r"fault\w*|fail\w*|defect\w*|inoperative|unserviceable|u/s|broken|leak\w*|crack\w*|warning|caution|snag\w*"
    r"|malfunction\w*|vibration\w*|aog|grounded|mel|no-?go|overheat\w*|smoke|fumes|burst|flat|worn|stuck|jammed"
    r"|not working|will not|won't|would not|wouldn't|does not|doesn't|lost|loss|tripp\w*|indication\w*|spurious"
    r"|replace\w*|tech\w*|mechanical|temperature|hot|rectif\w*|troubleshoot\w*|chipped|delaminat\w*|seized|erratic|low pressure"
    # what an inspection finds on a part: fluid escaping it, damage to its skin, a part come loose or gone
    r"|drip\w*|seep\w*|weep\w*|damaged|dent\w*|scratch\w*|gouge\w*|puncture\w*|corro\w*|loose|detached|missing"
    # an annunciated mismatch ("FLAP DISAGREE"), a part due for changing, a trend past its limit ("oil consumption")
    r"|disagree\w*|needs? (?:a )?(?:chang\w*|renew\w*)|needed chang\w*|requires? (?:a )?chang\w*"
    r"|to be (?:changed|renewed)|change required|consumption"
    # a reading past its limit ("pressure below limit"), a drive disconnected, a control surface out of step, a
    # unit being changed ("brake unit change")
    r"|(?:below|above|out of|outside|beyond) (?:the )?(?:min\w* |max\w* |)limits?|disconnect\w*|asymmetr\w*"
    r"|(?:unit|bottle|strut|wheel|brake|tyre|tire|engine|idg|generator|valve|pump|actuator|sensor|probe|computer"
    r"|starter) (?:change|replacement)"
)
AIRCRAFT_PARTS = (
    r"engines?|hydraulic\w*|gear|brakes?|tyres?|tires?|wheels?|apu|avionics|radar|transponder|autopilot|flaps?|slats?"
    r"|spoilers?|actuators?|windshield|windscreen|windows?|doors?|slides?|bleed|pack|packs|pressuri[sz]\w*"
    r"|generators?|fuel pump|fuel leak|fuel quantity|probes?|pitot|sensors?|computers?|display|fmc|fms|adiru|irs"
    r"|radios?|transceivers?|steering|nosewheel|nose wheel|oxygen|lavator\w*|toilets?|ife|galley ovens?|ovens?"
    r"|seats?|cargo door|fire detection|smoke detector|rudder|elevator|aileron|trim|landing light|lights?"
    r"|electrical|battery|batteries|starter|thrust reverser|reverser|ecam|eicas|tcas|egpws|wiring|panel|valve"
    r"|airframe|fuselage|nacelle|cowling|blade|fan|compressor|turbine|oil|radome|pressure controllers?|controller"
    r"|static wicks?|flap tracks?|skin|antennas?|fairings?|fluid|struts?|shock absorbers?|idgs?"
    r"|integrated drive generators?|slide bottles?|brake units?"
)
GROUND_VEHICLE = (
    r"trucks?|vehicles?|tugs?|tractors?|loaders?|hi-?loaders?|stairs|steps|jet ?bridge|air ?bridge|airbridge|bus"
    r"|buses|belt loader|dolly|dollies|baggage cart|catering truck|fuel truck|bowser|towbar|tow bar|pushback"
    r"|high-?loaders?|hi-?lifts?|high-?lifts?|catering lifts?|scissor lifts?"
    r"|ground equipment|gpu"
)
CONTACT = (
    r"hit|hits|struck|strikes|collided|collision|scraped|scrape|dented|dent|bumped|ran into|clipped|gashed|punctured"
    r"|touched|touch|nudged|grazed"
    r"|damag\w*|contact(?! stands?| positions?| gates?)|contacted|made contact"
)
# "strike" is the staff's action, never what hit the aircraft ("lightning strike", "bird strike", "tail strike": 51)
_NOT_HIT = "".join(rf"(?<!\b{w} )" for w in ("lightning", "bird", "tail", "wingtip", "engine", "pod", "hail"))
STRIKE_ACTION = (
    rf"{_NOT_HIT}(?:strike|strikes|striking)|walk-?out|walked out|industrial action|downed tools|down tools|stoppage|work to rule"
    r"|go-?slow|picket\w*|union action|protest\w*|labour dispute|labor dispute|stopped work|stop work|stopping work"
    r"|work stoppage|walked off|walk off|walking off|sick-?out|sit-?in|company dispute|industrial dispute"
)
OWN_STAFF = r"our|own|ey|etihad|company|airline's|our own"
OUTSIDE_STAFF = (
    r"handl\w*|contractors?|contracted|outsourced|airport staff|airport workers?|ground staff|baggage handlers"
    r"|fuel\w*|caterers?|customs|immigration|border|security staff|police|rail|national|general"
    r"|fire service|fire brigade|rffs|airport fire"
)
ATC = (
    r"atc|atfm|air traffic|controllers|flow control|flow management|flow measures?|eurocontrol|nmoc|cfmu|ctots?|slots?"
    # the FAA's traffic management programmes (a ground stop, a ground delay programme and its EDCTs)
    r"|faa|ground stops?|ground delay program\w*|gdp|edcts?"
)
ARRIVAL = r"arrival|destination|landing|land|lands|inbound flow|arr|approach"
WEATHER = (
    r"fog|foggy|mist|visibility|low vis|lvp|thunderstorms?|storms?|cb|cumulonimbus|lightning|snow\w*|blizzard|ice"
    r"|icing|freezing|hail|sandstorm|dust\w*|sand|haze|wind|winds|windy|gust\w*|crosswind\w*|typhoon|hurricane"
    r"|cyclone|monsoon|heavy rain|rain|downpour|flood\w*|weather|wx|volcanic ash|ash cloud|squall\w*|turbulence"
    r"|shear|windshear|heat|cbs|convective|convection"
)


def load(nouns: str) -> str:
    """A load's nouns (baggage, cargo, mail) as a cue group that does not match the load named as what is loaded:
    "cargo loading delayed", "baggage handlers late" are the ramp's loading (AHM 730 32: loading/unloading, lack of
    loading staff), not the load's own cause (18 baggage processing, 22 cargo positioning, 28 mail)."""
    # one word may stand between, the rest of a compound noun ("mail bags loading", "cargo pallet loading"); a load
    # naming a part of the aircraft ("cargo door", "cargo compartment") is that part
    loaded = r"(?:\s+[a-z]+)?\s+(?:loading|unloading|offloading|loaders?|handlers?)(?![\w])"
    return rf"(?:{nouns})(?!{loaded}|\s+(?:doors?|compartments?|holds?|bays?)(?![\w]))"


# A system's failure: down, crashed, unavailable, refusing its input
SYSTEM_FAILED = (
    r"crash\w*|down|outages?|offline|unavailable|not available|fail\w*|not working|stopped working|froze|frozen|hung"
    r"|glitch\w*|errors?|did not accept|would not accept|unable|inoperative|u/s"
)


def software(work: str) -> str:
    """A system named by the work it does ("the cargo management system", "the load control app"): the work's words
    (at most two more words between) right before a word for software, as one cue group (AHM 730 55-58)."""
    return rf"(?:{work})(?:\s+[a-z&-]+){{0,2}}?\s+(?:systems?|applications?|apps?|software|tools?|servers?|database)"


# A crew member arriving on another flight: "operating in on EY80", "positioning in on a late flight", "coming off
# the delayed inbound"
ARRIVING_ON = (
    r"operating in on|positioning in on|positioned in on|coming in on|arriving on|coming off|off the late"
    r"|off (?:the )?[a-z]{2} ?\d{1,4}\b|off (?:the )?(?:inbound|incoming|previous|earlier)"  # "the crew off EY304"
)
