"""The network agent's optimizer budget knob (SKYMARSHAL_NETWORK_OPTIMIZER_SECONDS): a value in (0, 60] is the
budget, unset is the 5-second default, anything else is refused naming the variable."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skymarshal.network.optimizer_proposal import OPTIMIZER_SECONDS, SECONDS_ENV, optimizer_seconds


def test_unset_or_empty_is_the_default(monkeypatch):
    monkeypatch.delenv(SECONDS_ENV, raising=False)
    assert optimizer_seconds() == OPTIMIZER_SECONDS
    monkeypatch.setenv(SECONDS_ENV, "")
    assert optimizer_seconds() == OPTIMIZER_SECONDS


@given(
    st.floats(allow_nan=True, allow_infinity=True)
    | st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=8)
)
def test_a_budget_in_range_is_taken_and_anything_else_refused_on_one_line(value):
    raw = repr(value) if isinstance(value, float) else value
    with pytest.MonkeyPatch.context() as env:
        env.setenv(SECONDS_ENV, raw)
        try:
            wanted = float(raw)
        except ValueError:
            wanted = math.nan
        if raw and 0 < wanted <= 60:
            assert optimizer_seconds() == wanted
        elif raw:
            with pytest.raises(ValueError, match=SECONDS_ENV) as refused:
                optimizer_seconds()
            assert "\n" not in str(refused.value)
        else:
            assert optimizer_seconds() == OPTIMIZER_SECONDS
