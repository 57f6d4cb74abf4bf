"""The cause lexicon's passenger, baggage, cargo and mail cues (AHM 730 codes 11-29), as data: lexicon.py explains
cues and weights and holds them all in order (these come first)."""

from __future__ import annotations

from .lexicon_cue import Cue, cue
from .lexicon_words import load

# The load named with what happened to it ("cargo arrived late", "mail bags late", "cargo overbooked", "DG drum
# leaking") names a cargo or mail cause: it outranks the same verb read alone as another family's ("arrived late"
# is an aircraft's rotation, "overbooked" a passenger cabin's, "bags" passengers' baggage).
CARGO_NAMED = 3.5
# A family named without its cause ("ramp handling delay", "pax-related", "cargo issue"): the family, at a weight any
# cue that names a cause outranks.
FAMILY_ONLY = 1.5

LOAD_CUES: tuple[Cue, ...] = (
    # 11-19 passengers and baggage
    cue(11, "check_in", 2, r"check-?in", r"late|after|closed|deadline|closure"),
    # passengers taken after the counters closed (AHM 730 11's "acceptance after deadline"), by whoever asked
    cue(
        11, "check_in", 3, r"after (?:the )?(?:counters?|check-?in|desks?) (?:clos\w*|shut)|accepted (?:\S+ ){0,4}late"
    ),
    cue(
        12,
        "check_in",
        2.5,
        r"check-?in|counters?|kiosks?",
        r"queues?|queuing|congest\w*|crowd\w*|long lines?|busy|overloaded|overcrowded|backed up|chaos|chaotic|jammed"
        r"|not enough agents|short of agents",
    ),
    cue(13, "check_in", 2, r"check-?in", r"error\w*|mistakes?|wrong\w*|incorrect\w*"),
    # passengers checked in or boarding cards issued for the wrong flight, bags tagged to the wrong place: what the
    # counter did, whatever system the fix went through ("rectified in DCS") — the check-in error AHM 730 13 is
    cue(
        13,
        "check_in",
        3.5,
        r"checked[- ]in|checked|check-?in agents?|counter agents?|boarding (?:cards?|pass(?:es)?)|tagged|bag tags?",
        r"wrong (?:flights?|destinations?)|in error|by mistake|wrongly|instead of",
    ),
    cue(14, "oversales", 3, r"overbook\w*|oversold|oversales?|denied boarding|booking errors?"),
    cue(
        15,
        "boarding",
        2,
        r"boarding|gate|passengers?|pax|travell?ers?|customers?|headcount|paging|no-?show\w*",
        r"slow|late|delayed|discrepanc\w*|miscount\w*|paged|paging|no-?shows?|missing|offload\w*|disruptive|unruly"
        r"|intoxicated|drunk|refus\w*|search\w*|unaccounted|did not board|failed to board|turned up|turn up|show up"
        r"|showed up|never",
    ),
    cue(15, "boarding", 1, r"boarding|headcount"),
    # passengers paged or not showing at the gate (AHM 730 15's "paging, missing checked-in passenger") whatever
    # flight they came off: above a transfer load awaited (91)
    cue(
        15,
        "boarding",
        4,
        r"paging|paged|page for|no-?shows?",
        r"pax|passengers?|travell?ers?|customers?|guests?|gate",  # a crew member's no-show is the crew's
    ),
    cue(
        15,
        "boarding",
        3.5,
        r"passengers?|pax|travell?ers?|customers?|guests?",
        r"disruptive|unruly|intoxicated|drunk|abusive|violent|aggressive|refus\w*",
    ),
    cue(15, "boarding", FAMILY_ONLY, r"(?:pax|passengers?)[- ]related|(?:pax|passengers?) issues?"),
    # the count of those boarded not matching (AHM 730 15's "discrepancies"), above the system or paper it is checked
    # against (the DCS, the loadsheet)
    cue(
        15,
        "boarding",
        3.5,
        r"head ?counts?|(?:pax|passengers?) counts?|boarding discrepanc\w*|boarded figures?",
        r"match\w*|mismatch\w*|discrepan\w*|differ\w*|\bvs\b|versus|recount\w*|extra|short|diff",
    ),
    cue(16, "vip", 3, r"vip|vvip|dignitar\w*|royal|head of state|minister\w*|delegation"),
    cue(
        16,
        "vip",
        3,
        r"upgrades?|sponsor\w*|sports team|press|media|celebrit\w*",
        r"requests?|requested|seating|re-?seat\w*|commercial",
    ),
    cue(
        18,
        "baggage",
        2,
        load(r"baggage|bags|luggage|suitcases|bag|sorting|bhs"),
        r"sort\w*|system|belts?|late|delay\w*|missing|jam\w*|fail\w*|fault\w*|down|break\w*|broke|broken|reconcil\w*"
        r"|mishandl\w*"
        r"|backlog|inoperative|unserviceable|stuck|outage|not delivered|pile\w*",
    ),
    cue(
        19,
        "reduced_mobility",
        3,
        r"wheelchairs?|wchr|ambulift|ambu-lift|prm|reduced mobility|special assistance|stretcher|mobility aid"
        r"|assistance team|assistance staff",
    ),
    # 21-29 cargo and mail
    cue(
        21,
        "cargo_documentation",
        2,
        load(r"cargo|freight|shipment|consignment|waybill|awb|dangerous goods|manifest"),
        r"documents?|documentation|paperwork|papers|waybill|awb|manifest|notoc|declaration|customs",
    ),
    cue(21, "cargo_documentation", 2.5, r"notoc|waybills?|air waybills?|awbs?"),
    # the shipments' documents wrong or checked again: 21, above the loadsheet they hold up
    cue(
        21,
        "cargo_documentation",
        3.5,
        r"waybills?|awbs?|cargo doc\w*|shipments?|manifests?",
        r"differ\w*|discrepanc\w*|mismatch\w*|incorrect|wrong|errors?|correct\w*|amend\w*|re-?check\w*",
    ),
    cue(
        22,
        "cargo",
        CARGO_NAMED,
        load(r"cargo|freight|shipment|consignment|pallets?|ulds?"),
        r"late|delayed|positioning|not arrived|awaited|on time|not at|not ready|not delivered|behind",
    ),
    cue(
        23,
        "cargo",
        CARGO_NAMED,
        load(r"cargo|freight|shipment|consignment"),
        r"acceptance|accepted late|late acceptance|cut-?off",
    ),
    cue(
        24,
        "cargo_packing",
        CARGO_NAMED,
        load(
            r"cargo|freight|shipment|consignment|drum|drums|crate|crates|package|packages|box|boxes|dangerous goods"
            r"|hazmat|parcel|parcels"
        ),
        # what happened to it, never the noun itself ("a suspicious package" names no packing: that is security)
        r"leak\w*|packing|packed|packaging|repack\w*|spill\w*|damaged|broken|torn|crushed|seeping",
    ),
    # the shipper's packing named as the fault, whatever holds it (a ULD of fish leaking for want of it)
    cue(
        24,
        "cargo_packing",
        CARGO_NAMED,
        r"shipper'?s? packing|packing (?:inadequate|insufficient|poor)|inadequate\w* pack\w*",
    ),
    cue(
        25,
        "cargo",
        CARGO_NAMED,
        load(r"cargo|freight|shipments?|consignments?"),
        r"overbook\w*|oversold|oversales?|booking",
    ),
    cue(26, "cargo", 2, load(r"cargo|freight|uld|pallets?"), r"build-?up|preparation|not ready|late|built"),
    cue(
        27,
        "mail",
        CARGO_NAMED,
        load(r"mail|post|postal|mailbags?|mail bags?"),
        r"documents?|documentation|paperwork|papers|pack\w*|labels?|labell\w*|manifest|cn38|cn 38",
    ),
    cue(
        28,
        "mail",
        CARGO_NAMED,
        load(r"mail|postal|mailbags?|mail bags?"),
        r"late|delayed|positioning|not arrived|awaited",
    ),
    cue(29, "mail", CARGO_NAMED, load(r"mail|postal|mailbags?|mail bags?"), r"acceptance|accepted late|cut-?off"),
    cue(27, "mail", 1.5, r"mail|postal|mailbags?"),
    cue(22, "cargo", FAMILY_ONLY, load(r"cargo|freight"), r"issues?|problems?|related|irregularit\w*"),
)
