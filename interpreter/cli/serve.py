"""`happydayz serve`: the web table (play against bots) and the power playground, on this machine.

Starlette and uvicorn are an optional extra (pip install 'happydayz[web]'), so
they are imported only when the command runs.
"""

from __future__ import annotations

import sys
from pathlib import Path

from happydayz.base.errors import UsageError
from happydayz.cli.common import whole_number
from happydayz.data.environment import Environment
from happydayz.web.app import create_app

MISSING = ("happydayz serve needs Starlette and uvicorn, an optional extra: pip install 'happydayz[web]'")


def _add_serve(sub) -> None:
    p = sub.add_parser("serve", help="play in the browser and edit powers in a playground",
                       description="Start the web table: a page to play against bots and a power playground. "
                                   "It listens on 127.0.0.1 (this machine only) unless --host says otherwise. "
                                   "Files are read and written only inside the mods folder.")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=whole_number, default=8000, metavar="N", help="the port (default: 8000)")
    p.add_argument("--mods", default="mods", metavar="DIR",
                   help="the folder of your power, scenario and save files (default: ./mods, created if missing)")
    p.set_defaults(run=_run_serve)


def _run_serve(args) -> int:
    try:
        import starlette  # noqa: F401  optional dependency: Starlette, the web extra (happydayz[web])
        import uvicorn  # optional dependency: uvicorn, the web extra (happydayz[web])
    except ImportError:
        raise UsageError(MISSING) from None
    if not 0 < args.port < 65536:
        raise UsageError(f"--port {args.port} is not a port: choose 1 to 65535")
    mods = Path(args.mods)
    env = Environment(power_dirs=[*args.env.power_dirs, mods.expanduser().resolve()], codegen=args.env.codegen)
    app = create_app(mods, env)
    print(f"happydayz: the table is at http://{args.host}:{args.port}/ and the playground at "
          f"http://{args.host}:{args.port}/playground (mods folder: {app.state.mods.root}); Ctrl-C stops it",
          file=sys.stderr, flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


COMMANDS = [_add_serve]
