"""The decision bench's case files (`bench/scenarios/*.yaml`): what an OCC duty manager would accept.

One YAML file per case, named after the case. A case is a report written as an OCC would write it, an
optional what-if folder (`bench/scenarios/whatif/<name>/`, JSON Lines rows in `skymarshal data import`'s
format, imported over the seeded airline for that case only) and the expectation: the facts that should be
understood (delay-code family, scope kind, flights), the plan kinds acceptable at rank 1, the kinds that
must never be rank 1, and the options that must be considered (ranked, or rejected with a typed reason).

A plan kind is one of the decision's scenario kinds; `a+b` names a combined plan made of exactly those
kinds (a scenario's `kinds`, or `[kind]` when it has none). The expectations are a duty manager's, not
what the code does today: the bench measures the distance between the two.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Literal, get_args

import yaml  # type: ignore[import-untyped]  # PyYAML ships no types; stubs are not installed
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, field_validator, model_validator

from skymarshal.models.disruption import DelayFamily, ScopeKind

SCENARIOS = Path(__file__).parent / "scenarios"
WHATIF = SCENARIOS / "whatif"

PlanKind = Literal["tail_swap", "crew_swap", "delay", "divert", "cancel", "rescue_aircraft", "network_plan"]
PLAN_KINDS: frozenset[str] = frozenset(get_args(PlanKind))
Family = DelayFamily  # the AHM 730 families, as the disruption model names them
FLIGHT_ID = re.compile(r"^EY\d{1,4}-20\d{6}$")


def kinds_of(spec: str) -> frozenset[str]:
    """`delay+crew_swap` → {delay, crew_swap}: a combined plan is the set of its kinds, order aside."""
    return frozenset(part.strip() for part in spec.split("+"))


class Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _check_specs(specs: list[str]) -> list[str]:
    for spec in specs:
        unknown = kinds_of(spec) - PLAN_KINDS
        if unknown:
            raise ValueError(f"{spec!r}: unknown plan kind {sorted(unknown)}; known: {sorted(PLAN_KINDS)}")
    return specs


class Documented(Strict):
    """Rank 1 of these kinds is acceptable too when the decision documents why the better option is not
    possible: some considered plan was rejected with this typed reason, its message mentioning the words
    (e.g. EY20 from LHR: a cancellation is acceptable when the crew plans say no legal reserve exists)."""

    kinds: list[str] = Field(min_length=1)
    code: str = Field(pattern=r"^[A-Z_]+$")  # a rejection code, e.g. CREW_ILLEGAL
    mentions: str = Field(min_length=3)

    _specs = field_validator("kinds")(_check_specs)


class Expect(Strict):
    outcome: Literal["decision", "input_error"] = "decision"
    # An input error must name what is wrong: one of these words (case aside) in its message, so a report
    # refused for another reason (e.g. "no flight number") does not count as the expected refusal.
    error_mentions: list[str] = Field(default_factory=list)
    # What should be understood: the AHM 730 family (several when the code is a matter of judgement, e.g.
    # fog closing an airport is weather 71 or an airport restriction 89), the scope kind, and flights that
    # must be among scope.flights.
    delay_codes: list[int] = Field(default_factory=list)  # informative: shown, not scored
    family: list[Family] = Field(default_factory=list)
    scope: list[ScopeKind] = Field(default_factory=list)
    flights: list[str] = Field(default_factory=list)
    rank1: list[str] = Field(default_factory=list)
    rank1_if_documented: Documented | None = None
    never_rank1: list[str] = Field(default_factory=list)
    consider: list[str] = Field(default_factory=list)
    # Crew a what-if made unfit (sick, short of rest): a rank-1 plan that calls one of them out is wrong.
    unfit_crew: list[str] = Field(default_factory=list)
    # Aircraft a what-if grounded (AOG, in a check): a rank-1 plan flying the flight on one of them is wrong.
    unfit_tails: list[str] = Field(default_factory=list)

    _specs = field_validator("rank1", "never_rank1", "consider")(_check_specs)

    @field_validator("flights")
    @classmethod
    def _flight_ids(cls, flights: list[str]) -> list[str]:
        for flight in flights:
            if not FLIGHT_ID.match(flight):
                raise ValueError(f"{flight!r} is not a flight id like EY123-20270120")
        return flights

    @field_validator("delay_codes")
    @classmethod
    def _codes(cls, codes: list[int]) -> list[int]:
        for code in codes:
            if not 11 <= code <= 99:
                raise ValueError(f"{code} is not a two-digit AHM 730 delay code")
        return codes

    @model_validator(mode="after")
    def _complete(self) -> Expect:
        if self.outcome == "input_error":
            if self.rank1 or self.consider or self.never_rank1 or self.rank1_if_documented:
                raise ValueError("an input-error case expects no plans")
            if not self.error_mentions:
                raise ValueError("an input-error case names what its message must mention (error_mentions)")
            return self
        if self.error_mentions:
            raise ValueError("error_mentions is for input-error cases")
        if not (self.family and self.scope and self.rank1):
            raise ValueError("a decision case needs family, scope and rank1")
        both = {kinds_of(s) for s in self.rank1} & {kinds_of(s) for s in self.never_rank1}
        if both:
            raise ValueError(f"{sorted('+'.join(sorted(k)) for k in both)}: both acceptable and never rank 1")
        return self


class Case(Strict):
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    group: str  # the AHM 730 family the case exercises, or "bad-input" (for the per-family totals)
    station: Literal["hub", "outstation", "network", "none"]  # where the disrupted flight stands
    report: str = Field(min_length=10)
    whatif: str | None = None  # a folder under bench/scenarios/whatif/
    origin: str | None = None  # e.g. "issue 16", "demo": a report kept word for word
    # When the report was written, for a report that says "today" or "tonight" (the bench runs on another day)
    reported_at: AwareDatetime | None = None
    # The operating day the OCC works, where it is not the UTC day of `reported_at` (a hub east of Greenwich: at
    # 01:30 local on the 20th the UTC day is still the 19th)
    ops_date: date | None = None
    why: str = Field(min_length=10)  # what an OCC would do, and why: the expectation's reasoning
    expect: Expect

    @model_validator(mode="after")
    def _whatif_exists(self) -> Case:
        if self.whatif and not (WHATIF / self.whatif).is_dir():
            raise ValueError(f"what-if folder {WHATIF / self.whatif} does not exist")
        return self

    @property
    def whatif_folder(self) -> Path | None:
        return WHATIF / self.whatif if self.whatif else None


def load_case(path: Path) -> Case:
    """One case file, validated; any problem is raised naming the file (a malformed case fails `make test`)."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError("expected a mapping")
        case = Case.model_validate(data)
    except (yaml.YAMLError, ValueError) as exc:  # pydantic's ValidationError is a ValueError
        raise ValueError(f"{path.name}: {exc}") from exc
    if case.name != path.stem:
        raise ValueError(f"{path.name}: name {case.name!r} differs from the file name")
    return case


def load_cases(folder: Path = SCENARIOS) -> list[Case]:
    return [load_case(path) for path in sorted(folder.glob("*.yaml"))]
