"""The state a model arrives in, common to every model kind: stale gradients, frozen parameters, its mode.

* ``stale_grad``: an INIT, plus ``inject`` (``[{"param": "2.weight", "index": 5, "value": "inf"}]``: the flat,
  row-major entry set to ``"inf"``, ``"-inf"`` or ``"nan"``, strings because JSON has none of them) and ``none``
  (parameter names whose ``.grad`` stays ``None``). Every parameter's gradient is drawn, in
  ``named_parameters()`` order, before any is dropped, so naming one in ``none`` leaves the others unchanged.
* ``frozen``: parameter names built with ``requires_grad=False``; a frozen parameter's ``.grad`` is ``None``.
* ``mode``: ``"train"`` (PyTorch's default) or ``"eval"``, set on the whole model.
"""

from __future__ import annotations

import math
from typing import Any

from judge.package.kinds.base import Checker, say_in
from judge.package.kinds.inits import cast_code, describe_init, draw, draw_code, validate_init
from judge.package.kinds.lazy import nn, torch

FIELDS = frozenset({"stale_grad", "frozen", "mode"})
MODES = ("train", "eval")
NONFINITE = {"inf": float("inf"), "-inf": float("-inf"), "nan": float("nan")}


def validate_state(spec: dict[str, Any], where: str, check: Checker, params: dict[str, list[int]]) -> None:
    """``params``: the model's parameter names and shapes, as the layer kinds declare them."""
    frozen = check.names(spec.get("frozen", []), params, f"{where}.frozen", "word_parameters")
    if "stale_grad" in spec:
        stale = validate_init(spec["stale_grad"], f"{where}.stale_grad", check, None, {"inject", "none"})
        if stale["init"] == "values":
            check.fail(f"{where}.stale_grad.init", "expect_stale_scheme")
        for i, entry in enumerate(check.type(stale.get("inject", []), list, f"{where}.stale_grad.inject",
                                             "expect_inject_list")):
            at = f"{where}.stale_grad.inject[{i}]"
            check.type(entry, dict, at, "expect_inject_object")
            check.fields(entry, {"param", "index", "value"}, at)
            name = entry.get("param")
            if name not in params:
                check.one_of_the(f"{at}.param", "word_parameters", params, name)
            size = math.prod(params[name])
            check.integer(entry.get("index"), f"{at}.index", 0, size - 1)
            check.choice(entry.get("value"), NONFINITE, f"{at}.value")
        none = check.names(stale.get("none", []), params, f"{where}.stale_grad.none", "word_parameters")
        cleared = set(frozen) | set(none)
        for i, entry in enumerate(stale.get("inject", [])):
            if entry["param"] in cleared:
                check.fail(f"{where}.stale_grad.inject[{i}].param", "expect_grad_kept")
    check.choice(spec.get("mode", "train"), MODES, f"{where}.mode")


def apply_state(model: nn.Module, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
    frozen = set(spec.get("frozen", []))
    stale = spec.get("stale_grad")
    if stale is not None:
        cleared = frozen | set(stale.get("none", []))
        for name, p in model.named_parameters():
            grad = draw(stale, list(p.shape), gen).float()
            p.grad = None if name in cleared else grad
        params = dict(model.named_parameters())
        for entry in stale.get("inject", []):
            params[entry["param"]].grad.view(-1)[entry["index"]] = NONFINITE[entry["value"]]
    for name, p in model.named_parameters():
        if name in frozen:
            p.requires_grad_(False)
    return model.train(spec.get("mode", "train") == "train")


def state_code(spec: dict[str, Any], name: str) -> list[str]:
    """:func:`apply_state` as statements on the model ``name``: the same draws from ``gen``, in its order."""
    lines = []
    frozen = spec.get("frozen", [])
    stale = spec.get("stale_grad")
    if stale is not None:
        init = {k: v for k, v in stale.items() if k not in ("inject", "none")}
        lines += [f"for p in {name}.parameters():  # .grad left by an earlier backward pass: {describe_init(init)}",
                  f"    p.grad = {cast_code(draw_code(stale, 'p.shape'))}", ""]
        lines += [f"{name}.get_parameter({param!r}).grad = None"
                  for param in dict.fromkeys([*frozen, *stale.get("none", [])])]
        lines += [f"{name}.get_parameter({e['param']!r}).grad.view(-1)[{e['index']}] = float({e['value']!r})"
                  for e in stale.get("inject", [])]
    lines += [f"{name}.get_parameter({param!r}).requires_grad_(False)" for param in frozen]
    return lines + ([f"{name}.eval()"] if spec.get("mode", "train") == "eval" else [])


def describe_state(spec: dict[str, Any], lang: str = "en") -> str:
    """What the model arrives with, after its structure, in ``lang``; empty when nothing departs from a fresh
    model."""
    text = ""
    stale = spec.get("stale_grad")
    if stale is not None:
        init = {k: v for k, v in stale.items() if k not in ("inject", "none")}
        text += say_in(lang, "describe_stale_grad", init=describe_init(init, lang))
        for entry in stale.get("inject", []):
            text += say_in(lang, "describe_stale_inject", param=entry["param"], index=entry["index"],
                           value=entry["value"])
        if stale.get("none"):
            text += say_in(lang, "describe_grad_none", names=", ".join(stale["none"]))
    if spec.get("frozen"):
        text += say_in(lang, "describe_frozen", names=", ".join(spec["frozen"]))
    if "mode" in spec:
        text += say_in(lang, "describe_mode", mode=spec["mode"])
    return text
