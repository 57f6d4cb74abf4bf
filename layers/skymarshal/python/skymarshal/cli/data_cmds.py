"""`skymarshal data generate | import | export | import-ssim | export-ssim | check`: the synthetic airline, or an airline's own data, and
whether every aircraft can still fly its rotation in sequence."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import ValidationError

from ..data.schema import Naming
from ..local import control
from .common import iso_date, print_json


def register(commands) -> None:
    data = commands.add_parser("data", help="generate, import or export operational data (JSON Lines)")
    actions = data.add_subparsers(dest="action", required=True, parser_class=type(data))

    gen = actions.add_parser("generate", help="write the synthetic airline as one <table>.jsonl per table")
    gen.add_argument("--out", type=Path, required=True)
    gen.add_argument("--seed", type=int, default=2027)
    gen.add_argument("--start", type=iso_date, default=None, help="first day, YYYY-MM-DD (default 2027-01-17)")
    gen.add_argument("--days", type=int, default=7)
    gen.add_argument("--scale", type=int, default=1, help="network copies, 1-4")
    gen.add_argument("--load-factor", type=float, default=0.78, help="mean seat load factor, 0.05-1 (passengers)")
    gen.set_defaults(run=_generate)

    for name, helptext, run in (
        ("import", "validate and upsert a folder of <table>.jsonl files", _import),
        ("export", "write every operational table as <table>.jsonl", _export),
    ):
        cmd = actions.add_parser(name, help=helptext)
        cmd.add_argument("folder", type=Path)
        target = cmd.add_mutually_exclusive_group()
        target.add_argument("--endpoint", help="DynamoDB endpoint URL (default: the running local AWS)")
        target.add_argument("--aws", action="store_true", help="the deployed tables, with your AWS credentials")
        cmd.add_argument("--table-prefix", default=os.environ.get("SKYMARSHAL_TABLE_PREFIX", ""))
        if name == "export":
            cmd.add_argument("--bucket", help="S3 bucket for the export (in AWS: the stack's artifact bucket)")
        cmd.set_defaults(run=run)

    ssim_in = actions.add_parser(
        "import-ssim", help="validate and upsert an IATA SSIM Chapter 7 schedule (record types 1-5) as flights"
    )
    ssim_in.add_argument("file", type=Path)
    ssim_in.add_argument("--tails", type=Path, help="tail file, flight_id,registration (default: FILE.tails.csv)")
    ssim_in.add_argument("--from", dest="start", type=iso_date, help="first local flight date to import, YYYY-MM-DD")
    ssim_in.add_argument("--to", dest="end", type=iso_date, help="last local flight date to import, YYYY-MM-DD")
    ssim_in.add_argument(
        "--quarantine",
        action="store_true",
        help="park a bad flight leg with its reason (listed by `skymarshal quarantine`) and import the rest",
    )
    target = ssim_in.add_mutually_exclusive_group()
    target.add_argument("--endpoint", help="DynamoDB endpoint URL (default: the running local AWS)")
    target.add_argument("--aws", action="store_true", help="the deployed tables, with your AWS credentials")
    ssim_in.add_argument("--table-prefix", default=os.environ.get("SKYMARSHAL_TABLE_PREFIX", ""))
    ssim_in.set_defaults(run=_import_ssim)

    ssim_out = actions.add_parser(
        "export-ssim", help="write the synthetic airline's schedule as SSIM Chapter 7 (and FILE.tails.csv)"
    )
    ssim_out.add_argument("file", type=Path)
    ssim_out.add_argument("--seed", type=int, default=2027)
    ssim_out.add_argument("--start", type=iso_date, default=None, help="first day, YYYY-MM-DD (default 2027-01-17)")
    ssim_out.add_argument("--days", type=int, default=7)
    ssim_out.add_argument("--scale", type=int, default=1, help="network copies, 1-4")
    ssim_out.set_defaults(run=_export_ssim)

    check = actions.add_parser(
        "check", help="every tail's rotation in sequence and AircraftAvailability where the flights leave it"
    )
    target = check.add_mutually_exclusive_group()
    target.add_argument("--endpoint", help="DynamoDB endpoint URL (default: the running local AWS)")
    target.add_argument("--aws", action="store_true", help="the deployed tables, with your AWS credentials")
    check.add_argument("--table-prefix", default=os.environ.get("SKYMARSHAL_TABLE_PREFIX", ""))
    check.add_argument("--json", action="store_true", help="every break as JSON")
    check.set_defaults(run=_check)


def generator_config(args, **extra):
    """The generator's settings from the command's flags; a bad one is one line naming it."""
    from ..data.generator import GeneratorConfig
    from .common import CliError

    settings = {"seed": args.seed, "days": args.days, "scale": args.scale, **extra}
    if args.start:
        settings["start"] = args.start
    try:
        return GeneratorConfig(**settings)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise CliError(f"invalid {first['loc'][0]}: {first['msg']}") from None


def _generate(args) -> int:
    from ..data.generator import generate
    from ..data.transfer import write_generated

    config = generator_config(args, load_factor=args.load_factor)
    airline = generate(config)
    counts = write_generated(args.out, airline.tables)
    print_json({"folder": str(args.out), "rows": counts, "config": config.model_dump(mode="json")})
    return 0


class _Target:
    def __init__(self, args):
        from ..local.emulator import BUCKET, REGION, use_fake_credentials
        from .common import CliError

        self.naming = Naming(prefix=args.table_prefix)
        self.region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or REGION
        self.bucket = getattr(args, "bucket", None)
        if args.aws:
            self.endpoint = None
            if getattr(args, "action", "") == "export" and not self.bucket:
                raise CliError("--bucket is required with --aws: pass the stack's artifact bucket name")
            return
        if args.endpoint:
            self.endpoint = args.endpoint
        else:
            state = control.running()
            if state is None:
                raise CliError(
                    "no local AWS running: start it with `skymarshal local start`, or pass --endpoint URL or --aws"
                )
            self.endpoint = state.endpoint
        use_fake_credentials()
        self.region, self.bucket = REGION, self.bucket or BUCKET

    def resource(self):
        import boto3

        return boto3.resource("dynamodb", endpoint_url=self.endpoint, region_name=self.region)

    def client(self, service: str):
        import boto3

        return boto3.client(service, endpoint_url=self.endpoint, region_name=self.region)


def _import(args) -> int:
    from ..data.import_write import ImportFailed
    from ..data.transfer import import_folder
    from .common import CliError

    target = _Target(args)
    try:
        report = import_folder(args.folder, target.resource(), target.naming)
    except ImportFailed as exc:
        raise CliError(f"nothing imported: {exc}") from None
    if not report.ok:
        for problem in report.errors:
            print(problem)
        raise CliError(f"nothing imported: {len(report.errors)} problem(s) in {args.folder}")
    print_json({"imported": report.written})
    return 0


def _import_ssim(args) -> int:
    from ..data.import_write import ImportFailed
    from ..data.ssim_import import import_ssim, tails_path
    from .common import CliError

    if args.start and args.end and args.end < args.start:
        raise CliError(f"--to {args.end} is before --from {args.start}")
    target = _Target(args)
    tails = args.tails or tails_path(args.file)
    try:
        report = import_ssim(
            args.file,
            target.resource(),
            target.naming,
            tails_path=tails if args.tails or tails.exists() else None,
            start=args.start,
            end=args.end,
            park_in=quarantine_folder() if args.quarantine else None,
        )
    except ImportFailed as exc:
        raise CliError(f"nothing imported: {exc}") from None
    except OSError as exc:
        raise CliError(f"nothing imported: {exc.filename}: {exc.strerror}") from None
    if not report.ok:
        say_problems(report.errors)
        raise CliError(f"nothing imported: {len(report.errors)} problem(s) in {args.file}")
    print_json({"imported": report.written, "parked": [f"line {p.line}: {p.reason}" for p in report.parked]})
    return 0


def quarantine_folder() -> Path:
    """Where parked records are kept locally (listed by `skymarshal quarantine`)."""
    return control.home() / "quarantine"


_SHOWN = 50  # refusal lines printed; the count says how many more


def say_problems(problems: list[str]) -> None:
    """A refused file's problems, one line each (the first `_SHOWN`, then how many more)."""
    for problem in problems[:_SHOWN]:
        print(problem)
    if len(problems) > _SHOWN:
        print(f"... and {len(problems) - _SHOWN} more")


def _export_ssim(args) -> int:
    from datetime import date

    from ..data.generator import generate
    from ..data.schema import FLIGHTS
    from ..data.ssim_import import tails_path
    from ..data.ssim_schedule import ssim_from_flights
    from ..models.operational import Flight

    flights = [f for f in generate(generator_config(args)).tables[FLIGHTS] if isinstance(f, Flight)]
    schedule, tails = ssim_from_flights(flights, created=date.today())
    args.file.write_text(schedule, encoding="ascii")
    tails_path(args.file).write_text(tails, encoding="ascii")
    print_json(
        {
            "file": str(args.file),
            "tails": str(tails_path(args.file)),
            "flights": len(flights),
            "records": schedule.count("\n"),
        }
    )
    return 0


def _export(args) -> int:
    from ..data.transfer import export_folder

    target = _Target(args)
    counts = export_folder(args.folder, target.client("dynamodb"), target.client("s3"), target.bucket, target.naming)
    print_json({"folder": str(args.folder), "rows": counts})
    return 0


def _check(args) -> int:
    """Exit 1 when a rotation or an availability row is broken; flights still planned on a grounded aircraft are
    listed (a disruption waiting for a decision) but do not fail the check."""
    from ..data.access import DataHandle
    from ..data.integrity import check_operation

    if args.endpoint or args.aws or args.table_prefix:  # a named endpoint, AWS, or one prefix's tables
        target = _Target(args)
        result = check_operation(DataHandle(naming=target.naming, resource=target.resource()))
    else:
        with control.account() as account:  # the running local AWS
            result = check_operation(account.handle())
    if args.json:
        print_json(
            {
                "summary": result.summary(),
                "breaks": [b.model_dump(mode="json") for b in result.breaks],
                "crew": [b.model_dump(mode="json") for b in result.crew],
            }
        )
    else:
        print(result.summary())
        for b in result.breaks:
            print(f"{'BROKEN' if b.continuity else 'open  '} {b.code}: {b.message}")
        for c in result.crew:
            print(f"BROKEN {c.code}: {c.message}")
    return 0 if result.intact else 1
