"""The day's scorecards drawn: on-time performance (D15, of the flights gone so far) and cumulative passenger
delay at the final destination through the day, one line per policy (matplotlib, PNG, no display)."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from pathlib import Path

from skymarshal.day.scorecard import Scorecard


def draw(cards: list[Scorecard], title: str, out: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (otp, pax) = plt.subplots(1, 2, figsize=(12, 4.5))
    styles = ("-", "--", ":", "-.")  # baselines that decide alike draw on top of each other: tell them apart
    for n, card in enumerate(cards):
        style = {"linestyle": styles[n % len(styles)], "linewidth": 2.2 if n == 0 else 1.4}
        if card.otp_by_hour:
            hours, shares = zip(*card.otp_by_hour)
            otp.plot(hours, [100 * s for s in shares], label=card.policy, **style)
        if card.pax_delay_by_hour:
            hours, minutes = zip(*card.pax_delay_by_hour)
            pax.plot(hours, [m / 60 for m in minutes], label=card.policy, **style)
    otp.set(title="D15 on-time departures (flights gone so far)", xlabel="hours after 00:00 UTC", ylabel="%")
    pax.set(
        title="cumulative passenger delay at final destination",
        xlabel="scheduled arrival at the final destination, hours after 00:00 UTC",
        ylabel="passenger-hours",
    )
    for ax in (otp, pax):
        ax.grid(alpha=0.3)
        ax.set_xlim(0, 48)
    pax.legend(loc="upper left", fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


BANK_HOURS = 3  # a hub bank: the arrivals and departures of three hours


def busiest_bank(state, timings, hub: str, day) -> tuple[datetime, datetime]:
    """The hub's three-hour window (on the hour) where the day lost most: minutes late leaving the hub plus
    a cancellation counted as a day late, by the flights' scheduled departures."""
    lost: dict[datetime, int] = {}
    for f in state.flights.values():
        if f.origin != hub or f.scheduled_departure.date() != day:
            continue
        t = timings.get(f.flight_id)
        minutes = 1440 if t is None else t.delay(f)
        hour = f.scheduled_departure.replace(minute=0, second=0, microsecond=0)
        for k in range(BANK_HOURS):
            start = hour - timedelta(hours=k)
            lost[start] = lost.get(start, 0) + minutes
    start = max(lost, key=lambda h: (lost[h], -h.timestamp())) if lost else datetime.combine(day, time(0), UTC)
    return start, start + timedelta(hours=BANK_HOURS)


def draw_bank(before, after, events, policy: str, hub: str, day, out: Path) -> Path:
    """Before (the schedule) and after (the day as flown under `policy`) of the hub bank that lost most: a row
    per tail that leaves the hub in the bank, each of its flights a bar; cancelled flights hatched in red, a
    flight on another tail than planned outlined, the stream's causes at the hub shaded."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from skymarshal.day.realize import realize

    timings = realize(after, events)
    start, end = busiest_bank(after, timings, hub, day)
    span = (start - timedelta(hours=8), end + timedelta(hours=8))
    tails = sorted(
        {
            f.aircraft_registration
            for s in (before, after)
            for f in s.flights.values()
            if f.origin == hub and start <= f.scheduled_departure < end
        }
    )
    hours = lambda t: (t - start).total_seconds() / 3600  # noqa: E731
    fig, axes = plt.subplots(1, 2, figsize=(14, 0.32 * len(tails) + 2.2), sharey=True)
    for ax, label, state in ((axes[0], "before: the schedule", before), (axes[1], f"after: {policy}", after)):
        for row, tail in enumerate(tails):
            for f in state.flights.values():
                if f.aircraft_registration != tail or f.scheduled_arrival < span[0] or f.scheduled_departure > span[1]:
                    continue
                flown = timings.get(f.flight_id) if state is after else None
                dep, arr = (flown.departure, flown.arrival) if flown else (f.scheduled_departure, f.scheduled_arrival)
                cancelled = state is after and f.status == "CANCELLED"
                moved = state is after and before.original_tails.get(f.flight_id, tail) != tail
                late = flown is not None and flown.delay(f) > 15
                ax.barh(
                    row,
                    hours(arr) - hours(dep),
                    left=hours(dep),
                    height=0.6,
                    color="#f4cccc" if cancelled else ("#e69138" if late else "#6fa8dc"),
                    hatch="xx" if cancelled else None,
                    edgecolor="#990000" if cancelled else ("black" if moved else "none"),
                    linewidth=1.4 if moved else 0.5,
                )
                if hours(span[0]) <= hours(dep) <= hours(span[1]):
                    ax.text(hours(dep) + 0.05, row, f.flight_number, va="center", fontsize=6)
        for e in events:
            if e.holds == "station" and e.station == hub:
                ax.axvspan(hours(e.start), hours(e.end), color="grey", alpha=0.15)
        ax.axvspan(0, BANK_HOURS, color="gold", alpha=0.12)
        ax.set(title=label, xlabel=f"hours from {start:%d %b %H:%MZ} (the bank shaded)")
        ax.set_xlim(hours(span[0]), hours(span[1]))
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(range(len(tails)), tails, fontsize=7)
    axes[0].invert_yaxis()
    fig.suptitle(
        f"{hub} bank {start:%H:%M}-{end:%H:%MZ}, {day}: blue on time, orange > 15 min late, red hatched cancelled, "
        "outlined on another tail"
    )
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out
