"""A second set of inputs, generated from the problem's own cases, to tell equivalent mutants from weak cases.

A *variant* of a case is the case with its random draws and its numbers changed, in one of four
:class:`Family` s, so that the search reaches beyond the neighbourhood of the cases:

* ``near`` (two per case): every ``seed`` in its objects drawn afresh, every float in an object's spec (a std, a
  bias value, a list of exact weights: one change per list) scaled by a factor in [e^-0.4, e^0.4], and in the
  calls' literal arguments (rule-engine inputs) every float scaled so and every integer moved by one (0 to 1:
  never below zero);
* ``wide``: seeds drawn afresh, and each float, with even odds, scaled by 10^u for u in [-3, 3]: magnitudes from
  a thousandth to a thousand times the case's;
* ``zeros``: seeds drawn afresh, and each float and each literal integer argument, with even odds, made an exact
  zero (a zero std gives exact zeros of a tensor, a zero threshold an exact tie);
* ``sizes``: one size of the case's objects (a value of their lists of integers: widths, a batch, channels,
  a kernel) made one larger, one smaller or twice as large wherever it occurs, so shapes stay consistent: other
  widths, batches and kernels.

What a variant changes is a list of :class:`Change` s, so a variant that kills a mutant can be shrunk to the few
changes that matter (:func:`shrink`): the smallest change of input an author should add as a case.

A variant is kept when it validates, keeps to the problem's ``[[domain]]`` and the reference runs on it (its
outputs are the expected values, and the lines it executes are recorded, :mod:`.coverage`); else it is drawn
again (``ATTEMPTS`` times; a ``near`` variant, last, with its seeds changed only). Before a variant's kill counts
it must also be *sound*: pass every fragility check of ``judge gen`` (:func:`judge.author.generate.check_case`),
which costs several runs of the reference and so is paid only for the variants that kill. Every draw is seeded by
the case's id, so a mutation run is reproducible.
"""

from __future__ import annotations

import copy
import math
import random
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable, Iterator

from judge.author import fragility
from judge.author.generate import check_case
from judge.author.mutation.coverage import Covering
from judge.package.build import build_objects, checksum
from judge.package.cases import Case, parse_case
from judge.package.domain import broken
from judge.package.problem import Problem

PER_CASE = 2
"""``near`` variants drawn per case"""
SCALE = 0.4
"""``near``: floats are scaled by exp(uniform(-SCALE, SCALE))"""
WIDE = 3.0
"""``wide``: floats are scaled by 10 ** uniform(-WIDE, WIDE)"""
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


def _near(value: float, rng: random.Random) -> float:
    return round(value * math.exp(rng.uniform(-SCALE, SCALE)), 6)


def _wide(value: float, rng: random.Random) -> float:
    return float(f"{value * 10 ** rng.uniform(-WIDE, WIDE):.6g}") if rng.random() < 0.5 else value


def _zero(value: Any, rng: random.Random) -> Any:
    return type(value)(0) if rng.random() < 0.5 else value


def _moved(value: int, rng: random.Random) -> int:
    """An integer one off, never negative when it was not: 0 and 1 are often flags, counts are never negative."""
    if value == 0:
        return 1
    return value + rng.choice((-1, 1))


def _kept(value: Any, rng: random.Random) -> Any:
    return value


@dataclass(frozen=True)
class Family:
    """How a variant changes a case: each float (of an object's spec or a call's literal arguments), each literal
    integer argument, and whether one size of the objects changes everywhere it occurs."""
    name: str
    float_: Callable[[float, random.Random], float]
    integer: Callable[[int, random.Random], int]
    sizes: bool = False


NEAR = Family("near", _near, _moved)
SEEDS = Family("seeds", _kept, _kept)
FAMILIES = ((NEAR, PER_CASE), (Family("wide", _wide, _kept), 1), (Family("zeros", _zero, _zero), 1),
            (Family("sizes", _kept, _kept, sizes=True), 1))
"""each family, with how many variants of it a case gets"""


def _floats(value: Any, rng: random.Random, family: Family) -> Any:
    if type(value) is float:
        return family.float_(value, rng)
    if isinstance(value, list):
        return [_floats(v, rng, family) for v in value]
    return value


def _numeric_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(
        type(v) in (int, float) or _numeric_list(v) for v in value)


def _integer_list(value: Any) -> bool:
    return _numeric_list(value) and all(type(v) is int or _integer_list(v) for v in value)


def _integers(value: Any) -> Iterator[int]:
    for item in value:
        yield from _integers(item) if isinstance(item, list) else (item,)


def _resized(value: Any, sizes: dict[int, int]) -> Any:
    return [_resized(v, sizes) for v in value] if isinstance(value, list) else sizes.get(value, value)


def _object_changes(value: Any, path: Path_, rng: random.Random, family: Family,
                    sizes: dict[int, int]) -> Iterator[Change]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "seed" and type(item) is int:
                yield Change((*path, key), item, rng.randint(*SEED_RANGE))
            else:
                yield from _object_changes(item, (*path, key), rng, family, sizes)
    elif isinstance(value, list):
        if _integer_list(value) and sizes:
            yield Change(path, value, _resized(value, sizes))
        elif _numeric_list(value):
            yield Change(path, value, _floats(value, rng, family))
        else:
            for index, item in enumerate(value):
                yield from _object_changes(item, (*path, index), rng, family, sizes)
    elif type(value) is float:
        yield Change(path, value, family.float_(value, rng))


def _argument_changes(value: Any, path: Path_, rng: random.Random, family: Family) -> Iterator[Change]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _argument_changes(item, (*path, key), rng, family)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _argument_changes(item, (*path, index), rng, family)
    elif type(value) is float:
        yield Change(path, value, family.float_(value, rng))
    elif type(value) is int:
        yield Change(path, value, family.integer(value, rng))


def _sizes(objects: Any, rng: random.Random) -> dict[int, int]:
    """One size of ``objects`` (a value of their lists of integers) and what it becomes."""
    found: set[int] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif _integer_list(value):
            found.update(_integers(value))
        elif isinstance(value, list):
            for item in value:
                walk(item)
    walk(objects)
    sizes = sorted(v for v in found if v > 0)
    if not sizes:
        return {}
    size = rng.choice(sizes)
    return {size: rng.choice([size + 1, 2 * size] + ([size - 1] if size > 1 else []))}


def draw(case: Case, rng: random.Random, family: Family = NEAR) -> list[Change]:
    """Random changes of ``case``: its seeds, and its numbers as ``family`` changes them."""
    objects = case.raw.get("objects", {})
    sizes = _sizes(objects, rng) if family.sizes else {}
    changes = list(_object_changes(objects, ("objects",), rng, family, sizes))
    for i, call in enumerate(case.raw["calls"]):
        for j, arg in enumerate(call["args"]):
            if not (isinstance(arg, str) and arg.startswith("$")):
                changes += _argument_changes(arg, ("calls", i, "args", j), rng, family)
    return [c for c in changes if c.after != c.before]


def _numeric_arguments(value: Any, path: Path_) -> Iterator[tuple[Path_, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _numeric_arguments(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _numeric_arguments(item, (*path, index))
    elif type(value) in (int, float):
        yield path, value


def probes(case: Case, index: int, values: tuple[float, ...]) -> list[Change]:
    """Single changes that set one number of call ``index``'s literal arguments to one of ``values`` (an integer
    only to an integer): boundary inputs aimed at one mutant (:func:`.mutants.boundary_values`)."""
    found = []
    for j, arg in enumerate(case.raw["calls"][index]["args"]):
        if isinstance(arg, str) and arg.startswith("$"):
            continue
        for path, before in _numeric_arguments(arg, ("calls", index, "args", j)):
            for value in values:
                if type(before) is float or float(value).is_integer():
                    new = type(before)(value)
                    found += [Change(path, before, new)] if new != before else []
    return found


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
    lines: frozenset[int]
    """the lines of the reference its calls execute"""
    call: int | None = None
    """when it keeps only one call of ``origin``: that call's index there"""
    per_call: tuple[frozenset[int], ...] = ()
    """the lines each of its calls executes"""


def one_call(raw: dict[str, Any], index: int) -> dict[str, Any]:
    """The case file ``raw`` with only its call ``index``, and only the objects that call uses."""
    call = raw["calls"][index]
    used = {a[1:] for a in call["args"] if isinstance(a, str) and a.startswith("$")}
    new = {**raw, "calls": [call], "objects": {k: v for k, v in raw.get("objects", {}).items() if k in used}}
    if "permute" in raw:
        new["permute"] = [name for name in raw["permute"] if name in used]
    return new


def build(problem: Problem, covering: Covering, origin: Case, changes: list[Change], name: str,
          call: int | None = None) -> Variant | None:
    """``origin`` with ``changes`` (and only its call ``call``, when given), carrying the reference's outputs as
    its expected values, or None when it does not validate, build or run, or leaves the problem's ``[[domain]]``.
    Not yet checked for fragility: see :func:`is_sound`."""
    raw = applied(origin.raw, changes)
    raw = raw if call is None else one_call(raw, call)
    if broken(problem.domain, raw):
        return None  # an input the statement rules out tells nothing about the cases
    path, methods = origin.path.with_name(f"{name}.json"), {m["name"] for m in problem.methods}
    try:
        case = parse_case(raw, path, "hidden", methods)
        raw["build_sha256"] = checksum(build_objects(case.objects))
        outputs, per_call = covering.run(parse_case(raw, path, "hidden", methods))
    except Exception:  # noqa: BLE001 -- a spec the kinds refuse, cannot build (a negative std) or the reference refuses
        return None
    if fragility.bad_outputs(case.id, outputs, [c["method"] for c in case.calls]):
        return None
    raw["expected"] = {"cpu": {"outputs": outputs}}
    return Variant(origin, changes, parse_case(raw, path, "hidden", methods), frozenset().union(*per_call), call,
                   tuple(per_call))


def _uses(change: Change, raw: dict[str, Any], index: int) -> bool:
    """Whether ``change`` of a case file reaches its call ``index`` (its arguments, or an object it is given)."""
    if change.path[0] == "calls":
        return change.path[1] == index
    return f"${change.path[1]}" in raw["calls"][index]["args"]


def calls_of(problem: Problem, whole: Variant) -> list[Variant]:
    """A variant of a whole case, split into one variant per call, each with the changes that reach it (a call
    that none reaches is the original's, and is left out). Each is judged alone, so a mutant that one call runs
    is judged on that call only."""
    found, methods = [], {m["name"] for m in problem.methods}
    raw = {k: v for k, v in whole.case.raw.items() if k not in GENERATED}
    for index, (output, lines) in enumerate(zip(whole.case.outputs("cpu"), whole.per_call)):
        changes = [c for c in whole.changes if _uses(c, raw, index)]
        if not changes:
            continue
        single = one_call(raw, index)
        path = whole.case.path.with_name(f"{whole.case.name}.{index}.json")
        single["build_sha256"] = checksum(build_objects(parse_case(single, path, "hidden", methods).objects))
        single["expected"] = {"cpu": {"outputs": [output]}}
        found.append(Variant(whole.origin, changes, parse_case(single, path, "hidden", methods), lines, index))
    return found


def is_sound(problem: Problem, module: ModuleType, case: Case) -> bool:
    """Whether ``case`` passes every fragility check of ``judge gen`` (run for a variant that kills a mutant,
    before the kill counts: a fragile input could fail a mutant by noise alone)."""
    checked = check_case(problem, module, case)
    return checked.expected is not None and not checked.errors


def variants(problem: Problem, covering: Covering) -> list[Variant]:
    """The variants of every :data:`FAMILIES` member of every case of ``problem`` that build and run (fewer
    where none could be drawn), one per call (:func:`calls_of`). A drawn change that alone leaves the
    ``[[domain]]`` is left out, so the rest of the variant is still tried."""
    found = []
    for case in problem.cases:
        for family, count in FAMILIES:
            for k in range(count):
                made = _variant(problem, covering, case, family, k)
                found += calls_of(problem, made) if made is not None else []
    return found


def _variant(problem: Problem, covering: Covering, case: Case, family: Family, k: int) -> Variant | None:
    near = family is NEAR
    tag = f"{k + 1}" if near else f"{family.name}{k + 1}"
    for attempt in range(ATTEMPTS + near):  # a near variant's last try changes its seeds only
        seed = f"{case.id}:{k}:{attempt}" if near else f"{case.id}:{family.name}{k}:{attempt}"
        drawn = draw(case, random.Random(seed), SEEDS if attempt == ATTEMPTS else family)
        changes = [c for c in drawn if not broken(problem.domain, applied(case.raw, [c]))]
        made = build(problem, covering, case, changes, f"{case.visibility}.{case.name}~{tag}") if changes else None
        if made is not None:
            return made
    return None


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
