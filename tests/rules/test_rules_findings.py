"""The shared Finding model and its helpers."""

from __future__ import annotations

import pytest

from skymarshal.models.findings import Finding, binding_constraints, constraint_text, status_for_margin, worst_status


def make(status="illegal", binding=True, **kw) -> Finding:
    values = dict(
        rule="crew.max_fdp",
        clause="ORO.FTL.205(b)(1)",
        status=status,
        binding=binding,
        subject="C1",
        margin_minutes=-30,
        limit=780,
        actual=810,
        unit="minutes",
        message="FDP over the maximum.",
    )
    values.update(kw)
    return Finding(**values)


def test_status_for_margin():
    assert status_for_margin(-1) == "illegal"
    assert status_for_margin(0) == "at_risk"
    assert status_for_margin(59) == "at_risk"
    assert status_for_margin(60) == "legal"
    assert status_for_margin(10, at_risk_minutes=5) == "legal"


def test_binding_needs_illegal_and_numbers_need_a_unit():
    with pytest.raises(ValueError):
        make(status="legal", binding=True)
    with pytest.raises(ValueError):
        make(unit=None)


def test_constraint_text():
    text = constraint_text(make())
    assert text == (
        "BINDING crew.max_fdp [ORO.FTL.205(b)(1)] C1: FDP over the maximum. "
        "(limit 780 minutes, actual 810 minutes), over by 30 min"
    )
    with pytest.raises(ValueError):
        constraint_text(make(status="at_risk", binding=False))


def test_worst_and_binding():
    findings = [make(status="legal", binding=False), make()]
    assert worst_status(findings) == "illegal" and worst_status([]) == "legal"
    assert binding_constraints(findings) == [findings[1]]
    assert findings[0].is_legal and not findings[1].is_legal
