"""Crewability of a network plan on whole duties (issue 30): the members of every duty a plan touches are read even when
asked for through a generator (it was spent by the first read: no verdict at all, every crew "legal"); a reserve called
for a duty whose first sector the plan does not list (it flies as scheduled, the second is re-timed) is recorded on
that first sector, which joins the plan, so the validation and Execute see the change. Property (hypothesis): for any
set of illegal members and reserves, every reserve's change sits on the first sector of the duty it takes over."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st
from test_crew_unit import DAY, FakeCrew, _action, _flight

from skymarshal.models.operational import CrewDuty, CrewMember
from skymarshal.network.crew import CrewData
from skymarshal.network.crewability import make_crewable
from skymarshal.network.totals import PlanData


class _Handle:
    def __init__(self, ids: list[str]):
        self.rows = {c: CrewMember(crew_id=c, name=c, rank="CA", base="AUH", type_ratings=["A320"]) for c in ids}

    def batch_get(self, table, keys):
        return [self.rows[k["crew_id"]].model_dump(mode="json") for k in keys if k["crew_id"] in self.rows]


def test_members_asked_for_through_a_generator_are_all_returned():
    ids = ["C00918", "C00947", "C00948"]
    crew = CrewData(PlanData(_Handle(ids), {}, {}), DAY)  # type: ignore[arg-type]
    assert sorted(crew.members(c for c in ids)) == ids
    assert sorted(crew.members(iter(ids))) == ids  # memoised: the second read answers from the first


class TwoSectorCrew(FakeCrew):
    """Each captain flies an out-and-back as one duty (the outbound and its return)."""

    def __init__(self, flights, illegal, reserves):
        super().__init__(flights, illegal, reserves)
        for out, back in zip(flights[::2], flights[1::2]):
            first = self.rows[out.flight_id]
            self.rows[back.flight_id] = self.rows[back.flight_id].model_copy(
                update={"crew_id": first.crew_id, "duty_id": first.duty_id, "duty_start": first.duty_start}
            )

    def history(self, crew_id) -> list[CrewDuty]:
        return [r for r in self.rows.values() if r.crew_id == crew_id]


@settings(max_examples=30, deadline=None)
@given(pairs=st.integers(1, 3), reserves=st.integers(1, 4), data=st.data())
def test_a_reserve_for_a_duty_the_plan_lists_only_in_part_is_recorded_on_its_first_sector(pairs, reserves, data):
    flights = [_flight(i, outbound=i % 2 == 0) for i in range(2 * pairs)]
    crew = TwoSectorCrew(flights, set(), reserves)
    captains = sorted({r.crew_id for r in crew.rows.values()})
    crew.illegal = set(data.draw(st.lists(st.sampled_from(captains), unique=True, max_size=reserves)))
    returns = [_action(f) for f in flights[1::2]]  # only the returns are re-timed: the outbounds fly as scheduled
    actions, _ = make_crewable(crew, returns)
    by_id = {a.flight_id: a for a in actions}
    for out, back in zip(flights[::2], flights[1::2]):
        captain = crew.rows[out.flight_id].crew_id
        if captain in crew.illegal:
            assert [c.replaced for c in by_id[out.flight_id].crew_changes] == [captain]
            assert by_id[out.flight_id].action == "operate"
            assert by_id[out.flight_id].new_departure == out.scheduled_departure
            assert by_id[back.flight_id].crew_changes == []  # one call-out for the duty, not one per sector
        else:
            assert out.flight_id not in by_id
    assert [a.scheduled_departure for a in actions] == sorted(a.scheduled_departure for a in actions)
    assert all(a.scheduled_departure >= DAY - timedelta(days=1) for a in actions)
