"""GET /replays/latest: the day `skymarshal replay` last kept in the run artifacts, for the console's panel."""

from __future__ import annotations

from datetime import UTC, date, datetime

from skymarshal.api.roles import Role
from skymarshal.day.published import LATEST_KEY, ReplayedDay, publish, replay_key
from skymarshal.day.realize import DayState
from skymarshal.day.scorecard import DecisionStats, score


def _day(stream_id: str) -> ReplayedDay:
    quiet = DayState(
        flights={}, bookings=[], crew_on={}, rosters={}, members={}, original_tails={}, min_connection_minutes={}
    )
    card = score("skymarshal-rank1", quiet, [], [date(2027, 1, 20)], DecisionStats(decisions=0))
    return ReplayedDay(
        stream_id=stream_id,
        intensity="ordinary",
        days=[date(2027, 1, 20)],
        disruptions=0,
        replayed_at=datetime(2027, 1, 21, tzinfo=UTC),
        title="ordinary day 2027-01-20 (0 disruptions)",
        cards=[card],
    )


def test_no_replay_yet_is_404_naming_the_command(call, wf):
    wf.store.objects.client.delete_object(Bucket=wf.store.bucket, Key=LATEST_KEY)
    reply = call("GET", "/replays/latest", role=Role.OBSERVER)
    assert reply.status == 404 and "skymarshal replay" in reply.message


def test_the_latest_replay_is_what_was_kept_last(call, wf):
    publish(wf.store, _day("ordinary-2027-01-20-s1"))
    publish(wf.store, _day("bad-2027-01-20-s1"))
    reply = call("GET", "/replays/latest", role=Role.OBSERVER)
    assert reply.status == 200, reply.body
    day = ReplayedDay.model_validate(reply.body)
    assert day.stream_id == "bad-2027-01-20-s1"
    assert day.cards[0].policy == "skymarshal-rank1" and day.cards[0].flights == 0
    assert wf.store.get(replay_key("ordinary-2027-01-20-s1"))["stream_id"] == "ordinary-2027-01-20-s1"
