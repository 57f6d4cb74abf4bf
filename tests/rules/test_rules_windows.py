"""The rolling-window sweep equals a brute-force search over every breakpoint."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from skymarshal.rules._windows import Span, max_prorated_load

T0 = datetime(2027, 1, 1, tzinfo=UTC)
span = st.builds(
    lambda start, length, amount: Span(T0 + timedelta(minutes=start), T0 + timedelta(minutes=start + length), amount),
    st.integers(0, 40 * 24 * 60),
    st.integers(1, 16 * 60),
    st.sampled_from([1.0, 0.25, 0.5]),
)


def brute_force(spans, focus, window):
    items = [*spans, focus]
    lo, hi = focus.start, focus.end + window
    points = {lo, hi} | {p for i in items for p in (i.start, i.end, i.start + window, i.end + window) if lo <= p <= hi}

    def load(end):
        return sum(
            i.amount * max(0.0, (min(i.end, end) - max(i.start, end - window)).total_seconds() / 60) for i in items
        )

    return max(load(end) for end in points)


@settings(max_examples=300, deadline=None)
@given(spans=st.lists(span, max_size=25), focus=span, days=st.sampled_from([7, 14, 28]))
def test_sweep_matches_brute_force(spans, focus, days):
    window = timedelta(days=days)
    assert abs(max_prorated_load(spans, focus, window).minutes - brute_force(spans, focus, window)) < 1e-6
