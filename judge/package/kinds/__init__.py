"""Every kind of object a case may ask for, in one registry (``docs/kinds.md`` shows each with an example).

Families, each a registry of small declarative classes or records:

* object kinds (:data:`OBJECTS`): ``mlp``, ``net``, ``branched`` (:mod:`.models`), ``tensor``, ``labels``
  (:mod:`.values`), ``optimizer``, ``training`` (:mod:`.configs`);
* layer kinds (:data:`LAYERS`): ``linear``, ``act``, ``batchnorm1d``, ``layernorm``, ``dropout`` (:mod:`.layers`),
  ``conv2d``, ``maxpool2d``, ``flatten`` (:mod:`.conv`), ``custom`` (:mod:`.custom`);
* activations (:data:`ACTIVATIONS`, :mod:`.activations`), the values of an ``act`` layer;
* INIT schemes (:data:`SCHEMES`, :mod:`.inits`);
* the state a model arrives in (:mod:`.state`): ``stale_grad`` (with ``inject`` and ``none``), ``frozen``, ``mode``.

Each kind validates its JSON (errors name the file and the field), builds it in the worker (float64 from a
private ``torch.Generator`` seeded by the spec, then cast to float32), describes it in plain language, writes
itself as Python that builds it bit for bit (``judge show SLUG --code``), feeds the build checksum
(:mod:`.digest`) and, for modules, tells the generator where float32 is fragile (:func:`hazards`).
Adding a kind is one class in one of these modules plus its example in ``docs/kinds.md`` and its tests.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from judge.package.kinds import configs, conv, custom, digest, layers, models, values  # noqa: F401 -- they register
from judge.package.kinds.activations import ACTIVATIONS, by_module
from judge.package.kinds.base import LAYERS, OBJECTS, Checker, Code, Hazard
from judge.package.kinds.custom import BUGS
from judge.package.kinds.inits import SCHEMES

if TYPE_CHECKING:
    from torch import nn

__all__ = ["ACTIVATIONS", "BUGS", "LAYERS", "OBJECTS", "SCHEMES", "Checker", "Code", "Hazard", "build_object",
           "conceal", "describe_object", "digest", "hazards", "object_code", "reveal", "seals", "tampered",
           "validate_object", "validate_objects"]


def validate_object(spec: Any, where: str, check: Checker) -> None:
    """Check one object spec, failing on the first wrong field."""
    check.type(spec, dict, where, "expect_object_spec")
    kind = OBJECTS[check.choice(spec.get("kind"), OBJECTS, f"{where}.kind")]
    check.fields(spec, {"kind", *kind.fields}, where)
    kind.validate(spec, where, check)


def validate_objects(objects: dict[str, Any], path: Path) -> None:
    """Check every object of a case file at ``path`` (``objects.<name>`` in the errors)."""
    check = Checker(path)
    for name, spec in objects.items():
        validate_object(spec, f"objects.{name}", check)


def build_object(spec: dict[str, Any]) -> Any:
    """A validated spec, built on the CPU: a module, a tensor or a plain dict."""
    return OBJECTS[spec["kind"]].build(spec)


def conceal(objects: dict[str, Any]) -> tuple[dict[str, Any], list[float]]:
    """Validated object specs as they travel to a worker, and the hidden values they stand on: every setting
    that decides an answer by itself and that the built object does not show (a custom layer's bug, a branched
    head's wiring) is a number sent apart, as raw bytes (:func:`judge.worker.protocol.encode_request`), never as
    text a submission could find in its memory."""
    hidden: list[float] = []
    return {name: OBJECTS[spec["kind"]].conceal(spec, hidden) for name, spec in objects.items()}, hidden


def reveal(objects: dict[str, Any], hidden: tuple[float, ...]) -> dict[str, Any]:
    """The specs :func:`conceal` hid, whole again, in the worker that builds them."""
    return {name: OBJECTS[spec["kind"]].reveal(spec, hidden) for name, spec in objects.items()}


def seals(objects: dict[str, Any]) -> list[tuple[Any, str, Any]]:
    """What a call must leave as it was built: the code each judge-built module runs (a custom layer's backward
    rule, a branched model's routes), named by its class's ``sealed``, as ``(module, attribute, value)``."""
    from torch import nn  # the worker's objects: torch is imported there

    return [(module, name, _held(module.__dict__.get(name)))
            for obj in objects.values() if isinstance(obj, nn.Module)
            for module in obj.modules() for name in getattr(type(module), "sealed", ())]


def _held(value: Any) -> Any:
    return tuple(value.items()) if isinstance(value, dict) else value


def tampered(sealed: list[tuple[Any, str, Any]]) -> bool:
    """Whether a module of :func:`seals` now runs other code than it was built with. A tripwire, not a boundary:
    the submission runs in the same process and could put the code back before the call returns."""
    def same(now: Any, was: Any) -> bool:
        if isinstance(was, tuple):
            return isinstance(now, tuple) and len(now) == len(was) and all(
                a[0] == b[0] and a[1] is b[1] for a, b in zip(now, was))
        return now is was

    return not all(same(_held(module.__dict__.get(name)), was) for module, name, was in sealed)


def describe_object(spec: dict[str, Any], lang: str = "en") -> str:
    """One line of plain language for statements and the reports of visible cases."""
    return OBJECTS[spec["kind"]].describe(spec, lang)


def object_code(spec: dict[str, Any], name: str) -> Code | None:
    """Python that builds the object into the variable ``name`` bit for bit as :func:`build_object` does, or None
    where that code would show what the object hides (``judge show SLUG --code``)."""
    return OBJECTS[spec["kind"]].code(spec, name)


def hazards(module: nn.Module) -> Hazard | None:
    """Where ``module``'s float32 output is fragile (kinks, underflow), or None: the generator hooks every
    module for which this is not None. Judge-built modules (custom autograd layers) carry a ``hazard``."""
    activation = by_module(type(module))
    if activation is not None:
        return activation.hazard(module)
    hazard = getattr(type(module), "hazard", None)
    return hazard if isinstance(hazard, Hazard) else None
