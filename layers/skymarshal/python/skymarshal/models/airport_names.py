"""English names of places the airport reference (`airportsdata`) spells in the local language or qualifies
("Napoli", "Torino", "Arnavutköy, Istanbul", "Kerkyra Island"), so a report written in English finds them: the
reference's own names stay, these are added beside them. Data only; `airports.codes_of_place` indexes both.
"""

from __future__ import annotations

ENGLISH_NAMES: dict[str, tuple[str, ...]] = {
    "BEG": ("Belgrade",),
    "BSL": ("Basel",),
    "BSR": ("Basra",),
    "CCJ": ("Kozhikode",),
    "CFU": ("Corfu",),
    "CIA": ("Rome",),
    "COK": ("Kochi",),
    "DEL": ("Delhi",),
    "DMM": ("Dammam",),
    "EBL": ("Erbil",),
    "FLR": ("Florence",),
    "GDN": ("Gdansk",),
    "GOA": ("Genoa",),
    "GOI": ("Goa",),
    "HAJ": ("Hanover",),
    "IEV": ("Kiev",),
    "KBP": ("Kiev",),
    "KRK": ("Krakow", "Cracow"),
    "LED": ("Saint Petersburg", "St Petersburg"),
    "MLA": ("Malta",),
    "MRU": ("Mauritius",),
    "NAG": ("Nagpur",),
    "NAP": ("Naples",),
    "NQZ": ("Nur-Sultan",),
    "ODS": ("Odessa",),
    "POZ": ("Poznan",),
    "RHO": ("Rhodes",),
    "RUN": ("Reunion", "Saint-Denis"),
    "SEZ": ("Seychelles", "Mahe"),
    "SVQ": ("Seville",),
    "TRN": ("Turin",),
    "TRV": ("Thiruvananthapuram",),
    "VCE": ("Venice",),
    "WRO": ("Wroclaw",),
    "ZNZ": ("Zanzibar",),
}
