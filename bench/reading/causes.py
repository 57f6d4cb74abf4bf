"""The bench's own words for each AHM 730 cause, written apart from the reader (see vocabulary.py).

One entry per cause: the family, the code where the words fix one, the scopes it may be reported for, and its
phrasings separated by " | ": clauses for narrative and log lines, shorthand as OCC logs write it, and clauses
about an airport over a window. `{pos}` is a crew position's words, `{station}` an airport, `{airspace}` an FIR.
"""

from __future__ import annotations

from dataclasses import dataclass

SCOPES = ("flight", "flights", "tail", "crew_member", "airport", "airspace")


@dataclass(frozen=True)
class CauseWords:
    """One cause in an OCC's words. `code` None: the words fix the family, not one code of it."""

    family: str
    code: int | None
    scopes: frozenset[str]
    clauses: tuple[str, ...]  # "a hydraulic leak was found on the left main gear"
    shorthand: tuple[str, ...]  # "HYD LEAK LH MLG"
    station_clauses: tuple[str, ...] = ()  # "{station} has lost its ILS"
    closes: bool = False  # the station words stop every movement (else they cut capacity)


def _split(phrases: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in phrases.split(" | ") if p.strip())


def _c(
    family: str, code: int | None, scopes: str, clauses: str, shorthand: str, station: str = "", closes: bool = False
):
    unknown = set(scopes.split()) - set(SCOPES)
    assert not unknown, f"unknown scope {unknown}"  # a typo here would silently drop a scope from the corpus
    return CauseWords(
        family, code, frozenset(scopes.split()), _split(clauses), _split(shorthand), _split(station), closes
    )


PAX, CARGO, RAMP, TECH, DAMAGE = (
    "passengers_baggage",
    "cargo_mail",
    "aircraft_ramp_handling",
    "technical",
    "damage_automation",
)
OPS, WX, ATFM, REACT, MISC = (
    "flight_operations_crew",
    "weather",
    "atfm_airport_government",
    "reactionary",
    "miscellaneous",
)

CAUSES: tuple[CauseWords, ...] = (
    _c(
        PAX,
        12,
        "flight flights",
        "queues at the check-in counters are over an hour long | check-in hall is congested and the counters cannot keep up",
        "CHK-IN CONGESTED, LONG Q AT COUNTERS | CKIN HALL OVERLOADED",
    ),
    _c(
        PAX,
        15,
        "flight",
        "two travellers checked their bags and never turned up at the gate | a guest became aggressive at the door and had to be taken off by police | the gate is still paging three no-show travellers",
        "2 NOSHOW PAX AT GATE, HOLD BAGS TO COME OFF | DISRUPTIVE PAX REMOVED BY POLICE | PAGING 3 PAX AT GATE",
    ),
    _c(
        PAX,
        18,
        "flight flights airport",
        "the bag sortation system stopped and hold bags are piling up | baggage belts in the make-up area are stuck",
        "BHS DOWN, BAGS NOT SORTED | BAG MAKE-UP BELTS STUCK",
        "{station} hold baggage system is down | the bag sortation plant at {station} has stopped",
    ),
    _c(
        PAX,
        19,
        "flight",
        "the ambulift for a wheelchair traveller turned up forty minutes late | special assistance for a traveller who cannot walk to the aircraft has not arrived",
        "AWTG AMBULIFT FOR WCHC PAX | WCHR ASSISTANCE NOT ARRIVED",
    ),
    _c(
        CARGO,
        21,
        "flight",
        "the air waybill for a lithium battery shipment is missing | the NOTOC for the class 3 freight has errors and must be redone",
        "AWB MISSING FOR LI-ION SHPT | NOTOC WRONG, REISSUE",
    ),
    _c(
        CARGO,
        22,
        "flight",
        "freight from the cargo terminal reached the stand late | the ULDs of freight were not at the aircraft on time",
        "CGO LATE TO STAND | FRT ULDS NOT AT A/C",
    ),
    _c(
        CARGO,
        24,
        "flight",
        "a drum in a freight consignment is leaking and needs repacking | a shipment's crate broke open and must be repacked",
        "LEAKING DRUM IN CGO, REPACK | CRATE BROKEN, REPACK REQ",
    ),
    _c(
        CARGO,
        27,
        "flight",
        "the mail bags came without their dispatch documents | postal bags arrived with no paperwork",
        "MAIL DOCS MISSING | POST BAGS NO PAPERWORK",
    ),
    _c(
        RAMP,
        31,
        "flight",
        "the load sheet came through late with wrong figures | weight and balance figures were wrong and had to be recalculated",
        "LOADSHEET LATE/WRONG | W&B RECALC",
    ),
    _c(
        RAMP,
        32,
        "flight",
        "the ramp team is short of loaders and the hold went in slowly | not enough ramp agents to load the hold",
        "RAMP STAFF SHORT, LDG SLOW | NOT ENUF LOADERS ON RAMP",
    ),
    _c(
        RAMP,
        33,
        "flight",
        "the main deck lift platform has broken down | the container lift at the stand is out of action",
        "MD LIFT PLATFORM BROKEN | CONT LIFT OUT OF ACTION",
    ),
    _c(
        RAMP,
        34,
        "flight",
        "no ground power unit is working at the stand | the lavatory service truck broke down beside the aircraft | the potable water truck is out of action",
        "GPU U/S AT STAND | TOILET TRUCK BROKEN | WATER TRUCK OUT",
    ),
    _c(
        RAMP,
        None,
        "flight",
        "the pushback tug has not turned up | the tow tractor for pushback broke down",
        "NO PUSHBACK TUG | PUSH TUG BROKEN",
    ),
    _c(
        RAMP,
        35,
        "flight",
        "cabin cleaning ran well over the turnaround | the cleaning team left the cabin half done",
        "CLNG LATE | CABIN NOT CLEANED",
    ),
    _c(
        RAMP,
        36,
        "flight flights airport",
        "the fuel bowser has not shown up at the stand | the into-plane supplier cannot put fuel on for about two hours | the hydrant dispenser at the stand broke down",
        "NO BOWSER, AWTG FUELLER | FUEL SUPPLIER CANNOT UPLIFT FOR 2HRS | HYDRANT DISPENSER BROKEN",
        "the into-plane fuel supplier at {station} cannot refuel anyone | {station} hydrant system has no pressure",
    ),
    _c(
        RAMP,
        37,
        "flight",
        "the meals have not been loaded yet | the galley carts were delivered to the wrong aircraft",
        "MEALS NOT LOADED | CARTS TO WRONG A/C",
    ),
    _c(
        TECH,
        41,
        "flight tail",
        "a hydraulic leak was found on the left main gear | the number two bleed valve keeps faulting | the weather radar does not work | the APU will not start | the windshield has a crack in the outer ply | a flap asymmetry caution appeared on the walkaround checks | a brake temperature sensor reads high on wheel three",
        "HYD LEAK LH MLG | #2 BLEED FAULT | WX RADAR U/S | APU WONT START | WINDSHIELD CRACKED | FLAP ASYM CAUTION | BRK TEMP HI WHL 3",
    ),
    _c(
        TECH,
        42,
        "flight tail",
        "its A-check in the hangar is running past the planned release time | the overnight hangar check has not finished",
        "A-CHK OVERRUN, LATE RLS EX HGR | NIGHT CHK NOT COMPLETE",
    ),
    _c(
        TECH,
        44,
        "flight tail",
        "engineers are waiting for a replacement starter valve from stores | the spare wheel assembly is not in stock",
        "AWTG SPARE STARTER VALVE | NO SPARE WHEEL IN STOCK",
    ),
    _c(
        DAMAGE,
        51,
        "flight tail",
        "it hit a flock of gulls on short final | it took a lightning hit in the climb | severe hail on the descent dented the radome",
        "BIRDSTRIKE ON FINAL | LTNG HIT IN CLB | HAIL DMG RADOME",
    ),
    _c(
        DAMAGE,
        52,
        "flight tail",
        "a catering high-lift truck scraped the forward door | the passenger steps made contact with the fuselage | the tug touched the nose gear during pushback",
        "CTRG TRUCK SCRAPED FWD DOOR | STEPS CONTACT FUSELAGE | TUG CONTACT NLG ON PUSH",
    ),
    _c(
        DAMAGE,
        55,
        "flight airport",
        "the departure control system froze during boarding | the check-in and boarding system is offline",
        "DCS FROZEN AT BOARDING | DCS OFFLINE",
        "the departure control system at {station} is offline",
    ),
    _c(
        OPS,
        64,
        "crew_member",
        "the {pos} has called in sick | the {pos} has not reported for duty | the {pos}'s medical certificate was found expired at briefing | the {pos} is unwell and has stood down | the {pos} declared fatigue and is unfit to operate",
        "{pos} SICK | {pos} NO SHOW | {pos} MEDICAL EXPIRED | {pos} UNWELL, STOOD DOWN | {pos} FATIGUED, UNFIT",
    ),
    _c(
        OPS,
        67,
        "crew_member",
        "the {pos} has called in sick | the {pos} did not show up for sign-on | the {pos} fell ill at briefing",
        "{pos} SICK | {pos} NO SHOW AT SIGN-ON | {pos} ILL AT BRIEFING",
    ),
    _c(
        WX,
        71,
        "flight flights airport",
        "thick fog sits over {station} and visibility is down to 100 metres | a sandstorm at {station} has brought visibility below take-off minima",
        "FG AT {station}, VIS 100M | SS AT {station}, BLW TKOF MINS",
        "thick fog sits over {station} with visibility near zero | a sandstorm over {station} has brought visibility below minima",
        closes=True,
    ),
    _c(
        WX,
        72,
        "flight flights",
        "heavy snow at {station} is below landing minima | freezing fog at {station} is below the approach minima",
        "+SN AT {station}, BLW LDG MINS | FZFG AT {station} BLW APCH MINS",
    ),
    _c(
        WX,
        73,
        "airspace",
        "",
        "",
        "a line of thunderstorms sits across the {airspace} and traffic from {station} must reroute",
    ),
    _c(
        WX,
        75,
        "flight airport",
        "the aircraft needs anti-icing and the queue at the pad is long | frost on the wings means a long wait at the anti-ice pad",
        "ANTI-ICE REQ, LONG Q AT PAD | FROST ON WINGS, AWTG ANTI-ICE",
        "everything leaving {station} has to go through the anti-icing pads",
    ),
    _c(
        WX,
        76,
        "airport",
        "",
        "",
        "{station} runways are shut for snow clearance | the snow ploughs are clearing every runway at {station}",
        closes=True,
    ),
    _c(
        ATFM,
        81,
        "flight airspace",
        "Eurocontrol has given it a CTOT an hour after schedule for en-route demand | an en-route flow measure gave it a calculated take-off 75 minutes late",
        "CTOT +60 EN-ROUTE REGUL | EUROCONTROL REGUL, CTOT +75",
        "en-route demand regulation in the {airspace} holds traffic out of {station}",
    ),
    _c(
        ATFM,
        82,
        "airspace",
        "",
        "",
        "controller shortage in the {airspace} restricts departures from {station} | a radar outage in the {airspace} restricts traffic from {station}",
    ),
    _c(
        ATFM,
        83,
        "flight",
        "the destination has only given it a landing slot two hours late | {station} is restricting arrivals and its slot is 90 minutes late",
        "DEST ARR RESTRICTION, SLOT +2H | {station} ARR RESTR, SLOT +90",
    ),
    _c(
        ATFM,
        85,
        "flight airport",
        "an unattended bag in the terminal means screening is repeated | security found an item in the hold and the bags are being rescreened",
        "UNATTENDED BAG, RESCREEN | SEC ITEM IN HOLD, RESCREEN BAGS",
        "{station} terminal has been evacuated over a suspicious package | police have stopped every movement at {station} after a drone was seen",
        closes=True,
    ),
    _c(
        ATFM,
        87,
        "flights airport",
        "the runway at {station} is shut for emergency repairs | {station} lost its only ILS",
        "RWY AT {station} SHUT FOR REPAIRS | ILS U/S AT {station}",
        "{station} runway is shut for emergency pavement repairs | {station} has lost its ILS and fire cover is downgraded",
        closes=True,
    ),
    _c(
        ATFM,
        89,
        "airport",
        "",
        "",
        "air traffic controllers at {station} are on a walk-out | an ATC strike at {station} is under way",
    ),
    _c(
        REACT,
        91,
        "flight",
        "it is holding for transfer travellers off a delayed connecting service | we are holding for connecting bags from a late arrival",
        "AWTG CNX PAX EX LATE ARR | HOLD FOR CNX BAGS",
    ),
    _c(
        REACT,
        93,
        "flight tail",
        "the aircraft is coming in late from its previous sector | its aircraft is still an hour out on the previous leg",
        "LATE INB A/C | A/C STILL 1H OUT ON PREV SECTOR",
    ),
    _c(
        REACT,
        95,
        "flight",
        "the operating crew is still on a delayed previous sector | its crew are coming off a late arrival and have not reached the gate",
        "OPERATING CREW ON LATE PREV SECTOR | CREW EX LATE ARR NOT AT GATE",
    ),
    _c(
        MISC,
        97,
        "flight airport",
        "our own ground staff have stopped work over pay | company ramp staff have walked off the job",
        "OWN GND STAFF STOPPAGE | COMPANY RAMP STAFF WALKOUT",
        "our own staff at {station} have stopped work over pay",
    ),
    _c(
        MISC,
        98,
        "flight airport",
        "the handling agent's staff are on a stoppage | the contracted handlers have downed tools",
        "HDLG AGENT STOPPAGE | HANDLERS DOWNED TOOLS",
        "the contracted handling staff at {station} have downed tools",
    ),
)
