"""DisruptionContext.read_profiles: the airports' profiles in one batch, each airport asked once per decision —
one without a profile too — and a later single `profile` read answered from what the batch found."""

from __future__ import annotations

import test_clearance_wait as cw

from skymarshal.data import schema as s


class CountingHandle:
    def __init__(self, rows: list[dict]) -> None:
        self.rows = {r["iata"]: r for r in rows}
        self.batches: list[list[str]] = []
        self.gets: list[str] = []

    def batch_get(self, table: str, keys):
        assert table == s.AIRPORTS
        asked = [k["iata"] for k in keys]
        self.batches.append(asked)
        return [self.rows[i] for i in asked if i in self.rows]

    def get(self, table: str, key: dict):
        self.gets.append(key["iata"])
        return self.rows.get(key["iata"])


def test_profiles_are_read_in_one_batch_and_never_asked_twice():
    ctx = cw._ctx()
    row = _profile_row()
    ctx.handle = CountingHandle([row])  # type: ignore[assignment]
    found = ctx.read_profiles(["AUH", "XXX", "AUH"])
    assert set(found) == {"AUH"} and found["AUH"].min_connection_minutes == row["min_connection_minutes"]
    assert ctx.handle.batches == [["AUH", "XXX"]]
    assert ctx.read_profiles(["XXX", "AUH"]) == found  # XXX has none: remembered, not asked again
    assert ctx.handle.batches == [["AUH", "XXX"]]
    assert ctx.profile("AUH") == found["AUH"] and ctx.handle.gets == []


def _profile_row() -> dict:
    return {
        "iata": "AUH",
        "record": "PROFILE",
        "icao": "OMAA",
        "name": "Abu Dhabi",
        "city": "Abu Dhabi",
        "country": "AE",
        "tz": "Asia/Dubai",
        "lat": 24.43,
        "lon": 54.65,
        "elevation_ft": 88,
        "min_connection_minutes": 60,
    }
