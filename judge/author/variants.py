"""A second set of inputs, generated from the problem's own cases, to tell equivalent mutants from weak cases.

A *variant* of a case is the case with its random draws and its numbers changed: every ``seed`` in its objects
is drawn afresh, every float in an object's spec (a std, a bias value, a list of exact weights: one change per
list) is scaled by a factor in [e^-0.4, e^0.4], and in the calls' literal arguments (rule-engine inputs) every
float is scaled so and every integer moved by one. What a variant changes is a list of :class:`Change` s, so a
variant that kills a mutant can be shrunk to the few changes that matter (:func:`shrink`): the smallest change of
input an author should add as a case.

A variant is *sound* when it validates, the reference runs on it and it passes every fragility check of
``judge gen`` (:func:`judge.author.generate.check_case`), whose expected values it then carries; a variant that is
not sound is drawn again (``ATTEMPTS`` times), then with its seeds changed only. Every draw is seeded by the
case's id, so a mutation run is reproducible.
"""

from __future__ import annotations

import copy
import math
import random
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable, Iterator

from judge.author.generate import check_case
from judge.package.build import build_objects, checksum
from judge.package.cases import Case, parse_case
from judge.package.problem import Problem

PER_CASE = 2
"""variants drawn per case"""
SCALE = 0.4
"""floats are scaled by exp(uniform(-SCALE, SCALE))"""
ATTEMPTS = 3
SEED_RANGE = (1, 99_999)
GENERATED = ("build_sha256", "expected", "mistakes", "translations")
"""what a case file holds that a variant does not inherit (``judge gen`` writes the first three anew)"""

Path_ = tuple[Any, ...]
"""keys and indices from the top of a case file to one value"""


@dataclass(frozen=True)
class Change:
    path: Path_
    before: Any
    after: Any

    @property
    def where(self) -> str:
        """``objects.model.seed``, ``calls[2].args[0][1]``"""
        text = ""
        for key in self.path:
            text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else str(key))
        return text

    def __str__(self) -> str:
        return f"{self.where}: {_show(self.before)} -> {_show(self.after)}"


def _show(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, list):
        return "[" + ", ".join(map(_show, value)) + "]"
    return repr(value)


def _scaled(value: Any, rng: random.Random) -> Any:
    """A number scaled (floats only: integers in an object's spec are sizes, indices or integer data)."""
    if type(value) is float:
        return round(value * math.exp(rng.uniform(-SCALE, SCALE)), 6)
    if isinstance(value, list):
        return [_scaled(v, rng) for v in value]
    return value


def _numeric_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(
        type(v) in (int, float) or _numeric_list(v) for v in value)


def _object_changes(value: Any, path: Path_, rng: random.Random, seeds_only: bool) -> Iterator[Change]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "seed" and type(item) is int:
                yield Change((*path, key), item, rng.randint(*SEED_RANGE))
            elif not seeds_only:
                yield from _object_changes(item, (*path, key), rng, seeds_only)
    elif isinstance(value, list) and not seeds_only:
        if _numeric_list(value):
            yield Change(path, value, _scaled(value, rng))
        else:
            for index, item in enumerate(value):
                yield from _object_changes(item, (*path, index), rng, seeds_only)
    elif type(value) is float and not seeds_only:
        yield Change(path, value, _scaled(value, rng))


def _argument_changes(value: Any, path: Path_, rng: random.Random) -> Iterator[Change]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _argument_changes(item, (*path, key), rng)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _argument_changes(item, (*path, index), rng)
    elif type(value) is float:
        yield Change(path, value, _scaled(value, rng))
    elif type(value) is int:
        yield Change(path, value, value + rng.choice((-1, 1)))


def draw(case: Case, rng: random.Random, seeds_only: bool = False) -> list[Change]:
    """Random changes of ``case``: its seeds, and (unless ``seeds_only``) its numbers."""
    changes = list(_object_changes(case.raw.get("objects", {}), ("objects",), rng, seeds_only))
    if not seeds_only:
        for i, call in enumerate(case.raw["calls"]):
            for j, arg in enumerate(call["args"]):
                if not (isinstance(arg, str) and arg.startswith("$")):
                    changes += _argument_changes(arg, ("calls", i, "args", j), rng)
    return [c for c in changes if c.after != c.before]


def applied(raw: dict[str, Any], changes: list[Change]) -> dict[str, Any]:
    """The case file ``raw`` with ``changes`` made and nothing ``judge gen`` writes."""
    new = copy.deepcopy({k: v for k, v in raw.items() if k not in GENERATED})
    for change in changes:
        target = new
        for key in change.path[:-1]:
            target = target[key]
        target[change.path[-1]] = copy.deepcopy(change.after)
    return new


@dataclass(frozen=True)
class Variant:
    origin: Case
    changes: list[Change]
    case: Case
    """the changed case, with the reference's CPU expectations"""


def sound(problem: Problem, module: ModuleType, origin: Case, changes: list[Change], name: str) -> Case | None:
    """``origin`` with ``changes``, carrying its expected values, or None when it is not a sound case."""
    raw = applied(origin.raw, changes)
    path, methods = origin.path.with_name(f"{name}.json"), {m["name"] for m in problem.methods}
    try:
        case = parse_case(raw, path, "hidden", methods)
        raw["build_sha256"] = checksum(build_objects(case.objects))
    except Exception:  # noqa: BLE001 -- a spec the kinds refuse, or cannot build (a negative std): not sound
        return None
    checked = check_case(problem, module, parse_case(raw, path, "hidden", methods))
    if checked.expected is None or checked.errors:
        return None
    raw["expected"] = {"cpu": {"outputs": checked.expected}}
    return parse_case(raw, path, "hidden", methods)


def variants(problem: Problem, module: ModuleType, per_case: int = PER_CASE) -> list[Variant]:
    """``per_case`` sound variants of every case of ``problem`` (fewer where none could be drawn)."""
    found = []
    for case in problem.cases:
        for k in range(per_case):
            name = f"{case.name}~{k + 1}"
            for attempt in range(ATTEMPTS + 1):
                rng = random.Random(f"{case.id}:{k}:{attempt}")
                changes = draw(case, rng, seeds_only=attempt == ATTEMPTS)
                made = sound(problem, module, case, changes, name) if changes else None
                if made is not None:
                    found.append(Variant(case, changes, made))
                    break
    return found


def shrink(changes: list[Change], kills: Callable[[list[Change]], bool]) -> list[Change]:
    """A smaller list of ``changes`` that still ``kills``: chunks of halving size are taken back while the rest
    still kills (``changes`` itself kills; the empty list, the original case, does not)."""
    kept, chunk = list(changes), max(1, len(changes) // 2)
    while True:
        i = 0
        while i < len(kept) and len(kept) > 1:
            trial = kept[:i] + kept[i + chunk:]
            if trial and kills(trial):
                kept = trial
            else:
                i += chunk
        if chunk == 1:
            return kept
        chunk = max(1, chunk // 2)
