"""Plain-language descriptions of a case's inputs, for statements and for the reports of visible cases, in the
learner's language (:data:`judge.messages.LANGUAGES`).

Each object kind describes itself (:mod:`judge.package.kinds`); this module strings objects and calls together.
"""

from __future__ import annotations

import json
from typing import Any

from judge.package import kinds
from judge.package.cases import Case


def describe_call(call: dict[str, Any]) -> str:
    args = ", ".join(a[1:] if isinstance(a, str) and a.startswith("$") else json.dumps(a) for a in call["args"])
    return f"{call['method']}({args})"


def describe_objects(case: Case, lang: str = "en") -> list[str]:
    """One line per object, in ``lang``."""
    return [f"{name} = {kinds.describe_object(spec, lang)}" for name, spec in case.objects.items()]


def describe_inputs(case: Case, lang: str = "en") -> list[str]:
    """One line per object, in ``lang``, then one per call (code, the same in every language)."""
    return describe_objects(case, lang) + [
        describe_call(call) for call in case.calls]
