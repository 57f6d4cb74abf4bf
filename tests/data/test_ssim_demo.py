"""Issue 36's "done when": the synthetic airline's SSIM export, loaded as `local start --schedule` loads it (every
table seeded, then the flights table emptied and filled by the SSIM import), gives back every flight row unchanged
(its seats counted from the bookings), and the EY123 demo decides there exactly as on the seeded airline. A
schedule the server cannot load leaves no account behind; one the account does not hold is refused on one line."""

from __future__ import annotations

import uuid
from datetime import date
from pathlib import Path

import pytest
from reported import reported

from skymarshal.arbitration.arbitrator import arbitrate
from skymarshal.cli import main
from skymarshal.data import schema as s
from skymarshal.data.schema import Naming
from skymarshal.data.ssim_import import tails_path
from skymarshal.data.ssim_schedule import ssim_from_flights
from skymarshal.local.emulator import LocalAccount
from skymarshal.local.schedule_start import Schedule, ScheduleRefused, check_start, held_schedule, load_schedule
from skymarshal.local.seeding import seed_in_place
from skymarshal.models.operational import Flight
from skymarshal.workflow.steps.rounds import run_rounds

DEMO = "Flight EY123 on January 20th 2027 had a mechanical failure"


class Durable:
    """The server's durable state as load_schedule uses it: a folder, a checkpoint, a wipe (counted)."""

    def __init__(self, root: Path):
        self.state = root / "state"
        self.checkpoints = self.wipes = 0

    def checkpoint(self) -> int:
        self.checkpoints += 1
        return self.checkpoints

    def wipe(self) -> None:
        self.wipes += 1


def _decide(handle):
    revised = run_rounds(DEMO, handle=handle, llm=None)[1]
    return arbitrate(revised, DEMO, handle=handle, llm=None, disruption=reported(handle, DEMO))


def _export(flights: list[Flight], path: Path) -> Schedule:
    schedule, tails = ssim_from_flights(flights, created=date(2027, 1, 1))
    path.write_text(schedule)
    tails_path(path).write_text(tails)
    return Schedule.of(path, None)  # the tail file found beside it, as `local start` finds it


def test_an_airline_started_from_its_ssim_export_runs_the_demo_as_the_seeded_one(account, airline, tmp_path):
    loaded = LocalAccount(naming=Naming(prefix=f"t{uuid.uuid4().hex[:8]}-"))
    seed_in_place(loaded, airline)  # as a first start seeds every table, the generated flights too
    flights = [f for f in airline.tables[s.FLIGHTS] if isinstance(f, Flight)]
    schedule = _export(flights, tmp_path / "ey.ssim")
    durable = Durable(tmp_path)
    assert load_schedule(loaded, schedule, durable).startswith(f"{len(flights)} flights in ")  # type: ignore[arg-type]
    assert (durable.checkpoints, durable.wipes) == (1, 0) and held_schedule(durable.state) == schedule
    assert loaded.seed_info()["counts"][s.FLIGHTS] == len(flights)
    assert loaded.seed_info()["schedule"] == schedule.path
    table = loaded.resource().Table(loaded.naming(s.FLIGHTS))
    for f in flights[::10]:
        assert Flight.model_validate(table.get_item(Key={"flight_id": f.flight_id})["Item"]) == f
    seeded, from_ssim = _decide(account.handle()), _decide(loaded.handle())
    assert from_ssim.status == seeded.status == "decided"
    assert [r.scenario.scenario_id for r in from_ssim.ranked] == [r.scenario.scenario_id for r in seeded.ranked]
    assert from_ssim.final_decision == seeded.final_decision
    # the same file again is the account's own; another (or none recorded: the generated flights) is refused
    check_start(Schedule.of(schedule_path := Path(schedule.path), None), durable.state, exists=True)
    schedule_path.write_text(schedule_path.read_text().replace("SKYMARSHAL", "SKYMARSHAX", 1))
    with pytest.raises(ScheduleRefused, match=r"already holds an account with the schedule .*ey\.ssim"):
        check_start(Schedule.of(schedule_path, None), durable.state, exists=True)
    with pytest.raises(ScheduleRefused, match="the synthetic airline's flights: `skymarshal local reset --schedule"):
        check_start(schedule, tmp_path / "elsewhere", exists=True)


def test_a_schedule_the_server_cannot_load_leaves_no_account(account, airline, tmp_path):
    loaded = LocalAccount(naming=Naming(prefix=f"t{uuid.uuid4().hex[:8]}-"))
    seed_in_place(loaded, airline, tables=[s.CHECKPOINTS])
    flights = [f for f in airline.tables[s.FLIGHTS] if f.flight_number == "EY123"]
    schedule = _export(flights, tmp_path / "ey.ssim")
    tails_path(Path(schedule.path)).write_text("flight_id,registration\n")  # changed after the CLI's check
    durable = Durable(tmp_path)
    with pytest.raises(ScheduleRefused) as refused:
        load_schedule(loaded, schedule, durable)  # type: ignore[arg-type]
    assert refused.value.problems and "registration: no tail for" in refused.value.problems[0]
    assert (durable.checkpoints, durable.wipes) == (0, 1) and held_schedule(durable.state) is None


def test_local_start_with_a_bad_schedule_says_one_line_and_starts_nothing(airline, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SKYMARSHAL_HOME", str(tmp_path / "home"))
    flights = [f for f in airline.tables[s.FLIGHTS] if f.flight_number == "EY123"]
    path = tmp_path / "ey.ssim"
    _export(flights, path)
    lines = path.read_text().split("\n")
    leg = next(i for i, line in enumerate(lines) if line.startswith("3"))
    lines[leg] = lines[leg][:43] + "2475" + lines[leg][47:]  # the aircraft STD
    path.write_text("\n".join(lines))
    assert main(["local", "start", "--schedule", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == (
        f"skymarshal: local AWS not started: {path} line {leg + 1}: aircraft_std: '2475' is not a time HHMM "
        "from 0000 to 2359\n"
    )
    assert not (tmp_path / "home").exists()  # no server, no state
