"""A subject and a cause written out in one OCC style: narrative, terse log line, shorthand, or an MVT-like message.

Every choice of words comes from the bench's vocabulary through the seeded generator; the facts come from the
subject (subjects.py). Decorations (a greeting, a polite line, an irrelevant remark, one instruction sentence,
a relative day against a stated operating day) are recorded with the report so the bench can break results
down by them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta

from skymarshal.models.operational import Flight

from . import vocabulary as v
from .airline_view import AirlineView
from .causes import CauseWords
from .dates import clock, mvt_time, written_day
from .subjects import Subject
from .truth import Style


@dataclass
class Written:
    text: str
    delay_minutes: int | None = None
    operating_day: date | None = None
    decorations: list[str] = field(default_factory=list)


@dataclass
class Writer:
    view: AirlineView
    rng: random.Random
    subject: Subject
    cause: CauseWords
    style: Style
    out: Written = field(default_factory=lambda: Written(""))

    # ----------------------------------------------------------------------------- words for the facts
    @property
    def short(self) -> bool:
        return self.style in ("shorthand", "mvt")

    def station(self, iata: str) -> str:
        if self.short:
            return iata
        city = self.view.city(iata)
        # a city of several airports is no airport: an OCC adds the code ("London (LHR)")
        refs = [r for r in v.STATION_REFS if "{iata}" in r] if city in self.view.shared_cities else v.STATION_REFS
        return self.rng.choice(refs).format(city=city, iata=iata)

    def position(self, rank: str) -> str:
        words = v.UNROSTERED_POSITION if rank == "SO" else v.POSITION_WORDS[rank]
        return self.rng.choice(words[1] if self.short else words[0])

    def flight_ref(self, flight: Flight) -> str:
        if self.short:
            return flight.flight_number
        template = self.rng.choice(v.FLIGHT_REFS)
        return template.format(
            number=flight.flight_number,
            origin=flight.origin,
            destination=flight.destination,
            to_city=self.view.city(flight.destination),
        )

    def clause(self) -> str:
        s = self.subject
        if s.scope in ("airport", "airspace"):
            phrase = self.rng.choice(self.cause.station_clauses)
        else:
            phrase = self.rng.choice(self.cause.shorthand if self.short else self.cause.clauses)
            if s.station and "{station}" not in phrase and s.refuse == "airport_not_on_route":
                phrase += " " + self.rng.choice(v.AT_STATION)  # the wrong airport, where the clause names none
        filled = phrase.format(
            pos=self.position(s.rank) if s.rank else "",
            station=self.station(s.station) if s.station else "",
            airspace=s.airspace or "",
        )
        return filled.upper() if self.short else filled

    def when(self) -> tuple[str, str]:
        """("on 20 Jan", "On 20 Jan"), or a relative day after a stated operating day ("today", "Today")."""
        s, rng = self.subject, self.rng
        if s.description is not None:
            return self.when_described()
        tonight_ok = s.scope in ("flight", "crew_member") and self.view.local_departure(s.flights[0]).hour >= 17
        if self.style != "mvt" and s.scope != "airspace" and rng.random() < 0.25:
            choices = [(w, n) for w, n in v.RELATIVE_DAYS if w != "tonight" or tonight_ok]
            word, offset = rng.choice(choices)
            ops_day = s.day - timedelta(days=offset)
            self.out.operating_day = ops_day
            self.out.decorations.append("relative_day")
            self.lead_parts.append(rng.choice(v.OPS_DAY_LEADS).format(day=written_day(rng, ops_day, self.short)))
            return word, word.capitalize()
        day = written_day(rng, s.day, self.short)
        return (day, day) if self.style != "narrative" else (f"on {day}", f"On {day}")

    def when_described(self) -> tuple[str, str]:
        """The day of a described set with its part ("on the evening of 21 January", "tomorrow morning", "21JAN
        EVENING"), or relative after a stated operating day."""
        s, rng = self.subject, self.rng
        assert s.description is not None
        part = s.description.part
        if self.style != "mvt" and rng.random() < 0.3:
            words = v.PART_RELATIVE[part] if part else tuple(w for w, _ in v.RELATIVE_DAYS if w != "tonight")
            word = rng.choice(words)
            self.out.operating_day = s.day - timedelta(days=1 if word.startswith("tomorrow") else 0)
            self.out.decorations.append("relative_day")
            lead = rng.choice(v.OPS_DAY_LEADS).format(day=written_day(rng, self.out.operating_day, self.short))
            self.lead_parts.append(lead)
            word = word.upper() if self.short else word
            return word, word[:1].upper() + word[1:]
        day = written_day(rng, s.day, self.short)
        if part is None:
            return (day, day) if self.style != "narrative" else (f"on {day}", f"On {day}")
        if self.short:
            return f"{day} {part.upper()}", f"{day} {part.upper()}"
        phrase = rng.choice(v.PART_WITH_DAY).format(part=part, day=day)
        return phrase, phrase[:1].upper() + phrase[1:]

    def set_ref(self) -> str:
        """A described set in words: a tail's flights, or the flights to, from, or to or from a place."""
        d = self.subject.description
        assert d is not None
        if d.registration is not None:
            return self.rng.choice(v.SET_BY_TAIL[self.short]).format(reg=d.registration)
        assert d.place is not None and d.end is not None
        city = self.view.city(d.place)
        # a city of several airports, or written "district, city" in the reference, is named by its code
        place = d.place if self.short or city in self.view.shared_cities or "," in city else city
        return self.rng.choice(v.SET_BY_PLACE[d.end][self.short]).format(place=place)

    def window(self) -> str:
        assert self.subject.window is not None
        start, end = self.subject.window
        return self.rng.choice(v.WINDOW_LEADS).format(start=clock(self.rng, start), end=clock(self.rng, end))

    def impact(self) -> str:
        s, rng = self.subject, self.rng
        if s.scope == "airspace":
            return rng.choice(v.SLOT_WORDS).format(minutes=rng.choice((20, 30, 45, 60)))
        return rng.choice(v.CLOSURE_WORDS if self.cause.closes else v.CAPACITY_WORDS)

    def delay(self) -> str:
        if self.subject.scope in ("airport", "airspace") or self.rng.random() >= 0.35:
            return ""
        minutes = self.rng.choice((30, 45, 60, 90, 120, 180))
        self.out.delay_minutes = minutes
        return self.rng.choice(v.SHORT_DELAY if self.short else v.DELAY_WORDS).format(minutes=minutes) + "."

    # ----------------------------------------------------------------------------- the styles
    def write(self) -> Written:
        self.lead_parts: list[str] = []
        body = self.mvt() if self.style == "mvt" else self.sentences()
        self.out.text = body
        return self.out

    def subject_ref(self) -> str:
        s, rng = self.subject, self.rng
        if s.scope == "tail":
            assert s.registration is not None
            return rng.choice(v.TAIL_REFS).format(reg=s.registration)
        if s.description is not None:
            return self.set_ref()
        refs = [self.flight_ref(f) for f in s.flights]
        if len(refs) == 1:
            ref = refs[0]
        elif len(refs) == 2:
            ref = rng.choice(v.SEVERAL).format(a=refs[0], b=refs[1])
        else:
            ref = ", ".join(refs[:-1]) + " and " + refs[-1]
        if s.registration and s.scope != "tail":  # the flight's tail named beside it (or, refused, another's)
            ref += f" (A/C {s.registration})" if self.short else f" on aircraft {s.registration}"
        return ref

    def sentences(self) -> str:
        s, rng = self.subject, self.rng
        when, when_cap = self.when()
        clause, ref = self.clause(), self.subject_ref() if s.scope not in ("airport", "airspace") else ""
        lead = rng.choice(v.NARRATIVE_LEADS)
        if s.scope in ("airport", "airspace"):
            text = self.station_line(clause, when, when_cap, lead)
        elif self.style == "narrative":
            where = f"at {self.station(s.station)} " if s.scope == "tail" and s.station else ""
            templates = {"tail": v.NARRATIVE_TAIL, "described": v.NARRATIVE_SET}.get(s.scope, v.NARRATIVE_FLIGHT)
            template = rng.choice(templates)
            text = template.format(ref=ref, when=when, when_cap=when_cap, clause=clause, lead=lead, where=where)
        elif self.style == "terse":
            where = f" at {s.station}" if s.scope == "tail" and s.station else ""
            text = f"{when} {ref}{where} - {clause}."
        else:
            where = f" AT {s.station}" if s.scope == "tail" and s.station else ""
            route = f" {s.flights[0].origin}-{s.flights[0].destination}" if s.scope in ("flight", "crew_member") else ""
            text = f"{ref}/{when}{route}{where} {clause}."
            if rng.random() < 0.5:
                text += " " + rng.choice(v.SHORT_EXTRAS) + "."
        parts = [*self.lead_parts, text, self.delay()]
        return " ".join(p for p in self.decorate(parts) if p)

    def station_line(self, clause: str, when: str, when_cap: str, lead: str) -> str:
        window, impact = self.window(), self.impact()
        if self.style == "narrative":
            template = self.rng.choice(v.NARRATIVE_STATION)
            return template.format(lead=lead, clause=clause, window=window, when=when, when_cap=when_cap, impact=impact)
        if self.style == "terse":
            return f"{when_cap} {window}: {clause}; {impact}."
        return f"{when.upper()} {window}: {clause.upper()}. {impact.upper()}."

    def decorate(self, parts: list[str]) -> list[str]:
        """Greeting, polite filler, an irrelevant remark and one instruction, at random places around the facts."""
        rng, decorations = self.rng, self.out.decorations
        extra: list[str] = []
        if self.style == "narrative" and rng.random() < 0.6:
            parts.insert(0, rng.choice(v.GREETINGS))
            extra.append(rng.choice(v.SIGN_OFFS))
            decorations.append("greeting")
        if rng.random() < (0.5 if self.style == "narrative" else 0.15):
            extra.insert(0, rng.choice(v.POLITE_FILLER))
            decorations.append("filler")
        if rng.random() < 0.25:
            parts.insert(rng.choice((len(parts), max(1, len(parts) - 1))), rng.choice(v.IRRELEVANT_REMARKS))
            decorations.append("remark")
        if rng.random() < 0.12:
            parts.insert(len(parts) - rng.choice((0, 1)), rng.choice(v.INSTRUCTIONS))
            decorations.append("instruction")
        return parts + extra

    def mvt(self) -> str:
        """An MVT-like delay message: the flight line (day of month, registration, station), an estimate, the
        delay code and its duration, and the supplementary information in shorthand."""
        s, rng = self.subject, self.rng
        flight = s.flights[0]
        assert self.cause.code is not None  # only causes with one code are written as MVT
        registration = (s.registration or flight.aircraft_registration).replace("-", "")
        minutes = rng.choice((15, 30, 45, 60, 90, 120))
        self.out.delay_minutes = minutes
        lines = [
            "MVT",
            f"{flight.flight_number}/{flight.flight_date:%d}.{registration}.{flight.origin}",
            f"ED{mvt_time(flight.scheduled_departure + timedelta(minutes=minutes))}",
            f"DL{self.cause.code:02d}/{minutes // 60:02d}{minutes % 60:02d}",
            f"SI {self.clause()}",
        ]
        if rng.random() < 0.12:
            lines.append("SI " + rng.choice(v.INSTRUCTIONS).upper())
            self.out.decorations.append("instruction")
        return "\n".join(lines)
