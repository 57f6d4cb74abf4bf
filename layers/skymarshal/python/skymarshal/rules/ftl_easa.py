"""EASA flight time limitations, Regulation (EU) No 965/2012 Annex III Subpart FTL: the maximum daily FDP.

One function per clause:
- ``basic_fdp_minutes``            ORO.FTL.205(b)(1)  acclimatised crew, table below, every cell as data
- ``unknown_acclimatisation_fdp_minutes``  ORO.FTL.205(b)(2)  unknown state of acclimatisation (verify)
- ``augmented_fdp_minutes``        CS FTL.1.205(c)    in-flight rest, 1 or 2 extra pilots (verify)
- ``planned_extension_minutes``    ORO.FTL.205(d)     planned extension, only when passed explicitly
- ``commanders_discretion_limit``  ORO.FTL.205(f)     commander's discretion, only when passed explicitly
- ``max_fdp_minutes``              combines them and names the clauses used.
Cumulative limits (ORO.FTL.210) and rest (ORO.FTL.235) are in ``ftl_easa_limits``.
"""

from __future__ import annotations

from datetime import time
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ._clock import fmt_hm, hm, in_band, minute_of_day

Acclimatisation = Literal["acclimatised", "unknown"]

# ORO.FTL.205(b)(1), Table 2 — maximum daily FDP, acclimatised crew members, without extensions.
# Start of FDP at reference time (inclusive band) → limits for 1–2, 3, 4, 5, 6, 7, 8, 9, 10 sectors.
FDP_SECTOR_COLUMNS: tuple[str, ...] = ("1-2", "3", "4", "5", "6", "7", "8", "9", "10")
FDP_TABLE_ORO_FTL_205_B1: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("06:00", "13:29", ("13:00", "12:30", "12:00", "11:30", "11:00", "10:30", "10:00", "9:30", "9:00")),
    ("13:30", "13:59", ("12:45", "12:15", "11:45", "11:15", "10:45", "10:15", "9:45", "9:15", "9:00")),
    ("14:00", "14:29", ("12:30", "12:00", "11:30", "11:00", "10:30", "10:00", "9:30", "9:00", "9:00")),
    ("14:30", "14:59", ("12:15", "11:45", "11:15", "10:45", "10:15", "9:45", "9:15", "9:00", "9:00")),
    ("15:00", "15:29", ("12:00", "11:30", "11:00", "10:30", "10:00", "9:30", "9:00", "9:00", "9:00")),
    ("15:30", "15:59", ("11:45", "11:15", "10:45", "10:15", "9:45", "9:15", "9:00", "9:00", "9:00")),
    ("16:00", "16:29", ("11:30", "11:00", "10:30", "10:00", "9:30", "9:00", "9:00", "9:00", "9:00")),
    ("16:30", "16:59", ("11:15", "10:45", "10:15", "9:45", "9:15", "9:00", "9:00", "9:00", "9:00")),
    ("17:00", "04:59", ("11:00", "10:30", "10:00", "9:30", "9:00", "9:00", "9:00", "9:00", "9:00")),
    ("05:00", "05:14", ("12:00", "11:30", "11:00", "10:30", "10:00", "9:30", "9:00", "9:00", "9:00")),
    ("05:15", "05:29", ("12:15", "11:45", "11:15", "10:45", "10:15", "9:45", "9:15", "9:00", "9:00")),
    ("05:30", "05:44", ("12:30", "12:00", "11:30", "11:00", "10:30", "10:00", "9:30", "9:00", "9:00")),
    ("05:45", "05:59", ("12:45", "12:15", "11:45", "11:15", "10:45", "10:15", "9:45", "9:15", "9:00")),
)
# The table stops at 10 sectors. Beyond it we keep the table's floor, 9:00 (the pattern "−30 min per
# sector beyond two, never below 9:00" already reaches 9:00 at 10 sectors in every band). Configurable.
SECTORS_ABOVE_TABLE_FDP = "9:00"

# ORO.FTL.205(b)(2), Table 3 — unknown state of acclimatisation (verify): 1–2, 3, 4, 5, 6+ sectors.
# REFERENCE.md cites (b)(3); (b)(3) is the variant for operators with an FRM — (b)(2) is the plain table.
UNKNOWN_ACCLIMATISATION_FDP: tuple[str, ...] = ("11:00", "10:30", "10:00", "9:30", "9:00")

# CS FTL.1.205(c) — FDP with in-flight rest (verify): (extra pilots, rest facility class) → max FDP.
# Applies whatever the start time and acclimatisation state. The CS also requires each crew member to get
# an in-flight rest period of a minimum length; that is an operational input, not checked here.
AUGMENTED_FDP_CS_FTL_1_205_C: dict[tuple[int, int], str] = {
    (1, 1): "16:00",
    (1, 2): "15:00",
    (1, 3): "14:00",
    (2, 1): "17:00",
    (2, 2): "16:00",
    (2, 3): "15:00",
}


class EasaFtlConfig(BaseModel):
    """The (verify) numbers of Subpart FTL as settings; defaults are REFERENCE.md's."""

    model_config = ConfigDict(frozen=True)

    sectors_above_table_fdp: str = SECTORS_ABOVE_TABLE_FDP
    unknown_acclimatisation_fdp: tuple[str, ...] = UNKNOWN_ACCLIMATISATION_FDP
    augmented_fdp: dict[tuple[int, int], str] = Field(default_factory=lambda: dict(AUGMENTED_FDP_CS_FTL_1_205_C))
    # ORO.FTL.205(d): +1 h at most, at most twice in 7 consecutive days, and (verify) not for an FDP
    # starting in the band below with more than the given number of sectors. NB: CS FTL.1.205(b) has its
    # own, stricter extension table (e.g. nothing starting 19:00–06:14); this simplified rule is REFERENCE.md's.
    extension_max_minutes: int = 60
    extension_max_per_7_days: int = 2
    extension_restricted_band: tuple[str, str] = ("19:00", "04:59")
    extension_restricted_above_sectors: int = 2
    # ORO.FTL.205(f): commander's discretion, counted from the basic FDP (GM1 ORO.FTL.205(f)(1)(i)), so a
    # planned extension already used eats into it.
    discretion_max_minutes: int = 120
    discretion_max_minutes_augmented: int = 180


DEFAULT_EASA = EasaFtlConfig()


class PlannedExtension(BaseModel):
    """A planned ORO.FTL.205(d) extension the roster declares. Never assumed: the caller passes it."""

    model_config = ConfigDict(frozen=True)

    minutes: int = Field(default=60, ge=1)
    extensions_in_previous_7_days: int = Field(default=0, ge=0)  # extensions already used in the 7 days


class FdpLimit(BaseModel):
    """The maximum FDP and how it was reached."""

    model_config = ConfigDict(frozen=True)

    minutes: int
    clause: str  # every clause applied, joined with " + "
    table_minutes: int  # from the table (basic, unknown-acclimatisation or augmented) before additions
    extension_minutes: int = 0
    discretion_minutes: int = 0
    band: str | None = None  # start band used, e.g. "17:00-04:59"
    sectors_column: str | None = None
    notes: tuple[str, ...] = ()  # typed reasons: what was refused or assumed, in sentences

    @property
    def hours(self) -> str:
        return fmt_hm(self.minutes)


def _column(sectors: int) -> int | None:
    """Index into FDP_SECTOR_COLUMNS, or None beyond 10 sectors."""
    if sectors < 1:
        raise ValueError("sectors must be at least 1")
    if sectors <= 2:
        return 0
    return sectors - 2 if sectors <= 10 else None


def start_band(reference_start: time) -> tuple[str, str]:
    """The ORO.FTL.205(b)(1) start band containing ``reference_start`` (local reference time)."""
    minute = minute_of_day(reference_start)
    for first, last, _ in FDP_TABLE_ORO_FTL_205_B1:
        if in_band(minute, hm(first), hm(last)):
            return first, last
    raise AssertionError("the bands of ORO.FTL.205(b)(1) cover the whole day")


def basic_fdp_minutes(reference_start: time, sectors: int, config: EasaFtlConfig = DEFAULT_EASA) -> int:
    """ORO.FTL.205(b)(1): maximum daily FDP for acclimatised crew, by start at reference time and sectors.

    More than 10 sectors: the table has no column; ``config.sectors_above_table_fdp`` (9:00) is used.
    """
    column = _column(sectors)
    if column is None:
        return hm(config.sectors_above_table_fdp)
    first, _ = start_band(reference_start)
    row = next(cells for band_first, _, cells in FDP_TABLE_ORO_FTL_205_B1 if band_first == first)
    return hm(row[column])


def unknown_acclimatisation_fdp_minutes(sectors: int, config: EasaFtlConfig = DEFAULT_EASA) -> int:
    """ORO.FTL.205(b)(2): crew in an unknown state of acclimatisation (start time does not matter)."""
    if sectors < 1:
        raise ValueError("sectors must be at least 1")
    cells = config.unknown_acclimatisation_fdp
    return hm(cells[min(max(sectors - 2, 0), len(cells) - 1)])


def augmented_fdp_minutes(extra_pilots: int, rest_facility_class: int, config: EasaFtlConfig = DEFAULT_EASA) -> int:
    """CS FTL.1.205(c): maximum FDP with in-flight rest for 1 or 2 additional pilots and rest class 1/2/3."""
    key = (extra_pilots, rest_facility_class)
    if key not in config.augmented_fdp:
        raise ValueError(
            f"no CS FTL.1.205(c) limit for {extra_pilots} extra pilot(s), rest facility class "
            f"{rest_facility_class}: expected 1–2 extra pilots and class 1, 2 or 3"
        )
    return hm(config.augmented_fdp[key])


def planned_extension_minutes(
    reference_start: time, sectors: int, extension: PlannedExtension, config: EasaFtlConfig = DEFAULT_EASA
) -> tuple[int, str | None]:
    """ORO.FTL.205(d): the extension granted (minutes) and, if refused or cut, the reason.

    Refused when already used ``extension_max_per_7_days`` times in 7 days, or when the FDP starts in the
    restricted band with more than the allowed sectors. Cut to ``extension_max_minutes``. The longer rest
    it requires (pre- and post-flight +2 h each, or post-flight +4 h) is the roster's job; it is noted.
    """
    if extension.extensions_in_previous_7_days >= config.extension_max_per_7_days:
        return 0, (
            f"planned extension refused: already used {extension.extensions_in_previous_7_days} times in "
            f"7 consecutive days (max {config.extension_max_per_7_days}, ORO.FTL.205(d))"
        )
    first, last = config.extension_restricted_band
    if (
        in_band(minute_of_day(reference_start), hm(first), hm(last))
        and sectors > config.extension_restricted_above_sectors
    ):
        return 0, (
            f"planned extension refused: FDP starts {reference_start:%H:%M} (within {first}-{last}) with "
            f"{sectors} sectors (more than {config.extension_restricted_above_sectors}, ORO.FTL.205(d))"
        )
    if extension.minutes > config.extension_max_minutes:
        return config.extension_max_minutes, (
            f"planned extension cut from {extension.minutes} to {config.extension_max_minutes} min (ORO.FTL.205(d))"
        )
    return extension.minutes, None


def commanders_discretion_limit(augmented: bool, config: EasaFtlConfig = DEFAULT_EASA) -> int:
    """ORO.FTL.205(f): most the commander may add above the basic maximum FDP (2 h, 3 h augmented)."""
    return config.discretion_max_minutes_augmented if augmented else config.discretion_max_minutes


def max_fdp_minutes(
    reference_start: time,
    sectors: int,
    acclimatisation: Acclimatisation = "acclimatised",
    augmentation: tuple[int, int] | None = None,
    extension: PlannedExtension | None = None,
    commanders_discretion_minutes: int = 0,
    config: EasaFtlConfig = DEFAULT_EASA,
) -> FdpLimit:
    """Maximum daily FDP, naming every clause applied.

    ``reference_start``: report time in local time where the crew is acclimatised. ``augmentation``:
    (extra pilots, rest facility class). ``extension`` and ``commanders_discretion_minutes`` are never
    applied unless passed; discretion is for unforeseen circumstances after reporting.
    """
    if commanders_discretion_minutes < 0:
        raise ValueError("commander's discretion cannot be negative")
    notes: list[str] = []
    band: str | None = None
    column = _column(sectors)
    column_name = FDP_SECTOR_COLUMNS[column] if column is not None else f"{sectors} (>10)"
    if augmentation is not None and augmentation[0] > 0:
        table = augmented_fdp_minutes(*augmentation, config=config)
        clauses = ["CS FTL.1.205(c)"]
    elif acclimatisation == "unknown":
        table = unknown_acclimatisation_fdp_minutes(sectors, config)
        clauses = ["ORO.FTL.205(b)(2)"]
    else:
        table = basic_fdp_minutes(reference_start, sectors, config)
        clauses = ["ORO.FTL.205(b)(1)"]
        first, last = start_band(reference_start)
        band = f"{first}-{last}"
        if column is None:
            notes.append(f"{sectors} sectors is beyond the table's 10; the 9:00 floor is applied")

    extension_minutes = 0
    if extension is not None:
        if augmentation is not None and augmentation[0] > 0:
            notes.append("planned extension refused: ORO.FTL.205(d) is for FDPs without in-flight rest")
        elif acclimatisation != "acclimatised":
            notes.append("planned extension refused: applied here to acclimatised crew only (verify)")
        else:
            extension_minutes, why = planned_extension_minutes(reference_start, sectors, extension, config)
            if why:
                notes.append(why)
            if extension_minutes:
                clauses.append("ORO.FTL.205(d)")
                notes.append("planned extension: pre- and post-flight rest +2 h each, or post-flight rest +4 h")

    discretion = 0
    if commanders_discretion_minutes:
        cap = commanders_discretion_limit(augmentation is not None and augmentation[0] > 0, config)
        discretion = max(0, min(commanders_discretion_minutes, cap - extension_minutes))
        if discretion < commanders_discretion_minutes:
            notes.append(
                f"commander's discretion limited to {discretion} min: at most {cap} min above the "
                f"basic FDP, extension included (ORO.FTL.205(f), GM1 ORO.FTL.205(f)(1)(i))"
            )
        if discretion:
            clauses.append("ORO.FTL.205(f)")

    return FdpLimit(
        minutes=table + extension_minutes + discretion,
        clause=" + ".join(clauses),
        table_minutes=table,
        extension_minutes=extension_minutes,
        discretion_minutes=discretion,
        band=band,
        sectors_column=column_name,
        notes=tuple(notes),
    )
