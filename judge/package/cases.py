"""Case files: load, validate against the schema in :mod:`judge.package`, and split spec from expectations.

Every error names the file and the field (``objects.model.layers[2].linear``) so an author can fix it at once.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judge.errors import BadInput
from judge.package import bounds
from judge.package.kinds import Checker, conceal, validate_object
from judge.system_words import Native, json_reason, os_reason

VISIBILITIES = ("sample", "hidden")


@dataclass(frozen=True)
class Mistake:
    """What a known mistake returns on one call of a sample case, where that differs from the expected output."""

    pitfall: str
    """the pitfall's id in problem.toml"""
    call: int
    """the index of the call in the case"""
    output: Any
    """the output of the pitfall's declared wrong submission on that call"""


@dataclass(frozen=True)
class Case:
    """One case of a problem: what to build and call, and what the reference returned."""

    name: str
    """file stem, e.g. ``03-wide-relu``"""
    visibility: str
    """``sample`` (shown to learners) or ``hidden``"""
    path: Path
    title: str
    objects: dict[str, Any]
    calls: list[dict[str, Any]]
    build_sha256: str | None
    expected: dict[str, Any] = field(repr=False)
    """per device: ``{"torch": ..., "settings": ..., "outputs": [one value per call]}``"""
    titles: dict[str, str] = field(repr=False)
    """the title in other languages, by language code (``translations`` in the file)"""
    mistakes: list[Mistake] = field(repr=False)
    """sample cases only: the outputs of known mistakes, written by ``judge gen`` (see :mod:`judge.judging.hints`)"""
    permute: list[str] | None = field(default=None, repr=False)
    """the objects whose first axis is the batch, permuted together by the generator's row-permutation check;
    ``[]`` switches that check off; None (no ``permute`` in the file): the generator infers them"""
    raw: dict[str, Any] = field(default_factory=dict, repr=False)
    """the file as read, so author tools can write it back with additions"""
    ignored: tuple[str, ...] = ()
    """a learner's case only: the fields of its file that only the judge uses, ignored (:func:`load_own_case`)"""

    @property
    def hidden(self) -> bool:
        return self.visibility == "hidden"

    @property
    def id(self) -> str:
        return f"{self.visibility}/{self.name}"

    def outputs(self, device: str) -> list[Any] | None:
        """The expected outputs on ``device``: None when there are none, or when they are stale (the calls
        changed since ``judge gen`` last ran)."""
        outputs = self.expected.get(device, {}).get("outputs")
        return outputs if outputs is not None and len(outputs) == len(self.calls) else None

    def spec(self) -> dict[str, Any]:
        """What defines the case's inputs: objects, calls and checksum, never the expected values."""
        return {"objects": self.objects, "calls": self.calls, "build_sha256": self.build_sha256}

    def call_request(self, index: int) -> dict[str, Any]:
        """All a worker is told for call ``index``: its method, its arguments, and the specifications of the
        objects those name. Never another call's arguments, which may hold what this call must compute
        (a rule engine's input is often the reference's output of an earlier call)."""
        call = self.calls[index]
        names = [a[1:] for a in call["args"] if isinstance(a, str) and a.startswith("$")]
        objects, hidden = conceal({n: self.objects[n] for n in names})
        return {"method": call["method"], "args": call["args"], "objects": objects, "hidden": hidden}


def _call(check: Checker, spec: Any, where: str, objects: dict[str, Any], methods: set[str]) -> None:
    check.type(spec, dict, where, "expect_call_object")
    check.type(spec.get("method"), str, f"{where}.method", "expect_method_name")
    if spec["method"] not in methods:
        check.fail(f"{where}.method", "expect_one_of", names=", ".join(sorted(methods)))
    args = check.type(spec.get("args"), list, f"{where}.args", "expect_arguments")
    for i, arg in enumerate(args):
        if isinstance(arg, str) and arg.startswith("$") and arg[1:] not in objects:
            check.fail(f"{where}.args[{i}]", "expect_defined_object", arg=repr(arg))


CASE_FILE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*\.json")
"""a package's case file name: its stem is the case's id in every report, terminal line and page, so it holds
nothing a terminal or a reader could take for something else (a newline, an escape, an invisible character)"""


def package_case(path: Path, visibility: str, methods: set[str]) -> Case:
    """:func:`load_case` for a case file of a package, its name checked first (:data:`CASE_FILE`)."""
    if not CASE_FILE.fullmatch(path.name):
        Checker(path).fail("(file name)", "expect_case_file_name")
    return load_case(path, visibility, methods)


def parse_case(raw: Any, path: Path, visibility: str, methods: set[str]) -> Case:
    check = Checker(path)
    check.type(raw, dict, "(top level)", "expect_json_object")
    objects = check.type(raw.get("objects", {}), dict, "objects", "expect_named_objects")
    for name, spec in objects.items():
        validate_object(spec, f"objects.{name}", check)
    calls = check.type(raw.get("calls"), list, "calls", "expect_calls")
    if not calls:
        check.fail("calls", "expect_calls")
    for i, call in enumerate(calls):
        _call(check, call, f"calls[{i}]", objects, methods)
    permute = raw.get("permute")
    if permute is not None:
        check.names(permute, objects, "permute", "word_objects")
    expected = check.type(raw.get("expected", {}), dict, "expected", "expect_by_device")
    for device, entry in expected.items():
        outputs = check.type(entry, dict, f"expected.{device}", "expect_object").get("outputs")
        if not isinstance(outputs, list):
            check.fail(f"expected.{device}.outputs", "expect_outputs")
    return Case(
        name=path.stem, visibility=visibility, path=path,
        title=check.type(raw.get("title", path.stem), str, "title", "expect_string"),
        objects=objects, calls=calls, build_sha256=raw.get("build_sha256"), expected=expected, permute=permute,
        titles=_titles(check, raw.get("translations", {})),
        mistakes=_mistakes(check, raw.get("mistakes", []), len(calls), visibility), raw=raw,
    )


def _titles(check: Checker, raw: Any) -> dict[str, str]:
    check.type(raw, dict, "translations", "expect_translations")
    for lang, entry in raw.items():
        check.type(entry, dict, f"translations.{lang}", "expect_translation")
        check.type(entry.get("title"), str, f"translations.{lang}.title", "expect_string")
    return {lang: entry["title"] for lang, entry in raw.items()}


NONFINITE_TAG = "$float"
"""case files and reports are strict JSON: a NaN or infinity in them is written ``{"$float": "nan" | "inf" |
"-inf"}``, the one encoding of non-finite numbers outside the worker's pipe"""


def tag_nonfinite(value: Any) -> Any:
    """``value`` with every NaN and infinity replaced by its tag (a mistake's output before it is stored, a
    report's values)."""
    if isinstance(value, float) and not math.isfinite(value):
        return {NONFINITE_TAG: repr(value)}
    if isinstance(value, dict):
        return {k: tag_nonfinite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [tag_nonfinite(v) for v in value]
    return value


def untag_nonfinite(value: Any) -> Any:
    """``value`` with every tag of :func:`tag_nonfinite` turned back into its float."""
    if isinstance(value, dict):
        if value.keys() == {NONFINITE_TAG} and value[NONFINITE_TAG] in ("nan", "inf", "-inf"):
            return float(value[NONFINITE_TAG])
        return {k: untag_nonfinite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [untag_nonfinite(v) for v in value]
    return value


def _mistakes(check: Checker, raw: Any, calls: int, visibility: str) -> list[Mistake]:
    check.type(raw, list, "mistakes", "expect_mistakes")
    if raw and visibility != "sample":
        check.fail("mistakes", "expect_no_mistakes")
    found = []
    for i, entry in enumerate(raw):
        check.type(entry, dict, f"mistakes[{i}]", "expect_object")
        check.type(entry.get("pitfall"), str, f"mistakes[{i}].pitfall", "expect_pitfall_id")
        if type(entry.get("call")) is not int or not 0 <= entry["call"] < calls:
            check.fail(f"mistakes[{i}].call", "expect_call_index", last=calls - 1)
        if "output" not in entry:
            check.fail(f"mistakes[{i}].output", "expect_mistake_output")
        found.append(Mistake(entry["pitfall"], entry["call"], untag_nonfinite(entry["output"])))
    return found


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BadInput("case_unreadable", path=path, reason=os_reason(exc, str(exc))) from None
    except UnicodeDecodeError as exc:
        raise BadInput("case_unreadable", path=path, reason=Native(str(exc), "not_python_encoding")) from None


def _parse_json(text: str, path: Path) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput("case_not_json", path=path, line=exc.lineno, column=exc.colno, reason=json_reason(exc.msg)) from None
    except ValueError:  # an integer past Python's digit limit for int() (4300): valid JSON the judge does not read
        raise BadInput("case_number_too_long", path=path) from None


def load_case(path: Path, visibility: str, methods: set[str]) -> Case:
    return parse_case(_parse_json(_read_text(path), path), path, visibility, methods)


FIELDS_FOR_THE_JUDGE = ("build_sha256", "mistakes", "translations", "permute")
"""fields of a package's case file that only the judge and its authors use: a learner who pastes a sample case
has them ignored, with a note, rather than refused"""


def load_own_case(path: Path, visibility: str, methods: set[str]) -> Case:
    """A case file a learner wrote (``judge run --case``, the site's Custom input): checked against
    :mod:`judge.package.bounds` before it is parsed further, and validated like a package's, the fields in
    :data:`FIELDS_FOR_THE_JUDGE` dropped and named in :attr:`Case.ignored`. Every problem is one line, never a traceback."""
    try:
        bounds.check_size(path.stat().st_size, path)
    except OSError as exc:
        raise BadInput("case_unreadable", path=path, reason=os_reason(exc)) from None
    text = _read_text(path)
    bounds.check_depth(text, path)
    raw = _parse_json(text, path)
    ignored = tuple(k for k in FIELDS_FOR_THE_JUDGE if isinstance(raw, dict) and k in raw)
    if ignored:
        raw = {k: v for k, v in raw.items() if k not in FIELDS_FOR_THE_JUDGE}
    case = parse_case(raw, path, visibility, methods)
    bounds.check_elements(case.objects, Checker(path))
    return dataclasses.replace(case, ignored=ignored)


def dumps(value: Any, indent: int = 0, width: int = 110) -> str:
    """JSON that keeps anything short on one line and breaks the rest, so case files stay readable in diffs."""
    flat = json.dumps(value, allow_nan=False, ensure_ascii=False)  # titles in Chinese stay readable
    if len(flat) + indent <= width or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {dumps(v, indent + 2, width)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + dumps(v, indent + 2, width) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def save_case(case: Case, raw: dict[str, Any]) -> None:
    """Write an author tool's update of a case file atomically, in a stable, diff-friendly layout."""
    tmp = case.path.with_suffix(".json.tmp")
    tmp.write_text(dumps(raw) + "\n", encoding="utf-8")
    tmp.replace(case.path)
