"""`skymarshal quarantine`: the inbound records set aside with their reasons — an SSIM leg an import could not take
(parked in a local folder) and a movement message a run refused (parked in the running local account's table)."""

from __future__ import annotations

from .common import print_json


def register(commands) -> None:
    cmd = commands.add_parser("quarantine", help="list the inbound records parked with their reasons")
    cmd.add_argument("--json", action="store_true", help="every parked record as JSON")
    cmd.set_defaults(run=_list)


def _list(args) -> int:
    from ..data.quarantine import parked
    from ..local import control
    from .data_cmds import quarantine_folder

    records = parked(quarantine_folder())
    state = control.running()
    if state is not None:  # the account's own quarantine (a feed's messages), when local AWS runs
        from ..workflow.quarantine import parked_items

        with control.account(echo=lambda _: None) as account:
            records = sorted(records + parked_items(tables=account.tables()), key=lambda p: (p.parked_at, p.line))
    if args.json:
        print_json([r.model_dump(mode="json") for r in records])
        return 0
    if not records:
        print("nothing parked")
    for r in records:
        shown = " / ".join(r.record.split())[:80]  # a message's lines on one
        print(f"{r.parked_at:%Y-%m-%d %H:%MZ} {r.source} {r.file} line {r.line}: {r.reason} [{shown}]")
    if state is None:
        print("(local AWS is not running: a feed's parked messages are listed when it is)")
    return 0
