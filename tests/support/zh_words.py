"""What is left of a text shown in Chinese once what is not the judge's own words is cut out: the English words a
zh reader would still meet (tests/test_zh.py).

Words the zh catalogue writes itself (CPU, MiB, torch, ...) are allowed; commands to type and fields are code.
A problem's authored Chinese (titles, hints) holds identifiers that cannot be told from English words one by
one, so it is checked as text instead: it must hold Chinese, and no run of three English words, which is what
a sentence or a phrase left in English looks like (:func:`untranslated`)."""

from __future__ import annotations

import html
import re
from typing import Any, Iterable

from judge import messages
from judge.package.kinds import SCHEMES

ZH = messages.translations("zh")
WORD = re.compile(r"[A-Za-z][A-Za-z_]{2,}")
QUOTED_OR_FIELD = re.compile(r"""'[^']*'|"[^"]*"|\{[^}]*\}""")
COMMAND = re.compile(r"'(?:judge |--)[^']*'")
"""a command to type, quoted in a message ('judge show <problem>'): code, not words"""
ALLOWED = set(WORD.findall(" ".join(QUOTED_OR_FIELD.sub(" ", text) for text in ZH.values()))) | set(
    messages.LANGUAGES.values())
"""English-looking words a zh text may show: those the zh catalogue writes itself outside quoted commands and
fields (CPU, MiB, torch, PyTorch, ReLU, ...), and the language switch's own names"""
CJK = re.compile(r"[\u4e00-\u9fff]")
PROSE = re.compile(r"\b[A-Za-z]{2,}(?:[ ,;:]+[A-Za-z]{2,}){2,}\b")
"""three English words in a row: a phrase or a sentence left in English (identifiers come alone or two together:
'nn.Linear 的输出', 'weight kaiming_normal')"""
KIND_NAMES = (set(SCHEMES) - {"default", "values"}) | {"weight", "bias", "trunk", "heads", "train", "eval"}
"""what an input description shows as it is in every language: the INIT schemes a case names (PyTorch's default
and exact values are said in words), the parts and modes of modules, and Branched's two attributes"""
CODE = re.compile(r'\{.*\}|"[^"]*"|\w+(?=\(|\s*=)|[\w.]*[._\d][\w.]*|\b(?:inf|nan)\b')
"""in a description, what is code: a config's JSON, strings, names before a call or an "=" (Linear(, std=, the
object's own name), dotted, underscored or numbered names (nn.Sequential, .grad, kaiming_normal, int64, 5) and
the non-finite values a gradient is given"""


def english_left(shown: str, cut: Iterable[str], allowed: Iterable[str] = ()) -> list[str]:
    """The English words of ``shown`` once every string of ``cut`` is removed (longest first), runs of white space
    counted as one (the text report wraps and indents hints and tracebacks); ``allowed``: identifiers it may show."""
    shown = " ".join(COMMAND.sub(" ", shown).split())
    for value in sorted({" ".join(c.split()) for c in cut if c.strip()}, key=len, reverse=True):
        shown = shown.replace(value, " ")
    return sorted({w for w in WORD.findall(shown) if w not in ALLOWED and w not in set(allowed)})


def page_text(page: str) -> str:
    """What a browser shows of an HTML page or fragment: no styles, scripts, tags or attributes."""
    page = re.sub(r"<(style|script)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def untranslated(english: str, chinese: str | None) -> list[str]:
    """Why ``chinese`` is not a translation of ``english`` (nothing when it is one)."""
    if not chinese:
        return ["missing"]
    return ([] if CJK.search(chinese) else ["no Chinese"]) + (["as in English"] if chinese == english else []) + \
        PROSE.findall(chinese)


def names_in(spec: Any) -> set[str]:
    """The names a case gives its blocks and heads (``stem``, ``res1``, ``a``)."""
    if isinstance(spec, dict):
        own = {spec["name"]} if isinstance(spec.get("name"), str) else set()
        return own | {n for v in spec.values() for n in names_in(v)}
    if isinstance(spec, list):
        return {n for v in spec for n in names_in(v)}
    return set()


def description_words(line: str, names: Iterable[str] = ()) -> list[str]:
    """The English words of an input description once its code and ``names`` (the case's own: :func:`names_in`) are
    cut out."""
    known = ALLOWED | KIND_NAMES | set(names)
    return sorted({w for w in WORD.findall(CODE.sub(" ", line)) if w not in known})
