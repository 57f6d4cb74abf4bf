"""`skymarshal rules …`: the issue's checks, answered from the rules engine; bad arguments exit 2."""

from __future__ import annotations

import json

import pytest

from skymarshal.cli import main


def run(capsys, *args: str) -> tuple[int, dict | str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else err)


@pytest.mark.parametrize(
    "args, minutes, clause",
    [
        (("--start", "06:00", "--sectors", "2"), 780, "ORO.FTL.205(b)(1)"),
        (("--start", "13:29", "--sectors", "1"), 780, "ORO.FTL.205(b)(1)"),
        (("--start", "13:30", "--sectors", "1"), 765, "ORO.FTL.205(b)(1)"),
        (("--start", "04:59", "--sectors", "3"), 630, "ORO.FTL.205(b)(1)"),
        (("--start", "05:00", "--sectors", "3"), 690, "ORO.FTL.205(b)(1)"),
        (("--start", "10:00", "--sectors", "6", "--acclimatised", "unknown"), 540, "ORO.FTL.205(b)(2)"),
        (("--start", "07:00", "--sectors", "1", "--regime", "faa"), 840, "14 CFR 117.13(a) Table B"),
        (("--start", "07:00", "--sectors", "1", "--regime", "faa", "--acclimatised", "no"), 810, "117.13(b)"),
    ],
)
def test_max_fdp(capsys, args, minutes, clause):
    code, result = run(capsys, "rules", "max-fdp", *args)
    assert code == 0 and result["max_fdp_minutes"] == minutes and clause in result["clause"]


@pytest.mark.parametrize(
    "args, regime, amount, currency",
    [
        (("--from", "AUH", "--to", "LHR", "--carrier", "EY", "--arrival-delay-min", "300"), None, 0, None),
        (("--from", "LHR", "--to", "AUH", "--carrier", "EY", "--arrival-delay-min", "200"), "UK261", 520, "GBP"),
        (
            ("--from", "FRA", "--to", "AUH", "--carrier", "EY", "--arrival-delay-min", "200", "--cause", "technical"),
            "EU261",
            600,
            "EUR",
        ),
        (
            ("--from", "FRA", "--to", "AUH", "--carrier", "EY", "--arrival-delay-min", "200", "--cause", "weather"),
            "EU261",
            0,
            "EUR",
        ),
        (("--from", "FRA", "--to", "AUH", "--carrier", "EY", "--arrival-delay-min", "150"), "EU261", 0, "EUR"),
        (("--from", "CDG", "--to", "FRA", "--carrier", "LH", "--cancelled"), "EU261", 250, "EUR"),
    ],
)
def test_eu261(capsys, args, regime, amount, currency):
    code, result = run(capsys, "rules", "eu261", *args)
    assert code == 0 and (result["regime"], result["amount"], result["currency"]) == (regime, amount, currency)
    assert result["reason"]


@pytest.mark.parametrize(
    "args, needle",
    [
        (("max-fdp", "--start", "6am", "--sectors", "2"), "invalid time '6am'"),
        (("max-fdp", "--start", "06:00", "--sectors", "0"), "invalid count '0'"),
        (("max-fdp", "--start", "06:00", "--sectors", "2", "--regime", "caa"), "invalid choice: 'caa'"),
        (("eu261", "--from", "LONDON", "--to", "AUH", "--carrier", "EY"), "invalid airport 'LONDON'"),
        (("eu261", "--from", "LHR", "--to", "AUH", "--carrier", "EY", "--arrival-delay-min", "-5"), "invalid minutes"),
        (("crew-legality", "--flight", "EY101", "--date", "21/01/2027"), "invalid date"),
        (("mel", "--registration", "A6-BLA", "--at", "yesterday"), "invalid time 'yesterday'"),
    ],
)
def test_invalid_arguments_exit_2_with_one_line(capsys, args, needle):
    with pytest.raises(SystemExit) as exit_:
        main(["rules", *args])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and len(err.strip().splitlines()) == 1 and needle in err


def test_crew_legality_of_the_delayed_ey101_and_an_unknown_flight(capsys, local, airline):
    situation = airline.situations[1]
    code, result = run(capsys, "rules", "crew-legality", "--flight", "EY101", "--date", str(situation.flight_date))
    assert code == 0 and result["delay_minutes"] == 255
    assert result["crew"] and not any(member["legal"] for member in result["crew"])
    code, result = run(
        capsys, "rules", "crew-legality", "--flight", "EY101", "--date", str(situation.flight_date), "--delay-min", "0"
    )
    assert code == 0 and all(member["legal"] for member in result["crew"])
    code, err = run(capsys, "rules", "crew-legality", "--flight", "EY999", "--date", "2027-01-21")
    assert code == 1 and "no flight EY999 on 2027-01-21" in err


def test_mel_finds_the_hydraulic_aog_and_the_expired_spare(capsys, local, airline):
    from skymarshal.data import schema as s

    situation = airline.situations[0]
    flight = next(
        f
        for f in airline.tables[s.FLIGHTS]
        if f.flight_number == situation.flight_number and f.flight_date == situation.flight_date
    )
    code, result = run(
        capsys,
        "rules",
        "mel",
        "--registration",
        flight.aircraft_registration,
        "--at",
        flight.scheduled_departure.isoformat(),
    )
    assert code == 0 and result["airworthy"] is False
    spares = [
        a
        for a in airline.tables[s.AIRCRAFT_AVAILABILITY]
        if a.status == "SPARE" and a.aircraft_type == flight.aircraft_type and a.date == situation.flight_date
    ]
    verdicts = []
    for spare in spares:
        code, result = run(
            capsys,
            "rules",
            "mel",
            "--registration",
            spare.aircraft_registration,
            "--at",
            flight.scheduled_departure.isoformat(),
        )
        verdicts.append(result["airworthy"])
    assert sorted(verdicts) == [False, True]  # the other spare's category B item has expired
    code, err = run(capsys, "rules", "mel", "--registration", "A6-ZZZ", "--at", "2027-01-20T00:00:00Z")
    assert code == 1 and "unknown aircraft A6-ZZZ" in err
