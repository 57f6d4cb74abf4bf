"""Scope of Regulation (EC) No 261/2004 (EU261) and its retained UK version (UK261): Art. 3(1).

EU261 applies to a flight departing an airport in the EU (any carrier), and to a flight from a third country
into the EU operated by a Community (EU) carrier. UK261 is the same for the UK: departing a UK airport (any
carrier); arriving in the UK on a UK or EU carrier; arriving in the EU from a third country on a UK carrier
(CAA guidance, verify). When both could apply (e.g. an EU departure into the UK on a UK carrier), the
regime of the departure airport is used: a passenger cannot be compensated twice (Art. 3(1)(b) proviso).

Choices (documented, configurable via ``ScopeConfig``):
- Iceland, Liechtenstein and Norway apply EU261 through the EEA Agreement: their airports are "EU" and
  their carriers Community carriers.
- Switzerland applies EU261 through the EU–Swiss Air Transport Agreement: included by default (``include_switzerland``),
  so ZRH/GVA departures are covered and LX/WK count as Community carriers.
- The EU's outermost regions (Réunion, Guadeloupe, Martinique, French Guiana, Mayotte, Saint-Martin; the
  Canaries, Azores and Madeira already carry ES/PT codes) are EU territory. The Faroe Islands, Greenland and
  the overseas countries and territories (e.g. French Polynesia) are not, nor are Jersey, Guernsey, the
  Isle of Man or Gibraltar for UK261 (verify).
- A carrier missing from ``CARRIERS`` is treated as a non-EU, non-UK carrier and the reason says so.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..models.airports import airport

Regime = Literal["EU261", "UK261"]
Zone = Literal["EU", "UK", "OTHER"]

EU_MEMBER_STATES: frozenset[str] = frozenset(
    [
        "AT",
        "BE",
        "BG",
        "HR",
        "CY",
        "CZ",
        "DK",
        "EE",
        "FI",
        "FR",
        "DE",
        "GR",
        "HU",
        "IE",
        "IT",
        "LV",
        "LT",
        "LU",
        "MT",
        "NL",
        "PL",
        "PT",
        "RO",
        "SK",
        "SI",
        "ES",
        "SE",
    ]
)
EU_OUTERMOST_REGIONS: frozenset[str] = frozenset(["GF", "GP", "MQ", "RE", "YT", "MF"])  # own ISO codes, EU territory
EEA_EFTA_STATES: frozenset[str] = frozenset(["IS", "LI", "NO"])  # EU261 via the EEA Agreement
SWITZERLAND = "CH"  # EU261 via the EU–Swiss Air Transport Agreement
UK = "GB"

# IATA designator → (carrier, state of its operating licence). EU/EEA/CH licence → Community carrier.
CARRIERS: dict[str, tuple[str, str]] = {
    "EY": ("Etihad Airways", "AE"),
    "EK": ("Emirates", "AE"),
    "QR": ("Qatar Airways", "QA"),
    "TK": ("Turkish Airlines", "TR"),
    "SQ": ("Singapore Airlines", "SG"),
    "AA": ("American Airlines", "US"),
    "DL": ("Delta Air Lines", "US"),
    "UA": ("United Airlines", "US"),
    "LH": ("Lufthansa", "DE"),
    "EW": ("Eurowings", "DE"),
    "AF": ("Air France", "FR"),
    "KL": ("KLM Royal Dutch Airlines", "NL"),
    "IB": ("Iberia", "ES"),
    "VY": ("Vueling", "ES"),
    "AZ": ("ITA Airways", "IT"),
    "FR": ("Ryanair", "IE"),
    "EI": ("Aer Lingus", "IE"),
    "SK": ("SAS Scandinavian Airlines", "SE"),
    "OS": ("Austrian Airlines", "AT"),
    "SN": ("Brussels Airlines", "BE"),
    "TP": ("TAP Air Portugal", "PT"),
    "A3": ("Aegean Airlines", "GR"),
    "W6": ("Wizz Air Hungary", "HU"),
    "LO": ("LOT Polish Airlines", "PL"),
    "AY": ("Finnair", "FI"),
    "BT": ("airBaltic", "LV"),
    "EC": ("easyJet Europe", "AT"),
    "DY": ("Norwegian Air Shuttle", "NO"),
    "LX": ("Swiss International Air Lines", "CH"),
    "WK": ("Edelweiss Air", "CH"),
    "BA": ("British Airways", "GB"),
    "VS": ("Virgin Atlantic", "GB"),
    "U2": ("easyJet UK", "GB"),  # easyJet's EU-licensed airline flies as EC
    "LS": ("Jet2.com", "GB"),
    "W9": ("Wizz Air UK", "GB"),
}


class ScopeConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    include_switzerland: bool = True
    uk_carrier_into_eu_is_uk261: bool = True  # CAA guidance (verify)


DEFAULT_SCOPE = ScopeConfig()


def country_zone(country: str, config: ScopeConfig = DEFAULT_SCOPE) -> Zone:
    if country in EU_MEMBER_STATES or country in EU_OUTERMOST_REGIONS or country in EEA_EFTA_STATES:
        return "EU"
    if country == SWITZERLAND and config.include_switzerland:
        return "EU"
    return "UK" if country == UK else "OTHER"


def airport_zone(iata: str, config: ScopeConfig = DEFAULT_SCOPE) -> Zone:
    return country_zone(airport(iata).country, config)


def carrier_zone(carrier: str, config: ScopeConfig = DEFAULT_SCOPE) -> Zone | Literal["UNKNOWN"]:
    """Zone of the carrier's operating licence: EU (Community carrier, incl. EEA/CH), UK, OTHER or UNKNOWN."""
    known = CARRIERS.get(carrier.upper())
    return "UNKNOWN" if known is None else country_zone(known[1], config)


def applicable_regime(
    origin: str, destination: str, carrier: str, config: ScopeConfig = DEFAULT_SCOPE
) -> tuple[Regime | None, str]:
    """Art. 3(1): which regime covers the flight, and a sentence saying why (or why not)."""
    o, d, c = airport_zone(origin, config), airport_zone(destination, config), carrier_zone(carrier, config)
    name = CARRIERS.get(carrier.upper(), (f"carrier {carrier} (not in the carrier table)", ""))[0]
    if o == "EU":
        return "EU261", f"EU261 applies: departure from an EU/EEA airport ({origin}), any carrier (Art. 3(1)(a))"
    if o == "UK":
        return "UK261", f"UK261 applies: departure from a UK airport ({origin}), any carrier (Art. 3(1)(a))"
    if d == "EU" and c == "EU":
        return "EU261", (
            f"EU261 applies: arrival in the EU ({destination}) from a third country on a Community "
            f"carrier, {name} (Art. 3(1)(b))"
        )
    if d == "UK" and c in ("UK", "EU"):
        return "UK261", (
            f"UK261 applies: arrival in the UK ({destination}) from a third country on a UK or EU "
            f"carrier, {name} (Art. 3(1)(b))"
        )
    if d == "EU" and c == "UK" and config.uk_carrier_into_eu_is_uk261:
        return "UK261", (
            f"UK261 applies: arrival in the EU ({destination}) from a third country on a UK carrier, "
            f"{name} (Art. 3(1)(b) as retained)"
        )
    return None, (
        f"Neither EU261 nor UK261 applies: {origin}→{destination} departs outside the EU/UK and "
        f"{name} is not a carrier of the arrival side (Art. 3(1))"
    )


def intra_zone(origin: str, destination: str, config: ScopeConfig = DEFAULT_SCOPE) -> bool:
    """Both airports in the EU (intra-Community) or both in the UK (domestic) — Art. 7(1)(b)."""
    o, d = airport_zone(origin, config), airport_zone(destination, config)
    return o == d and o in ("EU", "UK")
