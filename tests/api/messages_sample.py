"""What decision_sample's three EY123 plans would send, as GET /disruptions/{id}/messages answers it (the API's
own models, the texts from the message formats): the swap re-equips EY123 and its return EY124 (two ASM EQT, no
crew or passenger told); the 150-minute delay sends an MVT estimate and tells the delayed crew and passengers; the
cancellation sends an ASM CNL, releases the crew and rebooks the passengers — one group onto EY125, one interline."""

from __future__ import annotations

from datetime import timedelta

from decision_sample import DEP

from skymarshal.api.messages import MessagesView
from skymarshal.messages import formats as fmt
from skymarshal.messages.models import (
    ContactTotals,
    CrewContact,
    OutboundMessage,
    PassengerGroup,
    PlanMessages,
    StationContact,
)

TECHNICAL = 41  # AHM 730: aircraft defects
CREW = ("C0123", "C0124", "C0301")


def _totals(messages, crew, stations, passengers) -> ContactTotals:
    return ContactTotals(
        messages=len(messages),
        crew=len({c.crew_id for c in crew}),
        stations=len(stations),
        passengers=sum(g.passengers for g in passengers),
    )


def _plan(scenario_id: str, messages, crew=(), passengers=()) -> PlanMessages:
    stations = sorted({s for m in messages for s in m.stations})
    station_list = [
        StationContact(station=s, flights=sorted({m.flight_number for m in messages if s in m.stations}))
        for s in stations
    ]
    return PlanMessages(
        scenario_id=scenario_id,
        messages=list(messages),
        crew=list(crew),
        stations=station_list,
        passengers=list(passengers),
        totals=_totals(messages, crew, station_list, passengers),
    )


def swap() -> PlanMessages:
    legs = (
        ("EY123", "EY123-20270120", DEP, ["AUH", "FRA"]),
        ("EY124", "EY124-20270120", DEP + timedelta(hours=9), ["FRA", "AUH"]),
    )
    return _plan(
        "tail_swap:A6-BLT",
        [
            OutboundMessage(
                standard="ASM",
                action="EQT",
                flight_id=fid,
                flight_number=number,
                stations=stations,
                text=fmt.asm_equipment(number, dep, TECHNICAL, "789", "J28Y262", "A6-BLT"),
                why="flown by A6-BLT (B789)",
            )
            for number, fid, dep, stations in legs
        ],
    )


def delay() -> PlanMessages:
    new = DEP + timedelta(minutes=150)
    crew = [
        CrewContact(
            crew_id=c,
            flight_id="EY123-20270120",
            flight_number="EY123",
            change="delayed",
            notification=f"EY123 AUH-FRA 20Jan 09:00Z now departs {new:%H:%MZ} (150 min late): report later.",
        )
        for c in CREW
    ]
    return _plan(
        "delay:150",
        [
            OutboundMessage(
                standard="MVT",
                action="ED",
                flight_id="EY123-20270120",
                flight_number="EY123",
                stations=["AUH", "FRA"],
                text=fmt.mvt_delay("EY123", DEP, "A6-BLA", "AUH", new, TECHNICAL),
                why="delayed 150 min",
            )
        ],
        crew,
        [
            PassengerGroup(
                flight_id="EY123-20270120",
                flight_number="EY123",
                change="delayed",
                passengers=231,
                notification="EY123 to Frankfurt now leaves at 11:30Z; we are sorry for the delay.",
            )
        ],
    )


def cancel() -> PlanMessages:
    crew = [
        CrewContact(
            crew_id=c,
            flight_id="EY123-20270120",
            flight_number="EY123",
            change="released",
            notification="EY123 AUH-FRA 20Jan 09:00Z is cancelled: you are released from the sector.",
        )
        for c in CREW
    ]
    groups = [
        PassengerGroup(
            flight_id="EY123-20270120",
            flight_number="EY123",
            change="rebooked",
            passengers=180,
            onto="EY125",
            notification="EY123 is cancelled: you are rebooked onto EY125 at 14:10Z.",
        ),
        PassengerGroup(
            flight_id="EY123-20270120",
            flight_number="EY123",
            change="interline",
            passengers=51,
            onto="INTERLINE",
            notification="EY123 is cancelled: you are rebooked with a partner airline.",
        ),
    ]
    message = OutboundMessage(
        standard="ASM",
        action="CNL",
        flight_id="EY123-20270120",
        flight_number="EY123",
        stations=["AUH", "FRA"],
        text=fmt.asm_cancel("EY123", DEP, TECHNICAL),
        why="cancelled",
    )
    return _plan("cancel", [message], crew, groups)


def before_approval(run: str) -> dict:
    return MessagesView(disruption_id=run, plans=[swap(), delay(), cancel()]).model_dump(mode="json")


def after_execution(run: str) -> dict:
    return MessagesView(disruption_id=run, sent=swap()).model_dump(mode="json")
