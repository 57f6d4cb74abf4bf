"""DisruptionHistory generator tables: yearly counts and seasons per disruption type, the causes and the
arbitrator's likely actions per type, outcome weights per chosen action, and the texts the summaries are made of."""

from __future__ import annotations

HISTORY_DAYS = 365
YEARLY_COUNTS = {"mechanical": 140, "weather": 105, "atc": 90, "crew": 75, "other": 60}
MIN_PER_TYPE = 50
OVERRIDE_RATE = 0.14  # of the cases with an alternative; ~12% of all records
HISTORICAL_LOAD_FACTOR = 0.8  # mean seat load factor of the past year's flights
REFUND_SHARE = 0.35  # of a cancelled flight's fares refunded; the rest rebook
MEAL_USD, HOTEL_USD = 16.0, 145.0  # per passenger: a meal voucher; hotel and transport (company policy)
SEASON = {  # relative frequency by month, January first
    "mechanical": (0.9, 0.9, 1.0, 1.0, 1.1, 1.3, 1.4, 1.4, 1.2, 1.0, 0.9, 0.9),  # summer heat at the hub
    "crew": (1.2, 0.9, 0.9, 1.0, 1.0, 1.2, 1.4, 1.4, 1.0, 0.9, 0.9, 1.3),  # peak flying
    "weather": (3.0, 2.6, 1.5, 0.9, 0.8, 1.0, 1.4, 1.5, 1.1, 1.0, 1.5, 2.7),  # winter fog and storms
    "atc": (0.8, 0.8, 0.9, 1.0, 1.2, 1.6, 1.9, 1.8, 1.3, 1.0, 0.8, 1.0),  # European summer flow control
    "other": (1.0,) * 12,
}
LEAD = {"mechanical": (20, 150), "crew": (30, 180), "weather": (45, 240), "atc": (20, 120), "other": (10, 90)}
INITIAL = {
    "mechanical": (40, 480, 120),
    "crew": (45, 360, 120),
    "weather": (30, 360, 90),
    "atc": (20, 300, 75),
    "other": (15, 240, 60),
}  # minutes: triangular (low, high, mode)
CANCEL = (100, 0, 0, 0)
OUTCOMES = {  # by chosen action: weights of on_plan, late, failed, not_executed
    "mechanical": {"tail_swap": (81, 12, 4, 3), "delay": (44, 44, 10, 2), "divert": (72, 22, 6, 0), "cancel": CANCEL},
    "crew": {"crew_swap": (85, 11, 3, 1), "delay": (58, 30, 10, 2), "cancel": CANCEL},
    "weather": {"delay": (77, 17, 4, 2), "divert": (62, 28, 8, 2), "cancel": CANCEL},
    "atc": {"delay": (62, 34, 3, 1), "crew_swap": (80, 16, 3, 1), "divert": (72, 24, 4, 0), "cancel": CANCEL},
    "other": {
        "delay": (74, 22, 3, 1),
        "divert": (78, 18, 4, 0),
        "tail_swap": (80, 14, 4, 2),
        "crew_swap": (82, 14, 3, 1),
        "cancel": CANCEL,
    },
}
OUTCOME_NAMES = ("on_plan", "late", "failed", "not_executed")
IN_FLIGHT_DIVERT = ("mechanical", "atc", "other")  # decided airborne: no ground alternative to override with
EUROPE = set(["GB", "IE", "DE", "FR", "NL", "IT", "ES", "CH", "GR", "TR", "AT", "BE"])
NORTH_AMERICA, GULF = {"US", "CA"}, set(["AE", "BH", "KW", "OM", "SA", "QA", "JO", "LB", "EG"])
FOG_SOUTH_ASIA = {"DEL", "LHE", "ISB", "KTM", "DAC", "KHI"}
TYPHOON, COLD_ASIA = set(["HK", "PH", "JP", "CN", "KR", "TW"]), set(["JP", "CN", "KR", "GE", "AZ"])
PRONE = {
    "LHR": 4,
    "MAN": 3,
    "DUB": 3,
    "AMS": 3,
    "FRA": 3,
    "MUC": 3,
    "CDG": 2,
    "ZRH": 2,
    "JFK": 4,
    "BOS": 4,
    "ORD": 4,
    "IAD": 3,
    "YYZ": 4,
    "ICN": 2,
    "NRT": 2,
    "PVG": 2,
    "HKG": 3,
    "MNL": 3,
    "DEL": 3,
    "LHE": 2,
    "KTM": 2,
    "DAC": 2,
}
DIVERSION_AIRPORTS = {
    "AUH": ("DXB", "DWC"),
    "LHR": ("MAN", "BHX", "STN"),
    "MAN": ("BHX", "LHR"),
    "DUB": ("SNN", "MAN"),
    "AMS": ("BRU", "DUS"),
    "FRA": ("CGN", "MUC"),
    "MUC": ("NUE", "FRA"),
    "CDG": ("BRU", "LYS"),
    "ZRH": ("BSL", "MUC"),
    "JFK": ("EWR", "PHL"),
    "BOS": ("BDL", "JFK"),
    "ORD": ("MKE", "DTW"),
    "IAD": ("PHL", "EWR"),
    "YYZ": ("YUL", "DTW"),
    "ICN": ("GMP", "PUS"),
    "NRT": ("HND", "KIX"),
    "PVG": ("HGH", "PEK"),
    "HKG": ("CAN", "TPE"),
    "MNL": ("CRK", "CEB"),
    "DEL": ("JAI", "LKO"),
    "LHE": ("ISB", "ATQ"),
    "ISB": ("LHE", "PEW"),
    "KTM": ("DEL", "BWA"),
    "DAC": ("CGP", "CCU"),
}
MECHANICAL = (
    "a hydraulic pump low-pressure warning",
    "a bleed air leak warning",
    "an inoperative APU",
    "brake wear beyond limits",
    "a cabin pressure controller fault",
    "an oil pressure indication fault",
    "a flap asymmetry warning",
    "a weather radar failure",
    "a damaged cargo door seal",
    "an IDG disconnect",
    "a fuel quantity indication fault",
    "a cracked windshield outer ply",
    "a tyre below minimum tread",
)
IN_FLIGHT_DEFECTS = (
    "an engine oil pressure drop",
    "the loss of one hydraulic system",
    "a cabin pressurisation fault",
    "an engine vibration warning",
    "a smoke warning in the aft cargo hold",
)
CREW = (
    "the operating crew would exceed their maximum FDP after an earlier delay",
    "the captain reported sick",
    "two cabin crew reported sick, leaving the cabin below minimum complement",
    "the inbound crew arrived late from an earlier disruption",
    "a first officer was short of the required rest after a late positioning",
    "a pilot's landing recency had lapsed, found at briefing",
)
OTHER = (  # cause, recommended weights, extraordinary under EU261 Art. 5(3)
    ("a medical emergency on board", {"divert": 80, "delay": 20}, False),
    ("a bird strike on the take-off roll", {"tail_swap": 50, "delay": 40, "cancel": 10}, True),
    ("a disruptive passenger who had to be offloaded", {"delay": 85, "divert": 15}, False),
    ("a security alert at {st}", {"delay": 85, "cancel": 15}, True),
    ("a fuel supply problem at {st}", {"delay": 85, "crew_swap": 15}, False),
    ("a check-in system outage at {st}", {"delay": 100}, False),
    ("a ground handling staff shortage at {st}", {"delay": 88, "crew_swap": 12}, False),
)
ACTION_TEXT = {
    "tail_swap": "tail swap",
    "crew_swap": "crew swap",
    "delay": "delay",
    "divert": "diversion",
    "cancel": "cancellation",
}
LATE_DELAY = {
    "mechanical": "the release estimate slipped",
    "crew": "the crew's rest ran longer than planned",
    "weather": "conditions cleared later than forecast",
    "atc": "the slot was pushed back again",
    "other": "the hold-up lasted longer than estimated",
}
OUTCOME_TEXT = {
    ("tail_swap", "on_plan"): "the swap went to plan, {actual} min late",
    ("tail_swap", "late"): "the swap overran (catering, bags, fuel) and it left {actual} min late",
    ("tail_swap", "failed"): "the spare turned out unserviceable too and it waited for the repair, {actual} min late",
    ("tail_swap", "not_executed"): "the defect was cleared before the swap and it left {actual} min late",
    ("crew_swap", "on_plan"): "the reserve crew reported in time and it left {actual} min late",
    ("crew_swap", "late"): "the reserve crew reported late and it left {actual} min late",
    ("crew_swap", "failed"): "no legal reserve could be found and it waited for the crew's rest, {actual} min late",
    ("crew_swap", "not_executed"): "the original crew stayed within limits after all, {actual} min late",
    ("delay", "on_plan"): "it left as re-timed, {actual} min late",
    ("delay", "late"): "{late_reason} and it left {actual} min late",
    ("delay", "failed"): "the delay ran out and the flight was cancelled, passengers arriving {actual} min late",
    ("delay", "not_executed"): "the problem cleared sooner and it left {actual} min late",
    ("divert", "on_plan"): "it diverted to {alt} and reached {dest} {actual} min late",
    ("divert", "late"): "the turnaround at {alt} dragged on and it reached {dest} {actual} min late",
    ("divert", "failed"): "the crew ran out of duty time at {alt} and passengers night-stopped, {actual} min late",
    ("divert", "not_executed"): "conditions improved and it landed at {dest} {actual} min late",
    ("cancel", "on_plan"): "{pax} passengers were re-accommodated, arriving {actual} min late on average",
}
