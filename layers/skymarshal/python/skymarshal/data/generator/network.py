"""The synthetic airline's network: hub, routes with daily frequencies, airport operating data.

Routes are data: destination, aircraft type and the hub's local departure times of each daily
frequency. Flight numbers are pinned where later work depends on them (the three demo situations).
"""

from __future__ import annotations

from dataclasses import dataclass

HUB = "AUH"
CARRIER = "EY"
HUB_MIN_CONNECTION_MINUTES = 60

# (destination, type, "HH:MM[=number] ...") — AUH local departure times; "=123" pins the flight number.
ROUTES: tuple[tuple[str, str, str], ...] = (
    ("BAH", "A320", "06:10 10:30 15:45 21:20"),
    ("KWI", "A320", "07:05 16:20"),
    ("MCT", "A320", "06:40 13:15 20:10"),
    ("RUH", "A320", "08:15 19:40"),
    ("DMM", "A320", "09:10"),
    ("JED", "A320", "04:20 17:30"),
    ("KHI", "A320", "09:45 22:15"),
    ("TRV", "A320", "03:55"),
    ("HYD", "A320", "04:30 22:00"),
    ("KTM", "A320", "01:50"),
    ("TBS", "A320", "11:20"),
    ("GYD", "A320", "12:05"),
    ("AMM", "A321", "03:05 14:40"),
    ("BEY", "A321", "02:50 15:05"),
    ("CAI", "A321", "03:40 16:45"),
    ("LHE", "A321", "03:30 21:50"),
    ("ISB", "A321", "02:15 20:40"),
    ("BOM", "A321", "03:15 10:05"),
    ("DEL", "A321", "02:40 09:30"),
    ("COK", "A321", "03:25 21:10"),
    ("MAA", "A321", "04:10 21:45"),
    ("BLR", "A321", "03:45"),
    ("CMB", "A321", "02:35"),
    ("MLE", "A321", "08:50"),
    ("DAC", "A321", "02:00"),
    ("ATH", "A321", "10:15"),
    ("IST", "A321", "09:20"),
    ("LHR", "B789", "02:30=11 09:15=19 14:10=25"),
    ("LHR", "B77W", "21:05=17"),
    ("FRA", "B789", "14:25=123 02:45=3"),
    ("CDG", "B789", "02:05=31"),
    ("MUC", "B789", "02:15=5"),
    ("AMS", "B789", "02:40=79"),
    ("MAN", "B789", "02:35=15"),
    ("DUB", "B789", "08:10=45"),
    ("YYZ", "B789", "10:20=141"),
    ("BOS", "B789", "09:55=169"),
    ("BKK", "B789", "20:40=402 09:45=406"),
    ("KUL", "B789", "02:25=410"),
    ("NRT", "B789", "21:50=878"),
    ("PVG", "B789", "22:30=862"),
    ("NBO", "B789", "07:35=625"),
    ("BOM", "B789", "20:55=204"),
    ("DEL", "B789", "21:35=212"),
    ("FCO", "B78X", "02:55=85"),
    ("MXP", "B78X", "03:10=81"),
    ("MAD", "B78X", "02:20=75"),
    ("BCN", "B78X", "01:55=49"),
    ("ZRH", "B78X", "02:50=71"),
    ("SIN", "B78X", "21:55=472 09:50=474"),
    ("HKG", "B78X", "01:50=834"),
    ("BLR", "B78X", "09:55=218"),
    ("JFK", "B77W", "09:15=101"),
    ("ORD", "B77W", "10:05=151"),
    ("IAD", "B77W", "09:40=131"),
    ("MNL", "B77W", "21:25=424"),
    ("JNB", "B77W", "09:05=605"),
    ("SYD", "A35K", "21:40=454"),
    ("MEL", "A35K", "22:10=462"),
    ("ICN", "A35K", "22:20=822"),
    ("CDG", "A35K", "14:55=33"),
)

# Operational spares held at the hub per type (no scheduled flying), part of the recovery toolkit.
SPARES_PER_TYPE: dict[str, int] = {"A320": 1, "A321": 1, "B789": 2, "B78X": 1, "B77W": 1, "A35K": 0}

# Runways of airports the demo situations exercise, and of the hub: (designator, heading °, length m).
RUNWAYS: dict[str, tuple[tuple[str, int, int], ...]] = {
    "AUH": (("13L/31R", 130, 4100), ("13R/31L", 130, 4100)),
    "LHR": (("09L/27R", 90, 3902), ("09R/27L", 90, 3660)),
    "LGW": (("08R/26L", 80, 3316),),
    "STN": (("04/22", 40, 3048),),
    "MAN": (("05L/23R", 50, 3048), ("05R/23L", 50, 3050)),
    "BHX": (("15/33", 150, 3052),),
    "FRA": (("07C/25C", 70, 4000), ("07L/25R", 70, 2800), ("18", 180, 4000)),
    "CDG": (("08L/26R", 85, 4215), ("09R/27L", 90, 4200)),
    "AMS": (("18R/36L", 180, 3800), ("06/24", 60, 3500)),
    "BRU": (("07L/25R", 70, 3638),),
    "JFK": (("04L/22R", 40, 3682), ("13R/31L", 130, 4423)),
}

# Airports that appear only as diversion alternates (they get profiles and weather).
ALTERNATES: tuple[str, ...] = ("LGW", "STN", "BHX", "BRU", "EWR", "PHL")


@dataclass(frozen=True)
class Frequency:
    destination: str
    aircraft_type: str
    local_departure: str  # HH:MM at the hub
    outbound_number: int
    inbound_number: int


def frequencies(scale: int = 1) -> list[Frequency]:
    """Every daily outbound frequency with its flight numbers (return = outbound + 1).

    Unpinned frequencies take odd numbers from 301 upward in table order; `scale` k adds k-1 copies of
    the network shifted by 40 minutes each, numbered +2000 per copy (a larger airline for load runs).
    """
    pins = [int(tok.split("=")[1]) for _, _, times in ROUTES for tok in times.split() if "=" in tok]
    taken = set(pins) | {p + 1 for p in pins}
    result: list[Frequency] = []
    next_number = 301
    for dest, type_code, times in ROUTES:
        for token in times.split():
            hhmm, _, pin = token.partition("=")
            if pin:
                number = int(pin)
            else:
                while next_number in taken or next_number + 1 in taken:
                    next_number += 2
                number, next_number = next_number, next_number + 2
            result.append(Frequency(dest, type_code, hhmm, number, number + 1))
    base = list(result)
    for copy in range(1, scale):
        for f in base:
            h, m = map(int, f.local_departure.split(":"))
            shifted = (h * 60 + m + 40 * copy) % (24 * 60)
            result.append(
                Frequency(
                    f.destination,
                    f.aircraft_type,
                    f"{shifted // 60:02d}:{shifted % 60:02d}",
                    f.outbound_number + 2000 * copy,
                    f.inbound_number + 2000 * copy,
                )
            )
    return result
