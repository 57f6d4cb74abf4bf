"""What happened decides over the work it holds up or the remedy arranged for it. Phrasings written here, one
class each: a leak found at a transit check (41, not a transfer), a defect dispatched under the MEL (41, not the
ground power brought for it), a spare the station does not hold (44), a cabin re-config (48), shipments whose
documents are wrong (21, not the loadsheet waiting on them), an OFP with an outdated airway (57), the airport's own
facilities (87: no contact stand, its baggage system broken down), commercial upgrade requests (16), damage found
on the aircraft (51) or done by the ground staff's work (52, not the work), and cabin crew hurt on the inbound
(not a crew awaited from it)."""

from __future__ import annotations

import pytest

from skymarshal.intake.report import read_report
from skymarshal.models.disruption import family_of


@pytest.mark.parametrize(
    ("report", "code"),
    [
        ("EY11 20 Jan: fuel leak from the left wing found during the transit check, engineers on it", 41),
        ("EY11/20JAN APU INOP. MEL ITEM RAISED, GPU AND ACU ON STAND. DLA 30", 41),
        ("EY11 20 Jan: no spare starter at the outstation, we do not hold one; borrowing from another operator", 44),
        ("EY11/20JAN CABIN RECONFIG OVERRAN, DLA 40", 48),
        ("EY11 20 Jan: piece count of two shipments differs from the AWBs, cargo docs correcting, loadsheet waits", 21),
        ("EY11 20 Jan: the OFP was built on an outdated airway, dispatch re-planning. 20 min", 57),
        ("EY11 20 Jan: no contact stand, not enough buses for the remote stand. Boarding late, 15 min", 87),
        ("EY11 20 Jan: the airport's baggage system broke down in terminal 1, bags sorted by hand", 87),
        ("EY11 20 Jan: upgrade requests for a sponsored band, seating reworked at the gate", 16),
        ("EY11 20 Jan: damage found on the fuselage after arrival, engineering assessing", 51),
        ("EY11 20 Jan: the caterers damaged a galley cart stowage while loading", 52),
    ],
)
def test_the_root_is_read_over_what_it_holds_up(report, code):
    assert read_report(report, set(), {}).cause_code == code


def test_cabin_crew_hurt_on_the_inbound_are_not_crew_awaited_from_it():
    reading = read_report("EY11 20 Jan: severe turbulence on the inbound, 2 CC injured, cabin inspection", set(), {})
    assert reading.cause_code is not None and family_of(reading.cause_code) != "reactionary", reading.causes
