"""A defect word beside a thing that is not the aircraft ("hydrant failure", "GPU failed", "tug broken down")
describes that thing: the cause is the thing's (fuelling, ramp equipment), and no aircraft defect is stated — which
would ground a serviceable aircraft. Beside an aircraft part, or alone, it stays a defect of the aircraft."""

from __future__ import annotations

import pytest

from skymarshal.intake.report import read_report

NOT_THE_AIRCRAFT = (
    ("Refuelling of EY12 on 22 January 2027 is delayed by 2 hours, hydrant failure", 36),
    ("EY12 22JAN DLA 120 HYDRANT U/S", 36),
    ("EY12 on 22 January 2027: the bowser has broken down, fuelling delayed 90 min", 36),
    ("EY12 22 Jan 2027: GPU failure at the stand, delayed 40 min", 39),
    ("EY12 22 Jan 2027: pushback tug broken down, delayed 40 min", 39),
)
THE_AIRCRAFT = (
    "EY12 22 Jan 2027: hydraulic failure, delayed",
    "EY12 22 Jan 2027: fuel leak found during the walkround",
    "EY123 on 20 Jan 2027 had a failure",
    "EY12 22 Jan: the GPU failed and the aircraft has a hydraulic leak",
    "EY12 22 Jan: bowser late, and a cracked windshield found",
)


@pytest.mark.parametrize(("report", "code"), NOT_THE_AIRCRAFT)
def test_a_failed_ground_thing_is_its_cause_and_no_aircraft_defect(report, code):
    reading = read_report(report)
    assert reading.cause_code == code
    assert "aircraft_defect" not in {fact for fact, _, _ in reading.causes}


@pytest.mark.parametrize("report", THE_AIRCRAFT)
def test_a_defect_of_the_aircraft_stays_stated(report):
    assert "aircraft_defect" in {fact for fact, _, _ in read_report(report).causes}
