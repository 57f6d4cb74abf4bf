"""The day's scorecards drawn: on-time performance (D15, of the flights gone so far) and cumulative passenger
delay at the final destination through the day, one line per policy (matplotlib, PNG, no display)."""

from __future__ import annotations

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
