"""Capacity as the airport declares it (issue 47 item 4): a cut applies to the airport's declared rate, every
airline's flights together, and our flights get their slots by ration-by-schedule — flights keep their scheduled
order and are given the reduced rate's slots in that order, as the FAA's ground delay programmes (FAA Order
JO 7210.3, ch. 17, "ration by schedule") and EUROCONTROL's CASA (first planned, first served) allocate them.

The model is the fluid form of that queue, one per direction (a movement is a departure or an arrival at the
airport): the airport's other traffic is known only as a share of its declared rate (`UTILISATION`, a policy
figure: the share of a coordinated airport's declared capacity its schedule fills in the busy hours; verify), so
the demand is that share of the declared rate, or our own flights where they alone fill more. Over the window
the slots come at the cut rate, after it at the declared rate again; a movement scheduled `t` after the window
opens has the demand of `t` ahead of it and takes the first slot after the slots served reach that demand. The
backlog clears after the window at the declared rate less the demand; from there nobody waits.

Declared rates are reference data for the stations the airline serves (`DECLARED_MOVEMENTS`). An airport without
one (the hub, where the airline's own bank is the demand) keeps the airline's own busiest hour as its rate, and its
queue is walked in clock hours (`hourly_slots`), as the network planner's hold plan gives its slots.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from datetime import datetime, timedelta

from ..models.disruption import Window
from ..models.operational import Flight

UTILISATION = 0.8  # policy: declared capacity scheduled in the busy hours at a coordinated airport (verify)
# Movements an hour (arrivals + departures, all airlines) in the declared capacity or the coordination parameters
# each airport publishes, rounded (verify against the season's coordination parameters before relying on them).
DECLARED_MOVEMENTS: dict[str, int] = {
    "LHR": 88,
    "FRA": 104,
    "CDG": 120,
    "AMS": 106,
    "MUC": 90,
    "ZRH": 66,
    "FCO": 90,
    "MAD": 100,
    "BCN": 78,
    "MAN": 60,
    "DUB": 48,
    "IST": 120,
    "JFK": 81,
    "ORD": 190,
    "IAD": 120,
    "BOS": 100,
    "YYZ": 90,
    "LHE": 30,
    "KHI": 30,
    "ISB": 30,
}


HOUR = timedelta(hours=1)


def _hour(at: datetime) -> datetime:
    return at.replace(minute=0, second=0, microsecond=0)


def hour_allowance(rate: int, window_start: datetime, hour: datetime) -> int:
    """Movements a restriction's rate allows in a clock hour it regulates: the whole rate, but in the hour the window
    opens only for the part of it the window covers, rounded up — a movement before the window opens is not
    regulated, and the rate does not allow a whole hour's movements in its last ten minutes (the slots of a
    regulation opening at 05:50 at 7 an hour: 05:50 and 05:58 in that hour)."""
    if hour < window_start < hour + HOUR:
        covered = (hour + HOUR - window_start).total_seconds() / 3600
        return math.ceil(rate * covered)
    return rate


def hour_capacity(window: Window, hour: datetime, rate: int, reopened: int) -> int:
    """Movements a restriction leaves in a clock hour for the movements it regulates: over a capacity cut (`rate` >
    0) its rate — in the opening hour only for the part the window covers — and on at that rate while its backlog
    lasts; over a closure (`rate` 0) none before it ends, then `reopened` (the airport's normal rate)."""
    if not rate:
        return reopened if hour >= window.end else 0
    return hour_allowance(rate, window.start, hour) if hour < window.end else rate


def hourly_slots(
    moves: Sequence[tuple[datetime, str]],
    window: Window,
    rate: int,
    *,
    closed: bool,
    caught: Collection[str] = (),
) -> dict[str, int]:
    """Flight id → minutes from its movement to its slot, for one direction of our movements at an airport that
    declares no rate: those in the window (and the `caught` ones, wherever they now are: a flight the window caught
    as scheduled, moved past it by a decision, still queues), in order, each taking the first clock hour with a
    movement left (`hour_capacity`: `rate` over a cut, over a closure `rate` from its end) and leaving at the later
    of its movement (a closure's end) and the hour's start. network.hold.Slots gives the hold plan's slots by the
    same `hour_capacity`; other movements need none."""
    per_hour = max(1, rate)
    cut, reopened = (0, per_hour) if closed else (per_hour, per_hour)
    used: Counter[datetime] = Counter()
    waits: dict[str, int] = {}
    for at, flight_id in sorted(m for m in moves if window.start <= m[0] < window.end or m[1] in caught):
        ready = max(at, window.end) if closed else at
        hour = _hour(ready)
        while used[hour] >= hour_capacity(window, hour, cut, reopened):
            hour += HOUR
        used[hour] += 1
        slot = max(ready, hour)
        if slot > at:
            waits[flight_id] = math.ceil((slot - at).total_seconds() / 60)
    return waits


def declared_rate(airport: str) -> tuple[int, int] | None:
    """(departures, arrivals) an hour the airport declares, split evenly; None where the reference has none."""
    total = DECLARED_MOVEMENTS.get(airport)
    return None if total is None else (total // 2, total - total // 2)


def slot_delay(minutes_in: float, window_minutes: float, cut: float, declared: float, demand: float) -> int:
    """Minutes a movement scheduled `minutes_in` after the window opens waits for its ration-by-schedule slot:
    `cut` and `declared` slots an hour over and after the window, `demand` movements an hour scheduled (ours and
    everybody's). Before the window, or where the slots keep up with the demand, it waits for nothing."""
    if minutes_in < 0 or demand <= cut:
        return 0
    ahead = demand * minutes_in / 60  # movements scheduled between the window's opening and this one
    served_in_window = cut * window_minutes / 60
    if ahead <= served_in_window:
        slot = 60 * ahead / cut if cut > 0 else window_minutes
    else:
        slot = window_minutes + 60 * (ahead - served_in_window) / declared
    return max(0, math.ceil(slot - minutes_in - 1e-9))


def _moment(f: Flight, airport: str) -> tuple[str, datetime]:
    return ("D", f.scheduled_departure) if f.origin == airport else ("A", f.scheduled_arrival)


def ration_by_schedule(
    flights: Iterable[Flight], airport: str, window: Window, cut: tuple[int, int], declared: tuple[int, int]
) -> dict[str, int]:
    """Flight id → minutes its departure (or arrival) at `airport` waits for its slot under the cut, for our flights
    scheduled there from the window's opening on; 0 for those the slots do not delay. The demand in each direction
    is `UTILISATION` of the declared rate, or our own busiest hour there if that is more."""
    moves = [(f, *_moment(f, airport)) for f in flights if airport in (f.origin, f.destination)]
    ours: dict[str, dict[datetime, int]] = {"D": {}, "A": {}}
    for _, kind, at in moves:
        hour = at.replace(minute=0, second=0, microsecond=0)
        ours[kind][hour] = ours[kind].get(hour, 0) + 1
    span = (window.end - window.start).total_seconds() / 60
    out = {}
    for f, kind, at in moves:
        i = 0 if kind == "D" else 1
        demand = max(UTILISATION * declared[i], max(ours[kind].values(), default=0))
        minutes_in = (at - window.start).total_seconds() / 60
        out[f.flight_id] = slot_delay(minutes_in, span, cut[i], declared[i], demand)
    return out


Rates = tuple[int, int]  # (departures, arrivals) an hour


def declared_cut(
    airport: str, window: Window, share: float | None, rate: float | None, day_flights: Iterable[Flight]
) -> tuple[Rates, Rates, dict[str, int]] | None:
    """A share or a movements-an-hour figure applied to the airport's declared rate: (the cut rates, the declared
    rates, flight id → its slot's wait for each of our flights the slots delay); None where the airport declares
    no rate (the caller keeps the airline's own) or the report states neither figure. A share is floored, never
    below one movement an hour unless it is zero; a rate is split as the declared rate is."""
    declared = declared_rate(airport)
    if declared is None or (share is None and rate is None):
        return None
    if share is not None:
        cut = tuple(max(int(n * share), int(share > 0)) for n in declared)
    else:
        assert rate is not None
        dep = round(rate * declared[0] / sum(declared))
        cut = (dep, int(rate) - dep)
    cut_rates: Rates = (cut[0], cut[1])
    waits = ration_by_schedule(day_flights, airport, window, cut_rates, declared)
    return cut_rates, declared, {fid: m for fid, m in waits.items() if m > 0}


def slots_delay_nobody(airport: str, kind: str, r_rates: Rates, held: dict[str, int]) -> str | None:
    """The refusal's line when the slots a cut leaves delay none of our flights (else None): only then is there
    nothing to re-plan."""
    if held:
        return None
    declared = declared_rate(airport)
    return (
        f"a {kind} to {r_rates[0]} departures and {r_rates[1]} arrivals an hour at {airport} (declared "
        f"{declared[0] if declared else '?'} and {declared[1] if declared else '?'}, all airlines) leaves slots that "
        f"delay none of our flights by ration-by-schedule: nothing to re-plan ({ESTIMATED})"
    )


# What the slots' waits rest on, said wherever they are shown: neither figure is the airport's or the network
# manager's own (no CTOT is read), so a wait is an estimate, not an issued slot.
ESTIMATED = f"estimated: declared rates are rounded reference figures and {UTILISATION:.0%} utilisation a policy figure"
