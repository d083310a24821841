"""How verdicts look: one colour per tone (:class:`judge.judging.verdict.Tone`), for terminals and for HTML.

Every renderer paints a verdict by its row in :data:`judge.judging.verdict.VERDICTS`: the text reports and the
terminal tables through :func:`ansi`, and every HTML page (reports, the notebook's fragment, the class page, the
site's ``/static/verdicts.css``) through the one stylesheet :func:`verdict_css` writes, in which a verdict's
name is its class (``<strong class="accepted">``).
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from judge.judging.verdict import VERDICTS, Tone, look


@dataclass(frozen=True)
class Paint:
    ansi: str
    """the SGR code in a terminal"""
    color: str
    """the text colour in HTML"""
    fill: str
    """the colour of the class page's bars"""
    background: str | None = None


TONES: dict[Tone, Paint] = {
    Tone.PASSED: Paint("32", "#137333", "#1e8e3e"),
    Tone.WRONG: Paint("31", "#b3261e", "#d93025"),
    Tone.LIMIT: Paint("33", "#8a5a00", "#e37400"),
    Tone.BROKEN: Paint("35", "#7b1fa2", "#8e24aa"),
    Tone.JUDGE: Paint("41", "#fff", "#5f6368", background="#b3261e"),
    Tone.NEUTRAL: Paint("36", "#0b57d0", "#4285f4"),
}
HINT_ANSI = "1;36"
"""a recognised mistake in a text report"""


def ansi(verdict: str) -> str | None:
    """The terminal colour of a verdict named in a report, ``hint`` for a hint; None for anything else."""
    if verdict == "hint":
        return HINT_ANSI
    found = look(verdict)
    return TONES[found.tone].ansi if found else None


def verdict_css(scope: str = "") -> Markup:
    """The stylesheet of verdict classes, each selector prefixed with ``scope`` (``.judge-report `` for the
    fragment a notebook shows inside a page of its own)."""
    rules = []
    for tone, paint in TONES.items():
        names = [v.value for v, row in VERDICTS.items() if row.tone is tone]
        text = f"color:{paint.color}" + (f";background:{paint.background}" if paint.background else "")
        rules.append(",".join(f"{scope}.{name}" for name in names) + "{" + text + "}")
        rules.append(",".join(f"{scope}rect.{name}" for name in names) + "{fill:" + paint.fill + "}")
    return Markup("\n".join(rules) + "\n")
