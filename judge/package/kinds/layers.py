"""Layer kinds: the entries of a model's ``layers`` list. The key that names the kind holds its size.

Here: ``linear``, ``act``, ``batchnorm1d``, ``layernorm``, ``dropout``, the helpers every layer kind shares, and
how a layer spec finds its kind; image layers are in :mod:`.conv`, the ``custom`` layer in :mod:`.custom`.

A layer's parameters (and buffers) are drawn in order from the model's generator, in float64, then cast to
float32; parameters a spec leaves out get PyTorch's own initialisation for that layer (``{"init": "default"}``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from judge.package.kinds.activations import ACTIVATIONS
from judge.package.kinds.base import LAYERS, Checker, LayerKind, say_in
from judge.package.kinds.inits import (cast_code, describe_init, draw, draw_code, flat_values, size_code,
                                       validate_init)
from judge.package.kinds.lazy import nn, torch

DEFAULT = {"init": "default"}
ONES = {"init": "constant", "value": 1.0}
ZEROS = {"init": "zeros"}


def _init(spec: dict[str, Any], part: str, default: dict[str, Any] = DEFAULT) -> dict[str, Any]:
    """The INIT for ``part``; ``default`` stands in for a missing one and for ``{"init": "default"}``."""
    init = spec.get(part, DEFAULT)
    return default if init["init"] == "default" else init


def draw_part(spec: dict[str, Any], part: str, shape: list[int], gen: torch.Generator, fans: tuple[int, int],
              default: dict[str, Any] = DEFAULT) -> torch.Tensor:
    """A layer's ``part`` (``weight``, ``bias``, a buffer) drawn from its INIT in float64, cast to float32."""
    return draw(_init(spec, part, default), shape, gen, *fans).float()


def part_code(spec: dict[str, Any], part: str, shape: list[int], at: str, fans: tuple[int, int],
              default: dict[str, Any] = DEFAULT, preset: dict[str, Any] | None = None) -> list[str]:
    """:func:`draw_part` as a statement that sets ``at.part`` (under ``torch.no_grad()``); none when the INIT is
    ``preset``, the value PyTorch's constructor gives the part (LayerNorm's weight: ones), which draws nothing."""
    init = _init(spec, part, default)
    if init == preset:
        return []
    note = f": PyTorch's own, U(±1/√{fans[0]})" if init["init"] == "default" else ""
    return [f"{at}.{part}.copy_({cast_code(draw_code(init, size_code(shape), *fans))})  # {describe_init(init)}{note}"]


def validate_parts(spec: dict[str, Any], where: str, check: Checker, parts: dict[str, list[int]]) -> None:
    """Each INIT a layer spec gives for one of its ``parts`` (name -> shape) is valid for that shape."""
    for part, shape in parts.items():
        if part in spec:
            validate_init(spec[part], f"{where}.{part}", check, shape)


def has_bias(spec: dict[str, Any]) -> bool:
    """Whether a layer spec builds a bias: ``"bias": false`` builds the layer with ``bias=False``."""
    return spec.get("bias") is not False


def validate_weight_and_bias(spec: dict[str, Any], where: str, check: Checker, weight: list[int],
                             bias: list[int]) -> None:
    """A layer's ``weight`` INIT, and its ``bias``: an INIT, or ``false`` for a layer built without one."""
    if spec.get("bias") is not False and not isinstance(spec.get("bias", {}), dict):
        check.fail(f"{where}.bias", "expect_init_or_false")
    validate_parts(spec, where, check, {"weight": weight, **({"bias": bias} if has_bias(spec) else {})})


def bias_argument(spec: dict[str, Any]) -> str:
    """``, bias=False`` for a constructor's source where the spec has no bias, else nothing."""
    return "" if has_bias(spec) else ", bias=False"


def describe_parts(spec: dict[str, Any], parts: tuple[str, ...],
                    defaults: dict[str, dict[str, Any]] | None = None, lang: str = "en") -> str:
    """``weight kaiming_normal, bias zeros``; a part whose default is not PyTorch's fan-based one is described as
    what it draws (BatchNorm's weight: ``constant(value=1.0)``); a bias the layer is built without, ``no bias``."""
    defaults = defaults or {}
    return ", ".join(say_in(lang, "describe_no_bias") if spec.get(part) is False else
                     f"{part} {describe_init(_init(spec, part, defaults.get(part, DEFAULT)), lang)}" for part in parts)


def validate_linear(spec: dict[str, Any], where: str, check: Checker) -> None:
    """``[in, out]``, a ``weight`` INIT and a ``bias``: an INIT or ``false``."""
    check.dims(spec.get("linear"), f"{where}.linear", count=2)
    fan_in, fan_out = spec["linear"]
    validate_weight_and_bias(spec, where, check, [fan_out, fan_in], [fan_out])


def linear_parameters(spec: dict[str, Any]) -> list[tuple[str, list[int]]]:
    fan_in, fan_out = spec["linear"]
    return [("weight", [fan_out, fan_in])] + ([("bias", [fan_out])] if has_bias(spec) else [])


def filled(layer_class: type, parts: dict[str, torch.Tensor], *args: Any, **kwargs: Any) -> nn.Module:
    """``layer_class(*args, **kwargs)`` with ``parts`` as its parameters: built on the meta device, so its own
    initialisation neither draws from torch's global generator nor allocates, then every parameter set. (Faster
    than ``nn.utils.skip_init``, whose ``to_empty`` goes through torch's Python decompositions: 114 against 278 µs
    for a ``Linear(64, 32)``, and the judge builds thousands of layers a run.)"""
    layer = layer_class(*args, device="meta", **kwargs)
    for name, value in parts.items():
        setattr(layer, name, nn.Parameter(value))
    left = [name for name, value in layer.named_parameters() if value.is_meta]
    assert not left, f"{layer_class.__name__} built without {left}"
    return layer


def linear_tensors(spec: dict[str, Any], gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor | None]:
    """The weight, then the bias (None without one), drawn in that order."""
    fans = tuple(spec["linear"])
    weight = draw_part(spec, "weight", [fans[1], fans[0]], gen, fans)
    return weight, draw_part(spec, "bias", [fans[1]], gen, fans) if has_bias(spec) else None


def linear_code(spec: dict[str, Any], at: str) -> list[str]:
    """:func:`linear_tensors` as statements that set the layer ``at``."""
    fans = tuple(spec["linear"])
    bias = part_code(spec, "bias", [fans[1]], at, fans) if has_bias(spec) else []
    return part_code(spec, "weight", [fans[1], fans[0]], at, fans) + bias


@LAYERS.register
class Linear(LayerKind):
    key = "linear"
    fields = frozenset({"weight", "bias"})
    summary = "nn.Linear(in, out)"

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        validate_linear(spec, where, check)

    def parameters(self, spec: dict[str, Any]) -> list[tuple[str, list[int]]]:
        return linear_parameters(spec)

    def build(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        weight, bias = linear_tensors(spec, gen)
        parts = {"weight": weight} if bias is None else {"weight": weight, "bias": bias}
        return filled(nn.Linear, parts, *spec["linear"], bias=bias is not None)

    def describe(self, spec: dict[str, Any], lang: str = "en") -> str:
        fan_in, fan_out = spec["linear"]
        return f"Linear({fan_in}, {fan_out}; {describe_parts(spec, ('weight', 'bias'), lang=lang)})"

    def constructor(self, spec: dict[str, Any]) -> str:
        return "nn.Linear({}, {}{})".format(*spec["linear"], bias_argument(spec))

    def fill(self, spec: dict[str, Any], at: str) -> list[str]:
        return linear_code(spec, at)


@LAYERS.register
class Act(LayerKind):
    key = "act"
    fields = frozenset({p for a in ACTIVATIONS.values() for p in a.params})
    summary = "an activation module"

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        act = ACTIVATIONS[check.choice(spec.get("act"), ACTIVATIONS, f"{where}.act")]
        check.fields(spec, {"act", *act.params}, where)
        for key in act.params:
            if key in act.counts:
                check.integer(spec.get(key, act.params[key]), f"{where}.{key}", low=1)
            elif key in spec:
                check.number(spec[key], f"{where}.{key}")
        values = [spec.get(key, act.params[key]) for key in act.increasing]
        for i in range(1, len(values)):
            if not values[i - 1] < values[i]:
                below = act.increasing[i - 1]
                check.fail(f"{where}.{act.increasing[i]}", "expect_number_above", name=below, value=values[i - 1])

    def parameters(self, spec: dict[str, Any]) -> list[tuple[str, list[int]]]:
        return ACTIVATIONS[spec["act"]].parameters(spec)

    def build(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        return ACTIVATIONS[spec["act"]].build(spec)

    def describe(self, spec: dict[str, Any], lang: str = "en") -> str:
        return ACTIVATIONS[spec["act"]].describe(spec)

    def constructor(self, spec: dict[str, Any]) -> str:
        return ACTIVATIONS[spec["act"]].code(spec)


class _Norm(LayerKind):
    """Affine weight (default 1) and bias (default 0) over a feature shape; ``"affine": false`` builds the layer
    without them (BatchNorm's ``affine=False``, LayerNorm's ``elementwise_affine=False``)."""

    AFFINE: ClassVar[str]
    """the constructor's keyword that switches the affine parameters off"""

    DEFAULTS: ClassVar[dict[str, dict[str, Any]]] = {
        "weight": ONES, "bias": ZEROS, "running_mean": ZEROS, "running_var": ONES}
    """PyTorch's own initial values, which ``{"init": "default"}`` stands for here"""

    def shape(self, spec: dict[str, Any]) -> list[int]:
        raise NotImplementedError

    @staticmethod
    def has_affine(spec: dict[str, Any]) -> bool:
        return spec.get("affine", True)

    def validate_affine(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        """``affine`` is true or false, and a layer without affine parameters gives no INIT for them."""
        check.type(spec.get("affine", True), bool, f"{where}.affine", "expect_bool")
        for part in ("weight", "bias"):
            if not self.has_affine(spec) and part in spec:
                check.fail(f"{where}.{part}", "expect_no_affine_parts")

    def parts(self, spec: dict[str, Any]) -> tuple[str, ...]:
        """What the layer holds, in drawing order: the affine parameters (where it has them), then the running
        statistics (where the kind has them)."""
        return tuple(part for part in self.DEFAULTS if part in self.fields
                     and (self.has_affine(spec) or part not in ("weight", "bias")))

    def parameters(self, spec: dict[str, Any]) -> list[tuple[str, list[int]]]:
        return [(part, self.shape(spec)) for part in ("weight", "bias") if part in self.parts(spec)]

    def affine(self, layer: nn.Module, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        shape = self.shape(spec)
        fans = (shape[-1], shape[-1])
        for part, _ in self.parameters(spec):
            setattr(layer, part, nn.Parameter(draw_part(spec, part, shape, gen, fans, self.DEFAULTS[part])))
        return layer

    def fill(self, spec: dict[str, Any], at: str) -> list[str]:
        """Every part :meth:`build` draws, in its order, each skipped where it is the constructor's own value."""
        shape = self.shape(spec)
        return [line for part in self.parts(spec)
                for line in part_code(spec, part, shape, at, (shape[-1],) * 2, self.DEFAULTS[part],
                                      self.DEFAULTS[part])]

    def describe_affine(self, spec: dict[str, Any], lang: str = "en") -> str:
        """``; weight ..., bias ...`` as the layer draws them, with the keyword where it has none."""
        switched = "" if self.has_affine(spec) else f", {self.AFFINE}=False"
        return f"{switched}; {describe_parts(spec, self.parts(spec), self.DEFAULTS, lang)}".rstrip("; ")

    def affine_argument(self, spec: dict[str, Any]) -> str:
        return "" if self.has_affine(spec) else f", {self.AFFINE}=False"


@LAYERS.register
class BatchNorm1d(_Norm):
    key = "batchnorm1d"
    fields = frozenset({"weight", "bias", "running_mean", "running_var", "momentum", "eps", "affine"})
    summary = "nn.BatchNorm1d(features) with preset running statistics"
    AFFINE = "affine"

    def shape(self, spec: dict[str, Any]) -> list[int]:
        return [spec["batchnorm1d"]]

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        check.integer(spec.get("batchnorm1d"), f"{where}.batchnorm1d", low=1)
        shape = self.shape(spec)
        self.validate_affine(spec, where, check)
        validate_parts(spec, where, check, dict.fromkeys(self.DEFAULTS, shape))
        check.number(spec.get("momentum", 0.1), f"{where}.momentum", 0.0, 1.0)
        check.number(spec.get("eps", 1e-5), f"{where}.eps", 0.0, strict_low=True)
        var = spec.get("running_var", DEFAULT)
        positive = var["init"] == "default" or var["init"] in ("constant", "values") and all(
            v > 0 for v in flat_values(var)) or var["init"] == "uniform" and var.get("low", -1.0) > 0
        if not positive:
            check.fail(f"{where}.running_var", "expect_positive_variances")

    def build(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        layer = self.affine(nn.BatchNorm1d(spec["batchnorm1d"], spec.get("eps", 1e-5), spec.get("momentum", 0.1),
                                           self.has_affine(spec)), spec, gen)
        shape, fans = self.shape(spec), (spec["batchnorm1d"],) * 2
        for part in ("running_mean", "running_var"):
            getattr(layer, part).copy_(draw_part(spec, part, shape, gen, fans, self.DEFAULTS[part]))
        return layer

    def describe(self, spec: dict[str, Any], lang: str = "en") -> str:
        return (f"BatchNorm1d({spec['batchnorm1d']}, eps={spec.get('eps', 1e-5)}, "
                f"momentum={spec.get('momentum', 0.1)}{self.describe_affine(spec, lang)})")

    def constructor(self, spec: dict[str, Any]) -> str:
        return (f"nn.BatchNorm1d({spec['batchnorm1d']}, eps={spec.get('eps', 1e-5)!r}, "
                f"momentum={spec.get('momentum', 0.1)!r}{self.affine_argument(spec)})")


@LAYERS.register
class LayerNorm(_Norm):
    key = "layernorm"
    fields = frozenset({"weight", "bias", "eps", "affine"})
    summary = "nn.LayerNorm(shape) over the last dimensions"
    AFFINE = "elementwise_affine"

    def shape(self, spec: dict[str, Any]) -> list[int]:
        size = spec["layernorm"]
        return list(size) if isinstance(size, list) else [size]

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        size = spec.get("layernorm")
        if not (type(size) is int and size > 0):
            check.dims(size, f"{where}.layernorm")
        shape = self.shape(spec)
        self.validate_affine(spec, where, check)
        validate_parts(spec, where, check, {"weight": shape, "bias": shape})
        check.number(spec.get("eps", 1e-5), f"{where}.eps", 0.0, strict_low=True)

    def build(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        return self.affine(nn.LayerNorm(self.shape(spec), spec.get("eps", 1e-5), self.has_affine(spec)), spec, gen)

    def describe(self, spec: dict[str, Any], lang: str = "en") -> str:
        return f"LayerNorm({spec['layernorm']}, eps={spec.get('eps', 1e-5)}{self.describe_affine(spec, lang)})"

    def constructor(self, spec: dict[str, Any]) -> str:
        return f"nn.LayerNorm({self.shape(spec)!r}, eps={spec.get('eps', 1e-5)!r}{self.affine_argument(spec)})"


@LAYERS.register
class Dropout(LayerKind):
    key = "dropout"
    summary = "nn.Dropout(p): random in train mode, so every call runs under a fixed seed"

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        check.number(spec.get("dropout"), f"{where}.dropout", 0.0, 1.0)

    def build(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        return nn.Dropout(spec["dropout"])

    def describe(self, spec: dict[str, Any], lang: str = "en") -> str:
        return f"Dropout({spec['dropout']})"

    def constructor(self, spec: dict[str, Any]) -> str:
        return f"nn.Dropout({spec['dropout']!r})"


def _keys(spec: dict[str, Any]) -> list[str]:
    """The registered keys a layer spec holds (``custom`` wins over its own ``linear``)."""
    return ["custom"] if "custom" in spec else [k for k in spec if k in LAYERS]


def kind_of(spec: dict[str, Any]) -> LayerKind:
    """The kind of a validated layer spec."""
    return LAYERS[_keys(spec)[0]]


def validate_layer(spec: Any, where: str, check: Checker) -> None:
    check.type(spec, dict, where, "expect_layer_object")
    if len(_keys(spec)) != 1:
        check.fail(where, "expect_one_layer_key", names=", ".join(f'"{k}"' for k in LAYERS.names()))
    kind = kind_of(spec)
    check.fields(spec, {kind.key, *kind.fields}, where)
    kind.validate(spec, where, check)
