"""`skymarshal serve [--port N]`: the web console and the API on 127.0.0.1, against local AWS."""

from __future__ import annotations

import sys

from ..local import control

DEFAULT_PORT = 8000


def register(commands) -> None:
    cmd = commands.add_parser("serve", help="the duty manager console and API on http://127.0.0.1:PORT (local AWS)")
    cmd.add_argument("--port", type=int, default=DEFAULT_PORT)
    cmd.set_defaults(run=_run)


def build_app(account, echo=print):
    """The console app on an account: its workflow, its development user pool, token verification."""
    from ..api.identity import DevIdentity
    from ..api.server import create_app
    from ..local.pool_key import public_jwks
    from ..local.workflow import local_client

    identity = DevIdentity(account.client("cognito-idp"))
    # the installation's own key (local/pool_key.py), which local AWS signs with: never moto's bundled one
    verifier = identity.verifier(public_jwks())
    return create_app(client=local_client(account, echo=echo), verifier=verifier, identity=identity)


def _run(args) -> int:
    import uvicorn

    echo = lambda m: print(m, file=sys.stderr)  # noqa: E731
    with control.account(echo=echo) as account:
        app = build_app(account, echo=echo)
        echo(
            f"SkyMarshal console on http://127.0.0.1:{args.port}/ — development login (one user per role); "
            f"API document at /api/openapi.json. Ctrl-C stops it."
        )
        uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")
    return 0
