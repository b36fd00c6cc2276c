"""`happydayz lsp`: the language server for editors, over stdin and stdout.

pygls and lsprotocol are an optional extra (pip install 'happydayz[lsp]'), so
they are imported only when the command runs (happydayz.lsp.server imports
them when it makes the server).
"""

from __future__ import annotations

from happydayz.base.errors import UsageError
from happydayz.lsp.server import serve

MISSING = "happydayz lsp needs pygls and lsprotocol, an optional extra: pip install 'happydayz[lsp]'"


def _add_lsp(sub) -> None:
    p = sub.add_parser("lsp", help="run the language server for editors (stdio)",
                       description="Speak the Language Server Protocol over stdin and stdout for power files and "
                                   "box and scenario files: diagnostics as you type, hover, completion, go to "
                                   "definition, formatting and the outline. An editor starts it (docs/editors.md).")
    p.add_argument("--stdio", action="store_true", help="use stdin and stdout (the default and only transport; "
                                                        "accepted because editors pass it)")
    p.set_defaults(run=_run_lsp)


def _run_lsp(args) -> int:
    try:
        import pygls  # noqa: F401  optional dependency: pygls, the lsp extra (happydayz[lsp])
        import lsprotocol  # noqa: F401  optional dependency: lsprotocol, the lsp extra (happydayz[lsp])
    except ImportError:
        raise UsageError(MISSING) from None
    serve(args.env)
    return 0


COMMANDS = [_add_lsp]
