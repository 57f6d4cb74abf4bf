"""A reserve is called out only from a standby that runs at the report (ORO.FTL.225), and a night standby is filed
under the local day it began: `analysis.crew.standby_at` finds exactly the standby rows covering a report, the
evening's night standby for a report after local midnight included (the ferry crew of a rescue leaving AUH at 01:00
local found none before: it read only the report's own local day)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from skymarshal.analysis.crew import standby_at
from skymarshal.data import queries as q

START = datetime(2027, 1, 20, tzinfo=UTC)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2 * 24 * 60 - 1), st.sampled_from(["AUH", "LHR"]))
def test_the_standby_rows_at_a_report_are_exactly_those_running_then(account, minute, station):
    handle = account.handle()
    report = START + timedelta(minutes=minute)
    found = {(r.crew_id, r.duty_key) for r in standby_at(handle, station, report)}
    days = [date(2027, 1, 19) + timedelta(days=i) for i in range(4)]
    running = {
        (r.crew_id, r.duty_key)
        for d in days
        for r in q.standby_crew(handle, station, d)
        if r.duty_start <= report <= r.duty_end
    }
    assert found == running


def test_a_report_after_local_midnight_finds_the_evenings_night_standby(account):
    handle = account.handle()
    night = [r for r in q.standby_crew(handle, "AUH", date(2027, 1, 20)) if r.duty_end.date() == date(2027, 1, 21)]
    assert night  # the seeded airline's night standby at the hub, 17:00-05:00 local
    report = night[0].duty_end - timedelta(minutes=30)  # 04:30 local on the 21st
    assert night[0].crew_id in {r.crew_id for r in standby_at(handle, "AUH", report)}
