"""Anytime recovery solver: a constructive plan, then large-neighbourhood search until the time limit.

Construction re-plans every aircraft over its own flights (delays propagated, blocks of flights cancelled
where they must be), then offers the cancelled flights to aircraft of the same family. Each search step
releases a few aircraft, re-plans them with perturbed weights, re-accommodates all passengers and keeps
the result only if the official cost drops and the checker accepts it: the incumbent is always feasible.
Both the passenger planner and the checker read connections by the same `Rules` (strict by default), so
under the strict reading every candidate plan re-accommodates the passengers of connections broken before
the window, and the search compares plans that all carry that repair.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from pydantic import BaseModel

from . import moves
from .aircraft_plan import Plan, Weights, replan
from .checker import check, unbooked_cancellations
from .cost import CostBreakdown, evaluate
from .flight_checks import Violation
from .incremental import Seating, full_seating, reseat_touched
from .model import STRICT, Instance, Rules, Solution
from .network import Network, build_network
from .passengers import PassengerLine, plan_passengers
from .plan_cost import aircraft_total, passenger_total
from .reseat import Reseater
from .rows import SolutionRows, to_rows
from .warm_start import WarmStart, repaired

# A re-seating takes at least 0.5 s (Reseater's floor) and its model's build: none is started with less time left
# (A05: the last one, given 0.13 s, took 0.57 s and ended the 60 s run at 60.2 s).
RESEAT_MIN_SECONDS = 1.0


class RecoveryResult(BaseModel):
    instance: str
    cost: CostBreakdown
    violations: list[Violation]
    seconds: float
    iterations: int
    improvements: int
    seed: int
    rules: Rules = STRICT
    unbooked_cancelled: int = 0  # planned flights nobody booked that the plan cancels

    @property
    def feasible(self) -> bool:
        return not self.violations


class NoFeasibleSolution(RuntimeError):
    """The constructive phase could not build a plan the checker accepts."""


def by_passenger_worth(net: Network) -> list[str]:
    """Tails owing a maintenance slot first (they must reach its airport: B05's reduced capacities left some
    no slot to get there), then those carrying the most passenger value: first pick of scarce airport slots."""
    worth = {a: sum(net.flights[i].cancel_worth for i in net.planned_rotation[a]) for a in net.aircraft}
    return sorted(net.aircraft, key=lambda a: (net.aircraft[a].maintenance is None, -worth[a]))


def plan_from(net: Network, start: WarmStart) -> Plan:
    """The plan flying each aircraft's listed flights at the listed times (fixed ones stay as they are)."""
    plan = Plan(net)
    for aircraft_id, legs in start.items():
        if aircraft_id not in plan.rotation:
            continue
        fixed = set(net.fixed_prefix.get(aircraft_id, ()))
        plan.assign(
            aircraft_id,
            [
                (net.by_key[(number, day)], departure)
                for number, day, departure in legs
                if (number, day) in net.by_key and net.by_key[(number, day)] not in fixed
            ],
        )
    return plan


def construct(net: Network, weights: Weights, order: list[str]) -> Plan:
    plan = Plan(net)
    pool: set[int] = set()
    for aircraft_id in order:  # first pass: each aircraft over its own planned flights
        own = [i for i in net.planned_rotation[aircraft_id] if net.flights[i].status in ("free", "disrupted")]
        replan(plan, aircraft_id, weights, pool, extra=own)
    for aircraft_id in order:  # second pass: cancelled flights offered to the family
        replan(plan, aircraft_id, weights, pool)
    return plan


class _Search:
    """State of one anytime run: the incumbent and its cost."""

    def __init__(self, instance: Instance, seed: int, rules: Rules = STRICT, deadline: float = float("inf")):
        self.instance = instance
        self.deadline = deadline  # time.monotonic() at which the run ends
        self.reseater = Reseater(time.monotonic())
        self.net = build_network(instance, rules)
        # keep_unbooked ranks plans (fewest unbooked flights cancelled, then cost): some have no slot at all.
        self.unbooked = [f.idx for f in self.net.flights if rules.keep_unbooked and f.status == "free" and not f.booked]
        self.rng = random.Random(seed)
        self.best_plan: Plan | None = None
        self.best_solution: SolutionRows | None = None
        self.seating = Seating([], 0.0)  # the incumbent's passenger lines (moves' seatings inherit them)
        self.best_cost = float("inf")
        self.best_score: tuple[int, float] = (1 << 30, float("inf"))
        self.best_reseated = False  # whether the incumbent's passengers were re-seated by the MIP
        # The best re-seated plan: the search compares greedy seatings (a re-seating costs 10-100 of them),
        # so it keeps its own incumbent, and the run returns whichever of the two is cheaper.
        self.final_solution: SolutionRows | None = None
        self.final_score: tuple[int, float] = (1 << 30, float("inf"))
        self.iterations = self.improvements = 0
        # How far above the incumbent a greedy-seated plan may be and still be seated by the MIP: about twice
        # what that re-seating gains over the greedy on a move's trips (B07: 60,000-160,000 on 300 trips).
        self.mip_slack = float("inf")
        # The longest a kept plan's rows, cost and check took: the run's end is reserved twice that (the last
        # re-seating's check, then the result's), so a run ends within its limit (B: ~1 s each on a quiet core).
        self.judge_seconds = 0.0
        # The longest step before its judging (the move, its greedy seating): the loop stops that much earlier,
        # as a step started just before the limit runs past it (B10: ~0.3 s a step, runs ended at 60.8 s).
        self.step_seconds = 0.0
        self.judged: list[tuple[SolutionRows, CostBreakdown]] = []  # kept rows (they passed the check), their cost

    @property
    def incumbent(self) -> Plan:
        """The best plan so far; the search moves start from it, and solve() searches only once there is one."""
        assert self.best_plan is not None, "no incumbent: solve() raises NoFeasibleSolution before searching"
        return self.best_plan

    def offer(self, plan: Plan, started: float | None = None) -> bool:
        """Cost the plan with its passengers seated greedily (only the trips the move touched, the others as
        in the incumbent); a plan that misses by less than the MIP usually gains over the greedy on such
        trips has the trips changed since the last kept re-seating seated by the MIP. Keep it if cheaper and
        feasible, then re-seat it by the MIP where the time share allows. `started`: when the step began
        (time.monotonic(), before its move), timed up to its seating."""
        self.iterations += 1
        seating = full_seating(plan) if self.best_plan is None else reseat_touched(plan, self.best_plan, self.seating)
        if started is not None:
            self.step_seconds = max(self.step_seconds, time.monotonic() - started)
        unbooked = sum(plan.aircraft_of[i] is None for i in self.unbooked)
        score = (unbooked, round(seating.passenger_cost + aircraft_total(plan), 2))  # rows only if it may be kept
        by_mip = False
        if self.best_plan is not None and self._near(score):
            found = self.mip_seating(plan, seating)
            if found is not None:
                seating, by_mip = found, True
                score = (unbooked, round(seating.passenger_cost + aircraft_total(plan), 2))
        if score > self.best_score or (score == self.best_score and self.rng.random() < 0.8):
            return False  # an equal cost is sometimes accepted, to drift
        judging = time.monotonic()
        solution = to_rows(plan, seating.lines)
        cost = evaluate(self.instance, solution)
        score = (unbooked, cost.total)
        rejected = score > self.best_score or check(self.instance, solution, self.net.rules)
        self.judge_seconds = max(self.judge_seconds, time.monotonic() - judging)
        if rejected:
            return False
        improved = score < self.best_score
        self.keep(plan, seating.lines, solution, score, cost)
        self.best_reseated = by_mip
        if by_mip:
            self.reseater.kept(seating.lines)
        self.improvements += improved
        if not by_mip and self.reseater.worth(now := time.monotonic()) and self.seconds_left(now) > RESEAT_MIN_SECONDS:
            improved |= self.reseat_incumbent()
        return improved

    def _near(self, score: tuple[int, float]) -> bool:
        """Whether a greedy-seated plan that is not better may be once the MIP seats its changed trips."""
        return (
            score[0] == self.best_score[0]
            and self.best_score[1] <= score[1] < self.best_score[1] + self.mip_slack
            and self.reseater.incremental
            and self.reseater.worth(now := time.monotonic())
            and self.seconds_left(now) > RESEAT_MIN_SECONDS
        )

    def seconds_left(self, now: float) -> float:
        """What a re-seating may take at `now`: the run's end less twice the longest judging (the re-seated plan's,
        then the result's)."""
        return self.deadline - 2 * self.judge_seconds - now

    def mip_seating(self, plan: Plan, seating: Seating) -> Seating | None:
        """The seating with the trips changed since the last kept re-seating seated by the MIP (at most a
        tenth of the time left), None if it found nothing; the slack follows what it gains over the greedy."""
        lines = self.reseater(plan, seating.lines, self.seconds_left(time.monotonic()) / 10)
        if lines is None:
            return None
        found = Seating(lines, passenger_total(plan, lines))
        gain = seating.passenger_cost - found.passenger_cost
        self.mip_slack = max(2 * gain if self.mip_slack == float("inf") else 0.5 * self.mip_slack + gain, 1.0)
        return found

    def keep(
        self,
        plan: Plan,
        lines: list[PassengerLine],
        solution: SolutionRows,
        score: tuple[int, float],
        cost: CostBreakdown,
    ) -> None:
        """Make the plan and its seating the incumbent (its passenger cost summed afresh: no drift). Its cost
        breakdown is kept: the run's result reports it without costing and checking the same rows again."""
        self.best_plan, self.best_solution, self.best_cost, self.best_score = plan, solution, score[1], score
        # the rows the result may return (this incumbent, the best re-seated one) with their costs, by identity
        self.judged = [(r, c) for r, c in self.judged if r is self.final_solution] + [(solution, cost)]
        self.seating = Seating(lines, passenger_total(plan, lines))

    def reseat_incumbent(self, last: bool = False) -> bool:
        """Re-seat the incumbent's passengers by the MIP; True if that beats every plan so far (the seating
        then becomes the incumbent's: later moves inherit its lines). During the search a re-seating may take
        half the time left (B07's first, of every trip, took the whole minute's 40 s MIP cap), the last one
        all of it."""
        plan, self.best_reseated = self.incumbent, True
        left = self.seconds_left(time.monotonic())
        lines = self.reseater(plan, self.seating.lines, left if last else left / 2)
        if lines is None:
            return False
        solution = to_rows(plan, lines)
        cost = evaluate(self.instance, solution)
        score = (self.best_score[0], cost.total)
        if score >= min(self.best_score, self.final_score) or check(self.instance, solution, self.net.rules):
            return False
        self.final_solution, self.final_score = solution, score
        self.keep(plan, lines, solution, score, cost)
        self.reseater.kept(lines)
        return True

    def result(self) -> tuple[SolutionRows, float]:
        """The cheapest plan found: the greedy-seated incumbent, or a re-seated one."""
        if self.final_solution is not None and self.final_score < self.best_score:
            return self.final_solution, self.final_score[1]
        assert self.best_solution is not None, "solve() searches only once a plan was kept"
        return self.best_solution, self.best_cost

    def random_weights(self) -> Weights:
        r = self.rng
        return Weights(
            cancel_factor=r.uniform(0.3, 1.2),
            delay_factor=r.uniform(0.5, 1.5),
            position_penalty=r.uniform(0.2, 1.2),
            max_delay=r.choice((180, 360, 600, 900)),
            ferries=r.random() < 0.2,
            spill_factor=r.uniform(0.3, 1.0),
        )

    def neighbour(self) -> Plan:
        roll, rng, weights = self.rng.random(), self.rng, self.random_weights()
        found = None
        if roll < 0.15:
            found = moves.rescue(self.incumbent, self.seating.lines, rng, weights)
        elif roll < 0.35:
            found = moves.hold_connection(self.incumbent, rng, weights)
        if found is None and roll < 0.8:
            found = moves.swap_chain(self.incumbent, rng, weights)
        return found or moves.replan_some(self.incumbent, rng, weights)


def solve(
    instance: Instance,
    time_limit: float,
    seed: int = 0,
    on_incumbent: Callable[[SolutionRows, float], None] | None = None,
    rules: Rules = STRICT,
    warm_starts: Sequence[WarmStart] = (),
    stall_seconds: float | None = None,
) -> tuple[Solution, RecoveryResult]:
    """The best plan found within `time_limit` seconds; with `stall_seconds`, sooner once that long has passed
    without an improvement (the budget is then a limit, not a target: a small instance converges in a fraction of
    it, and the network agent's round waits for it)."""
    started = time.monotonic()
    search = _Search(instance, seed, rules, started + time_limit)
    # Each warm start offered first, as given, repaired when that is not kept: the search keeps what beats them.
    for start in warm_starts:
        if not search.offer(plan_from(search.net, start)):
            search.offer(repaired(search.net, start))
    order = by_passenger_worth(search.net)
    weights = Weights()
    first = construct(search.net, weights, order)
    search.offer(first)
    if search.best_plan is None:
        search.offer(construct(search.net, replace(weights, ferries=True), order))
    if search.best_plan is None:
        for _attempt in range(5):  # a different order and weights, ferries allowed, before giving up
            search.rng.shuffle(order)
            if search.offer(construct(search.net, replace(search.random_weights(), ferries=True), order)):
                break
        else:
            raise NoFeasibleSolution(
                f"{instance.name}: no feasible constructive plan: "
                + "; ".join(v.message for v in check(instance, to_rows(first, plan_passengers(first)), rules)[:3])
            )
    assert search.best_solution is not None, "a construction was accepted (else NoFeasibleSolution above)"
    if on_incumbent:
        on_incumbent(*search.result())
    improved_at = time.monotonic()
    # The result's cost and check are reserved twice the longest of them, a step its longest move, and, until
    # a re-seating has been kept, the last re-seating half as long again as the latest one took (a loaded
    # machine). Once one has,
    # the incumbent's seating inherits its lines: searching on beats stopping early to re-seat (set B's
    # re-seating takes 7-30 s of a 60 s run), and the last one only uses what time is left.
    while time.monotonic() - started < time_limit - 2 * search.judge_seconds - search.step_seconds - (
        0 if search.best_reseated or search.final_solution is not None else 1.5 * search.reseater.last
    ):
        if stall_seconds is not None and time.monotonic() - improved_at > stall_seconds:
            break
        stepping = time.monotonic()
        if search.offer(search.neighbour(), stepping):
            improved_at = time.monotonic()
            if on_incumbent:
                on_incumbent(*search.result())
    last = not search.best_reseated and search.seconds_left(time.monotonic()) > RESEAT_MIN_SECONDS
    if last and search.reseat_incumbent(last=True) and on_incumbent:
        on_incumbent(*search.result())
    rows = search.result()[0]
    solution = rows.to_model()
    # kept, so costed and checked already: the run's end reserves time for the last judging, not a third one
    judged = next((c for r, c in search.judged if r is rows), None)
    result = RecoveryResult(
        instance=instance.name,
        cost=judged or evaluate(instance, solution),
        violations=[] if judged is not None else check(instance, solution, rules),
        seconds=round(time.monotonic() - started, 2),
        iterations=search.iterations,
        improvements=search.improvements,
        seed=seed,
        rules=rules,
        unbooked_cancelled=len(unbooked_cancellations(instance, solution)),
    )
    return solution, result
