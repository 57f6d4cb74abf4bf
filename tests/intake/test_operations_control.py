"""An aircraft the OCC changed for other than technical reasons is AHM 730 96, above what the new aircraft then
needs; the same swap for a defect stays the defect's. Phrasings written here."""

from __future__ import annotations

import pytest

from skymarshal.intake.report import read_report


@pytest.mark.parametrize(
    "report",
    [
        "EY11 20 Jan: ops control swapped the aircraft for capacity, the new one still needs fuel. 30 min",
        "EY11/20JAN OCC TAIL SWAP (COMMERCIAL), NEW ACFT CATERING LATE. DLA 25",
        "EY11 20 Jan - equipment change initiated by network control, cabin being prepared",
    ],
)
def test_an_occ_aircraft_change_is_96(report):
    assert read_report(report, set(), {}).cause_code == 96


def test_a_swap_for_a_defect_stays_technical():
    reading = read_report("EY11 20 Jan: aircraft swap after a hydraulic leak found at the walk-round", set(), {})
    assert reading.cause_code == 41, reading.causes
