"""What a ramp, cargo or gate report says happened decides its AHM 730 code over the load or defect it mentions: the
load put in the wrong place is loading (32), not the transfer load (91); weather stopping a ramp task is 77, not
the task (36); the shipper's packing is cargo packing (24), a damaged container the ULD's (38); passengers paged at the gate are boarding (15); taken
after the counters closed, late check-in acceptance (11); no standby of the type, 47; extra screening, security
(85); a bag system's fault is baggage processing (18), not an aircraft defect."""

from __future__ import annotations

import pytest
from cause_helpers import first_code

CASES = {
    32: [
        "EY71 4 Mar: connecting bags loaded in the aft hold instead of the forward, ramp re-stowing",
        "EY71 4 Mar: transfer ULD misloaded into the wrong position, moving it now",
    ],
    77: [
        "EY71 4 Mar at BKK: refuelling stopped, lightning within 5 km, red alert on the apron",
        "EY71 4 Mar: fuelling halted for thunderstorm overhead",
    ],
    24: ["EY71 4 Mar: two pallets pulled back to the warehouse, shipper's packing inadequate for air transport"],
    38: ["EY71 4 Mar: three AKEs found damaged, ULD unserviceable, contents moved to good units"],
    15: [
        "EY71 4 Mar held at the gate paging two transfer passengers",
        "EY71 4 Mar: two no-shows among the connecting pax, bags to come off",
    ],
    11: ["EY71 4 Mar: the station accepted 9 late passengers after the counters closed, 10 min"],
    47: ["EY71 4 Mar: the aircraft is unserviceable and there is no spare aircraft, waiting for the next inbound"],
    85: ["EY71 4 Mar at MAN: enhanced screening of all cabin bags ordered by the authority, 30 min"],
    18: ["EY71 4 Mar: bag sortation fault at T1, bags being brought out by hand"],
}


@pytest.mark.parametrize(("code", "text"), [(code, text) for code, texts in CASES.items() for text in texts])
def test_what_happened_decides_the_code(code, text) -> None:
    assert first_code(text) == code, text


@pytest.mark.parametrize(
    ("code", "text"),
    [
        (12, "EY9 4 Mar at MCT: check-in hall chaotic, not enough agents on the counters, 20 min"),
        (48, "EY9 4 Mar: the LOPA change on A6-BLA overran, seats still being re-fitted. 45 min"),
        (57, "EY9 4 Mar: flt planning system down, OFP built by hand. 30 min"),
    ],
)
def test_what_the_writer_names_decides_among_systems_and_counters(code, text) -> None:
    assert first_code(text) == code, text
