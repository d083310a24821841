"""The command line of the local site: ``judge serve``.

:func:`add_commands` adds it to ``judge``'s parser; the server is imported when the command runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from judge.command import add_command
from judge.errors import EXIT_OK, BadInput


def cmd_serve(args: argparse.Namespace) -> int:
    from judge.serve.launch import LOOPBACK, serve

    if args.exact_figures and args.graded is None:
        raise BadInput("serve_exact_without_class")
    serve(args.host or LOOPBACK, args.port, args.open, args.graded, args.exact_figures)
    return EXIT_OK


def add_commands(sub: Any) -> None:
    """Add ``serve`` to ``judge``'s subcommands (``sub``, from ``add_subparsers``)."""
    serve = add_command(sub, "serve", cmd_serve,
                        "practise in your browser: a local site with the problems, an editor, Run and Submit")
    serve.add_argument("--port", type=int, default=8765, help="port to listen on (default: 8765; 0: any free one)")
    serve.add_argument("--host", help="listen on this address instead of 127.0.0.1 (others could then reach "
                                      "the site and run code as you: prints a warning)")
    serve.add_argument("--open", action="store_true", help="open the site in your web browser")
    serve.add_argument("--class", dest="graded", type=Path, metavar="OUT",
                       help="instructor: also browse the --out folder of a 'judge grade' run")
    serve.add_argument("--exact-figures", action="store_true",
                       help="with --class: show hidden cases' CPU time and memory as measured (for instructors; "
                            "never serve this to students)")
