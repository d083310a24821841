"""Render a statement's Markdown as plain terminal text: headings underlined, code indented, markup removed.

The author's line breaks are kept (a Markdown soft break stays a new line) and nothing is re-wrapped: the
terminal wraps long lines itself, Chinese ones too, which have no spaces to wrap at. (Chinese templates keep a
paragraph on one line, since a browser shows a line break inside a paragraph as a space.) With ``color`` headings and emphasis are bold
and code is cyan; without it inline code keeps its backticks, so it stays recognisable.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from markdown_it import MarkdownIt

UNDERLINES = {"h1": "=", "h2": "-"}
DEFAULT_UNDERLINE = "~"
CODE_INDENT = "    "
STYLES = {"strong": "1", "em": "3", "code": "36", "heading": "1"}


def display_width(text: str) -> int:
    """Columns a terminal gives ``text``: East Asian wide and full-width characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


class _Renderer:
    def __init__(self, color: bool):
        self.color = color
        self.lines: list[str] = []
        self.indent = ""
        """what starts every line of the current list item after its first"""
        self.marker: str | None = None
        """the list marker waiting for the item's first line"""
        self.lists: list[list[Any]] = []
        """open lists, innermost last: [ordered, next number, indent outside the list]"""

    def paint(self, text: str, style: str) -> str:
        return f"\x1b[{STYLES[style]}m{text}\x1b[0m" if self.color else text

    def inline(self, token: Any) -> str:
        parts = []
        for child in token.children or []:
            kind = child.type
            if kind in ("softbreak", "hardbreak"):
                parts.append("\n")
            elif kind == "code_inline":
                parts.append(self.paint(child.content, "code") if self.color else f"`{child.content}`")
            elif kind in ("strong_open", "em_open") and self.color:
                parts.append(f"\x1b[{STYLES[kind.removesuffix('_open')]}m")
            elif kind in ("strong_close", "em_close") and self.color:
                parts.append("\x1b[0m")
            else:
                parts.append(child.content)
        return "".join(parts)

    def emit(self, text: str, tight: bool = False) -> None:
        if self.lines and self.lines[-1] and not (tight and self.lists):
            self.lines.append("")
        for line in text.split("\n"):
            lead, self.marker = (self.marker, None) if self.marker is not None else (self.indent, None)
            self.lines.append((lead + line).rstrip())

    def open_list(self, ordered: bool, start: int) -> None:
        if not self.lists and self.lines and self.lines[-1]:
            self.lines.append("")
        self.lists.append([ordered, start, self.indent])

    def open_item(self) -> None:
        current = self.lists[-1]
        bullet = f"{current[1]}. " if current[0] else "- "
        current[1] += 1
        self.marker = current[2] + bullet
        self.indent = current[2] + " " * len(bullet)

    def render(self, markdown: str) -> str:
        tokens = MarkdownIt("commonmark").parse(markdown)
        for index, token in enumerate(tokens):
            kind = token.type
            if kind == "heading_open":
                title = self.inline(tokens[index + 1])
                rule = UNDERLINES.get(token.tag, DEFAULT_UNDERLINE) * display_width(title)
                self.emit(self.paint(title, "heading") + "\n" + rule)
            elif kind == "paragraph_open":
                self.emit(self.inline(tokens[index + 1]), tight=token.hidden)
            elif kind in ("fence", "code_block"):
                self.emit("\n".join(CODE_INDENT + line for line in token.content.rstrip("\n").split("\n")))
            elif kind in ("bullet_list_open", "ordered_list_open"):
                self.open_list(kind == "ordered_list_open", int(token.attrs.get("start", 1)))
            elif kind in ("bullet_list_close", "ordered_list_close"):
                self.indent = self.lists.pop()[2]
            elif kind == "list_item_open":
                self.open_item()
            elif kind == "list_item_close":
                self.indent = self.lists[-1][2]
            elif kind == "hr":
                self.emit("-" * 40)
        return "\n".join(self.lines).strip("\n") + "\n"


def to_terminal(markdown: str, color: bool = False) -> str:
    return _Renderer(color).render(markdown)
