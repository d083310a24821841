"""The command line of the local site: ``judge serve``.

:func:`add_commands` adds it to ``judge``'s parser; the server is imported when the command runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from judge import messages
from judge.command import add_command, add_lang, port_number
from judge.errors import EXIT_OK, BadInput


def cmd_serve(args: argparse.Namespace) -> int:
    from judge.serve.launch import LOOPBACK, serve

    if args.exact_figures and args.graded is None:
        raise BadInput("serve_exact_without_class")
    serve(args.host or LOOPBACK, args.port, args.open, args.graded, args.exact_figures, args.lang)
    return EXIT_OK


def add_commands(sub: Any, lang: str = "en") -> None:
    """Add ``serve`` to ``judge``'s subcommands (``sub``, from ``add_subparsers``), its help said in ``lang``."""
    def say(key: str) -> str:
        return messages.say_in(lang, key)

    serve = add_command(sub, "serve", cmd_serve, say("help_serve"))
    serve.add_argument("--port", type=port_number, default=8765, help=say("help_serve_port"))
    serve.add_argument("--host", help=say("help_serve_host"))
    serve.add_argument("--open", action="store_true", help=say("help_serve_open"))
    serve.add_argument("--class", dest="graded", type=Path, metavar="OUT", help=say("help_serve_class"))
    serve.add_argument("--exact-figures", action="store_true", help=say("help_serve_exact"))
    add_lang(serve, lang, "help_serve_lang")
