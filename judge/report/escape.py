"""Make any string safe to show in each output format: one place, used by every renderer and exporter.

Whatever a submission hands back (an exception message, a traceback, printed output, a returned string or a
dict key) and whatever a class folder is named reaches people through these formats. Each function here gives
one guarantee for one kind of output, for *every* string, so a renderer never has to think about it:

:func:`visible`     any output: characters a reader cannot see or that act on the reader (terminal control bytes,
                    ``\\r``, bidirectional controls, zero-width characters, lone surrogates, characters XML
                    forbids) become visible escapes such as ``\\x1b``; a lone surrogate that stands for a byte
                    of a file name (``surrogateescape``) shows as that byte, ``\\xff``. The result always encodes
                    as UTF-8 and holds only characters XML 1.0 allows. Newlines and tabs stay.
:func:`inline`      as :func:`visible`, and newlines and tabs are escaped too: for one-line places (a table cell,
                    a file or student name, an attribute), where a newline could start a line of its own.
:func:`displayable` a copy of a report in which every string is :func:`inline`, except the multi-line texts of
                    :data:`MULTILINE` (message, traceback, printed output), which are :func:`visible`.
:func:`markdown_text`, :func:`markdown_code`, :func:`markdown_fence`
                    Markdown that shows the text as text: punctuation that could start markup is backslash-escaped,
                    code spans and fences are longer than any run of backticks inside them.
:func:`csv_cell`    a cell no spreadsheet evaluates: text starting with ``=``, ``+``, ``-``, ``@``, a tab or a
                    carriage return gets a leading ``'`` (OWASP, "CSV Injection").
:func:`url_path`    a file name as one percent-encoded URL path segment, from its bytes.

HTML and XML escaping itself (``<``, ``&``, quotes) is the template engine's: see :mod:`judge.report.render`.
"""

from __future__ import annotations

import re
from typing import Any, Callable
from urllib.parse import quote

_ALWAYS = ("\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufffe\uffff\ud800-\udfff"
           "\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u17b4\u17b5"
           "\u180b-\u180f\u200b\u200e\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0d\ufeff\uffa0"
           "\ufff0-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
           "\U000e0000-\U000e0fff")
"""C0 controls but tab and newline, DEL, C1 controls, line and paragraph separators, the two noncharacters XML
forbids, surrogates (only lone ones can occur in a ``str``); then every format character (Unicode's category Cf:
direction marks and overrides, the Arabic letter mark, zero-width space, word joiner and invisible operators, byte
order mark, tag characters, interlinear annotation marks...) and every default-ignorable code point (Unicode's
``Default_Ignorable_Code_Point``: the combining grapheme joiner, Hangul fillers, Khmer inherent vowels, Mongolian
free variation selectors, variation selectors...): characters a renderer draws as nothing, which make two different
values look the same or reorder what is around them. Kept: the zero-width joiner and non-joiner, and the text and
emoji presentation selectors U+FE0E and U+FE0F, which scripts and emoji need."""
_HIDDEN = re.compile(f"[{_ALWAYS}]")
_HIDDEN_OR_BREAK = re.compile(f"[{_ALWAYS}\t\n]")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}

MULTILINE = frozenset({"msg", "trace", "stdout"})
"""report keys whose text keeps its lines: an exception's message and traceback, and what was printed"""


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    code = ord(ch)
    if ch in _NAMED:
        return _NAMED[ch]
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8, as os.fsdecode keeps it in a file name
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: str) -> str:
    """``text`` with every invisible or acting character shown as an escape; newlines and tabs kept."""
    return _HIDDEN.sub(_escape, text)


def inline(text: str) -> str:
    """``text`` on one line: as :func:`visible`, and ``\\n`` and ``\\t`` are shown as escapes too."""
    return _HIDDEN_OR_BREAK.sub(_escape, text)


def _map_strings(value: Any, text: Callable[[str, bool], str], multiline: bool = False) -> Any:
    """A copy of ``value`` (plain JSON) with ``text(string, multiline)`` applied to every string and dict key."""
    if type(value) is str:
        return text(value, multiline)
    if type(value) is list:
        return [_map_strings(item, text, multiline) for item in value]
    if type(value) is dict:
        return {text(k, False) if type(k) is str else k: _map_strings(v, text, k in MULTILINE)
                for k, v in value.items()}
    return value


def displayable(value: Any) -> Any:
    """A copy of a report (or any part of one) whose every string, dict keys included, is safe to show."""
    return _map_strings(value, lambda text, multiline: visible(text) if multiline else inline(text))


# -- Markdown (CommonMark, GitHub's tables) ---------------------------------------------------------------------
_MARKUP = re.compile(r"[\\`*\[\]<&|~$]|(?<![^\W_])_|_(?![^\W_])")
"""inline markup: escapes, code, emphasis, links and images, raw HTML and entities, table cells, strikethrough,
GitHub's math; an underscore only where it could open or close emphasis (not between two letters or digits).
Nothing here starts a line, so block markers (``#``, ``>``, ``-``, ``1.``) cannot take effect."""
_BACKTICKS = re.compile(r"`+")


def markdown_text(text: str) -> str:
    """One line of Markdown that shows ``text`` literally."""
    return _MARKUP.sub(lambda m: "\\" + m.group(), inline(text))


def _fence_for(text: str, least: int) -> str:
    return "`" * max(least, max((len(run) for run in _BACKTICKS.findall(text)), default=0) + 1)


def markdown_code(text: str) -> str:
    """An inline code span holding ``text``, one line, delimited by more backticks than any run inside it."""
    body = inline(text)
    fence = _fence_for(body, 1)
    if body.startswith("`") or body.endswith("`") or (body.startswith(" ") and body.endswith(" ") and body.strip()):
        body = f" {body} "  # CommonMark strips one space on each side
    return f"{fence}{body}{fence}" if body else f"{fence} {fence}"


def markdown_fence(text: str) -> str:
    """A fenced code block holding ``text``'s lines: no line inside can close it, however many backticks."""
    body = visible(text).rstrip("\n")
    fence = _fence_for(body, 3)
    return f"{fence}\n{body}\n{fence}"


# -- CSV and URLs -----------------------------------------------------------------------------------------------
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A cell value a spreadsheet shows as text: one line, and a leading ``'`` before a formula's first
    character. Numbers pass as they are (they are the judge's own, never negative)."""
    if type(value) is not str:
        return value
    if value.startswith(FORMULA_STARTS):
        value = "'" + value
    return inline(value)


def url_path(name: str) -> str:
    """``name`` (a file or folder name) as a URL path segment: its bytes, percent-encoded, nothing left special."""
    try:
        data = name.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate no file name decodes to: not a name from disk
        data = name.encode("utf-8", "replace")
    return quote(data, safe="")


_SURROGATE = re.compile("[\ud800-\udfff]")


def json_safe(value: Any) -> Any:
    """A copy of ``value`` for JSON written for people and other programs: a lone surrogate (which strict JSON
    parsers refuse even as an escape) becomes its visible escape; every other character stays as it is."""
    return _map_strings(value, lambda text, multiline: _SURROGATE.sub(_escape, text))
