"""Fixtures the intake tests ask for by name."""

from __future__ import annotations

import pytest

from skymarshal.data import queries as q
from skymarshal.models.history import DisruptionRecord


@pytest.fixture
def empty_record(monkeypatch):
    """No history and no standby unless a test gives them: reads are lists here (the clearance tests)."""
    records: list[DisruptionRecord] = []
    monkeypatch.setattr(
        q, "past_disruptions", lambda handle, kind, **kw: [r for r in records if r.disruption_type == kind]
    )
    monkeypatch.setattr(q, "work_orders_for_aircraft", lambda handle, reg: [])
    monkeypatch.setattr(q, "standby_crew", lambda handle, base, day: [])
    return records
