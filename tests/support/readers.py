"""Real parsers for every output format, and the hostile strings the output tests feed through them.

Each reader parses an output the way its consumer would (a browser's HTML parser, an XML parser, a CSV reader, a
Markdown renderer that passes raw HTML through, a JUnit reader) and returns what a check compares: the markup's
shape (elements and attribute names, in order) and the text a person sees.
"""

from __future__ import annotations

import csv
import io
import os
import re
import sys
import unicodedata
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from html.parser import HTMLParser

from hypothesis import strategies as st
from markdown_it import MarkdownIt

HOSTILE_PARTS = [
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<style>body{display:none}</style>",
    '<meta http-equiv="refresh" content="0;url=https://evil.example/">', "<base href=https://evil.example/>",
    '<form action="https://evil.example/"><input name=p><button>log in</button></form>',
    '"><svg onload=alert(1)>', "' onmouseover='alert(1)", "</pre></div></body>", "<!--", "-->", "<![CDATA[x", "]]>",
    '</failure></testcase><testcase name="forged"/>', "<?xml version='1.0'?>", "&amp;", "&#60;", "&lt;", "&", "<",
    "```", "````", "~~~", "`", "|", "\\", "*", "_", "**x**", "[x](javascript:alert(1))", "![i](x)", "<http://x>",
    "\n\n# forged heading\n", "\n> quote\n", "\n- item\n", "\n1. item\n", "\n    code\n", "$x$",
    "\n  2  hidden/02  accepted\n", "\x1b[31m", "\x1b]0;owned\x07", "\x1b[2J", "\r", "\x07", "\x08", "\x00", "\x7f",
    "\x85", "\x9b", "\u2028", "\u202e", "\u2066", "\ufffe", "\uffff", "\ufeff", "\udcff", "\ud800", "\udfff",
    "\U0001f600", "\u4e2d\u6587", '=HYPERLINK("https://evil.example","x")', "+1", "-1+2", "@SUM(A1)", "\t=1",
    "\r=1", "{{ 7*7 }}", "{% if %}", '"', "'", ",", ";", "\n",
]
"""markup of every format, ways out of quotes, code blocks, CDATA and XML, terminal escapes, characters XML
forbids, lone surrogates, spreadsheet formulas, template syntax"""

texts = st.lists(st.sampled_from(HOSTILE_PARTS) | st.text(st.characters(exclude_categories=()), min_size=1,
                                                          max_size=8), min_size=1, max_size=6).map("".join)
"""any text at all, lone surrogates included, mostly hostile"""


def _file_name(name: str) -> bool:
    try:
        data = os.fsencode(name)
    except UnicodeEncodeError:
        return False
    return 0 < len(data) <= 200 and b"/" not in data and b"\0" not in data and data not in (b".", b"..")


names = (st.binary(min_size=1, max_size=40).map(os.fsdecode) | texts).filter(_file_name)
"""file and folder names of any bytes (``os.fsdecode`` keeps those that are not UTF-8 as lone surrogates)"""


@dataclass
class Markup:
    """An HTML or XML document as the checks see it."""

    shape: list[tuple] = field(default_factory=list)
    """start and end tags, comments, declarations, with their attribute names, in order"""
    attributes: list[dict[str, str]] = field(default_factory=list)
    text: str = ""


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found = Markup()
        self.chunks: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.found.shape.append((tag, tuple(name for name, _ in attrs)))
        self.found.attributes.append(dict(attrs))

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag):
        self.found.shape.append(("/" + tag,))

    def handle_data(self, data):
        self.chunks.append(data)

    def handle_comment(self, data):
        self.found.shape.append(("<!--", data))

    def handle_decl(self, decl):
        self.found.shape.append(("<!", decl.lower()))

    def handle_pi(self, data):
        self.found.shape.append(("<?", data))

    def unknown_decl(self, data):
        self.found.shape.append(("<![", data))


def read_html(document: str) -> Markup:
    reader = _Reader()
    reader.feed(document)
    reader.close()
    reader.found.text = "".join(reader.chunks)
    return reader.found


def read_markdown(document: str) -> Markup:
    """Markdown as a renderer that lets raw HTML through would show it (the worst case: CommonMark allows it)."""
    return read_html(MarkdownIt("commonmark", {"html": True}).enable("table").render(document))


def read_xml(document: str) -> ET.Element:
    return ET.fromstring(document.encode("utf-8"))


def xml_shape(root: ET.Element) -> list[tuple]:
    return [(e.tag, tuple(sorted(e.attrib))) for e in root.iter()]


def xml_text(root: ET.Element) -> str:
    return "\n".join([*(v for e in root.iter() for v in e.attrib.values()),
                      *(e.text or "" for e in root.iter())])


@dataclass(frozen=True)
class Suite:
    """One ``<testsuite>`` as a JUnit reader counts it: from its elements, and as its attributes claim."""

    name: str
    claimed: dict[str, int]
    counted: dict[str, int]
    time: float
    case_times: float


def read_junit(document: str) -> tuple[dict[str, int], list[Suite]]:
    """The ``<testsuites>`` totals as claimed, and every suite."""
    root = read_xml(document)
    assert root.tag == "testsuites"
    suites = []
    for suite in root.iter("testsuite"):
        cases = suite.findall("testcase")
        kinds = [next((c.tag for c in case if c.tag in ("failure", "error", "skipped")), "passed") for case in cases]
        assert all(len([c for c in case if c.tag in ("failure", "error", "skipped")]) <= 1 for case in cases)
        counted = {"tests": len(cases), "failures": kinds.count("failure"), "errors": kinds.count("error"),
                   "skipped": kinds.count("skipped")}
        suites.append(Suite(suite.get("name"), {k: int(suite.get(k)) for k in counted}, counted,
                            float(suite.get("time")), sum(float(c.get("time", 0)) for c in cases)))  # optional
    return {k: int(root.get(k)) for k in ("tests", "failures", "errors", "skipped")}, suites


def read_csv(document: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(document, newline="")))


DEFAULT_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
                     (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
                     (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
                     (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
"""Unicode's ``Default_Ignorable_Code_Point`` (DerivedCoreProperties.txt, Unicode 15.1), as ranges: what a
renderer draws as nothing"""
KEPT = frozenset("\u200c\u200d\ufe0e\ufe0f")
"""invisible characters text needs: the zero-width non-joiner and joiner, the text and emoji presentation
selectors"""
_ACTING = {chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) in ("Cc", "Cf", "Cs", "Zl", "Zp")}
_ACTING |= {chr(c) for low, high in DEFAULT_IGNORABLE for c in range(low, high + 1)}
CONTROL = re.compile(f"[{re.escape(''.join(sorted(_ACTING - KEPT - set(chr(9) + chr(10)))))}]")
"""what must never reach a terminal or a file from a submission, by Unicode's own properties (not the judge's
list): controls but tab and newline, every format character (direction marks and overrides, zero-width space,
tag characters...), lone surrogates, line and paragraph separators, and every default-ignorable code point but
the four of :data:`KEPT`"""


INJECTED_TAGS = frozenset({"script", "img", "form", "input", "button", "svg", "base", "iframe", "object", "embed",
                           "link", "frame", "textarea", "select", "a", "audio", "video", "math"})
"""elements a hostile string tries to add; the reports themselves have none of them (links only in the
overview and the site, checked apart)"""


def assert_nothing_injected(markup: Markup, allowed: frozenset[str] = frozenset()) -> None:
    """No element a hostile string could add, no event handler, no ``<meta>`` but the charset."""
    for (tag, *rest), attributes in zip([s for s in markup.shape if not s[0].startswith(("/", "<"))],
                                        markup.attributes):
        assert tag not in INJECTED_TAGS - allowed, f"<{tag}> was injected"
        assert not any(name.startswith("on") for name in attributes), f"an event handler on <{tag}>"
        assert tag != "meta" or set(attributes) <= {"charset", "name", "content", "viewport"} and \
            "http-equiv" not in attributes, "a <meta> that acts"
    assert not [s for s in markup.shape if s[0] in ("<!--", "<?", "<![")], "a comment or declaration was injected"


def check_junit(document: str) -> None:
    """A JUnit file as a reader counts it: its claimed counts are its elements', and no test case was forged."""
    totals, suites = read_junit(document)
    for suite in suites:
        assert suite.claimed == suite.counted, suite.name
        assert abs(suite.time - suite.case_times) < 1e-3, suite.name
    assert totals == {key: sum(s.counted[key] for s in suites) for key in totals}
    assert "forged" not in {case.get("name") for case in read_xml(document).iter("testcase")}
