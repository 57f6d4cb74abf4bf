"""A late tail's next flights handed over to another aircraft (plans/hand_over.py builds it): what the plan's
operation (plans/operate.py) reads of it — its swaps and re-timings, and how the duty manager is told."""

from __future__ import annotations

from dataclasses import dataclass

from ...models.operational import Flight
from ..actions import DelayFlight, SwapAircraft


@dataclass(frozen=True)
class HandOver:
    """The disrupted tail's flights from `taken[0]` on (a block of them) flown by `tail`; the flights of `tail`
    the disrupted tail flies instead (`given`, none for a spare or a gap long enough); the swaps and re-timings."""

    tail: str
    aircraft_type: str
    taken: tuple[Flight, ...]
    given: tuple[Flight, ...]
    actions: tuple[SwapAircraft | DelayFlight, ...]
    added_minutes: int  # the booked passenger-minutes its re-timings add

    @property
    def swaps(self) -> int:
        """Tails exchanged, as the day scorecard counts swaps: the other aircraft takes ours, and ours its, if any."""
        return 1 + bool(self.given)

    def title_words(self) -> str:
        """What a plan's title adds: who flies the rotation on."""
        return f"; {self.tail} flies {self.taken[0].flight_number} on" + (
            f" and the {len(self.taken) - 1} after it" if len(self.taken) > 1 else ""
        )

    def note(self, late_tail: str) -> str:
        first = self.taken[0]
        taken = ", ".join(x.flight_number for x in self.taken)
        given = ", ".join(x.flight_number for x in self.given)
        return f"{self.tail} flies {taken} from {first.origin} in place of {late_tail}" + (
            f"; {late_tail} flies {given} once it has landed" if given else ""
        )
