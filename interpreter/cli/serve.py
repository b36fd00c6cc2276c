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
from happydayz.web.guard import HostRules, is_loopback
from happydayz.web.work import Work

MISSING = ("happydayz serve needs Starlette and uvicorn, an optional extra: pip install 'happydayz[web]'")


def _add_serve(sub) -> None:
    p = sub.add_parser("serve", help="play in the browser and edit powers in a playground",
                       description="Start the web table: a page to play against bots and a power playground. "
                                   "It listens on 127.0.0.1 (this machine only) unless --host says otherwise, and "
                                   "answers only requests for its own address (127.0.0.1, localhost or [::1] with "
                                   "its port, and the names given with --allow-host) from its own pages. "
                                   "Files are read and written only inside the mods folder. "
                                   "Ctrl-C stops it (docs/reliability.md).")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=whole_number, default=8000, metavar="N", help="the port (default: 8000)")
    p.add_argument("--mods", default="mods", metavar="DIR",
                   help="the folder of your power, scenario and save files (default: ./mods, created if missing)")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME[:PORT]",
                   help="also answer requests for this name (and pages from http://NAME:PORT), e.g. the machine's "
                        "name on your network when --host is not 127.0.0.1; may be given more than once")
    p.set_defaults(run=_run_serve)


def _run_serve(args) -> int:
    try:
        import starlette  # noqa: F401  optional dependency: Starlette, the web extra (happydayz[web])
        import uvicorn  # optional dependency: uvicorn, the web extra (happydayz[web])
    except ImportError:
        raise UsageError(MISSING) from None
    if not 0 < args.port < 65536:
        raise UsageError(f"--port {args.port} is not a port: choose 1 to 65535")
    for name in args.allow_host:
        if not name.strip() or any(c in name for c in "/ @?#\x00"):
            raise UsageError(f"--allow-host {name!r} is not a host name (give NAME or NAME:PORT)")
    mods = Path(args.mods)
    env = Environment(power_dirs=[*args.env.power_dirs, mods.expanduser().resolve()], codegen=args.env.codegen)
    work = Work()
    app = create_app(mods, env, HostRules.for_server(args.host, args.port, tuple(args.allow_host)), work)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"happydayz: the table is at http://{shown}:{args.port}/ and the playground at "
          f"http://{shown}:{args.port}/playground (mods folder: {app.state.mods.root}); Ctrl-C stops it",
          file=sys.stderr, flush=True)
    if not is_loopback(args.host):
        print(f"happydayz: listening on {args.host}, reachable from other machines; only the names given with "
              f"--allow-host are served besides this machine's own", file=sys.stderr, flush=True)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                            timeout_graceful_shutdown=SHUTDOWN_GRACE, limit_concurrency=MAX_CONNECTIONS)
    server = _server_class()(config, work)
    try:
        server.run()
    except KeyboardInterrupt:  # uvicorn raises the captured signal again once it has shut down
        pass
    return 0


#: Seconds that open requests get to finish after Ctrl-C; the work they wait for is cancelled at once.
SHUTDOWN_GRACE = 2
#: Connections served at once; uvicorn answers 503 to any further one.
MAX_CONNECTIONS = 128


def _server_class():
    import uvicorn  # optional dependency: uvicorn, the web extra (happydayz[web])

    class Server(uvicorn.Server):
        """uvicorn's server, whose first Ctrl-C (or SIGTERM) also cancels every bot, power and simulation in
        flight: their threads are daemons, so nothing keeps the process alive once the requests are closed."""

        def __init__(self, config, work: Work) -> None:
            super().__init__(config)
            self.work = work

        def handle_exit(self, sig, frame) -> None:
            self.work.cancel_all()
            super().handle_exit(sig, frame)
    return Server


COMMANDS = [_add_serve]
