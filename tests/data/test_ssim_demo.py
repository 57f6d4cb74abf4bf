"""Issue 36's "done when": the synthetic airline's SSIM export, imported into an empty account beside its other
tables, gives back every flight row unchanged (its seats counted from the bookings), and the EY123 demo decides
there exactly as on the seeded airline."""

from __future__ import annotations

import uuid
from datetime import date

from skymarshal.arbitration.arbitrator import arbitrate
from skymarshal.data import schema as s
from skymarshal.data.schema import Naming
from skymarshal.data.ssim_import import import_ssim, tails_path
from skymarshal.data.ssim_schedule import ssim_from_flights
from skymarshal.local.emulator import LocalAccount
from skymarshal.local.seeding import seed_in_place
from skymarshal.models.operational import Flight
from skymarshal.workflow.rounds import run_rounds

DEMO = "Flight EY123 on January 20th 2027 had a mechanical failure"


def _decide(handle):
    revised = run_rounds(DEMO, handle=handle, llm=None)[1]
    return arbitrate(revised, DEMO, handle=handle, llm=None)


def test_an_airline_loaded_from_its_ssim_export_runs_the_demo_as_the_seeded_one(account, airline, tmp_path):
    loaded = LocalAccount(naming=Naming(prefix=f"t{uuid.uuid4().hex[:8]}-"))
    seed_in_place(loaded, airline, tables=[t.name for t in s.TABLES if t.name != s.FLIGHTS])  # all but the flights
    flights = [f for f in airline.tables[s.FLIGHTS] if isinstance(f, Flight)]
    path = tmp_path / "ey.ssim"
    schedule, tails = ssim_from_flights(flights, created=date(2027, 1, 1))
    path.write_text(schedule)
    tails_path(path).write_text(tails)
    report = import_ssim(path, loaded.resource(), loaded.naming, tails_path=tails_path(path))
    assert report.ok and report.written == {s.FLIGHTS: len(flights)}
    table = loaded.resource().Table(loaded.naming(s.FLIGHTS))
    for f in flights[::10]:
        assert Flight.model_validate(table.get_item(Key={"flight_id": f.flight_id})["Item"]) == f
    seeded, from_ssim = _decide(account.handle()), _decide(loaded.handle())
    assert from_ssim.status == seeded.status == "decided"
    assert [r.scenario.scenario_id for r in from_ssim.ranked] == [r.scenario.scenario_id for r in seeded.ranked]
    assert from_ssim.final_decision == seeded.final_decision
