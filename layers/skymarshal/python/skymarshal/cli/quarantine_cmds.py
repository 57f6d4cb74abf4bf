"""`skymarshal quarantine`: the inbound records set aside with their reasons (an SSIM leg an import could not take)."""

from __future__ import annotations

from .common import print_json


def register(commands) -> None:
    cmd = commands.add_parser("quarantine", help="list the inbound records parked with their reasons")
    cmd.add_argument("--json", action="store_true", help="every parked record as JSON")
    cmd.set_defaults(run=_list)


def _list(args) -> int:
    from ..data.quarantine import parked
    from .data_cmds import quarantine_folder

    records = parked(quarantine_folder())
    if args.json:
        print_json([r.model_dump(mode="json") for r in records])
        return 0
    if not records:
        print("nothing parked")
    for r in records:
        print(f"{r.parked_at:%Y-%m-%d %H:%MZ} {r.source} {r.file} line {r.line}: {r.reason}")
    return 0
