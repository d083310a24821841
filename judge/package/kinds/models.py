"""Model kinds: ``mlp`` (a flat ``nn.Sequential``), ``net`` (named blocks, some residual) and ``branched``.

Every model draws its parameters, in ``named_parameters()`` order, from one generator seeded with its ``seed``,
then its state (:mod:`judge.package.kinds.state`). Each kind knows its parameter names before building, so a
case naming a parameter (``frozen``, ``stale_grad.none``) is checked at validation time.
"""

from __future__ import annotations

import keyword
import re
from collections import OrderedDict
from typing import Any, Callable, ClassVar

from judge.package.kinds import state
from judge.package.kinds.base import (LAYERS, OBJECTS, Checker, Code, ObjectKind, hide, phrase, say_in, seeded_code,
                                      shown)
from judge.package.kinds.layers import kind_of, validate_layer
from judge.package.kinds.lazy import nn, torch

NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
"""a block or head name: nn.ModuleDict and nn.Sequential take it as an attribute name"""
MODULE_ATTRIBUTES = frozenset({
    "T_destination", "add_module", "apply", "bfloat16", "buffers", "call_super_init", "children", "compile", "cpu",
    "cuda", "double", "dump_patches", "eval", "extra_repr", "float", "forward", "get_buffer", "get_extra_state",
    "get_parameter", "get_submodule", "half", "ipu", "load_state_dict", "modules", "mtia", "named_buffers",
    "named_children", "named_modules", "named_parameters", "parameters", "register_backward_hook",
    "register_buffer", "register_forward_hook", "register_forward_pre_hook", "register_full_backward_hook",
    "register_full_backward_pre_hook", "register_load_state_dict_post_hook", "register_load_state_dict_pre_hook",
    "register_module", "register_parameter", "register_state_dict_post_hook", "register_state_dict_pre_hook",
    "requires_grad_", "set_extra_state", "set_submodule", "share_memory", "state_dict", "to", "to_empty", "train",
    "training", "type", "xpu", "zero_grad",
})
"""the public attributes of an ``nn.Module`` (torch 2.13; ``tests/test_kinds.py`` checks the installed torch has
no other), which nn.ModuleDict and nn.Sequential refuse as names. Listed rather than read from ``nn.Module``, so
that the judge's process validates cases without importing torch (:mod:`.lazy`); names starting with ``_``
are refused by :data:`NAME`."""


def _layers(spec: Any, where: str, check: Checker) -> None:
    for i, layer in enumerate(check.type(spec, list, where, "expect_layers")):
        validate_layer(layer, f"{where}[{i}]", check)


def _sequential_parameters(layers: list[dict[str, Any]], prefix: str = "") -> dict[str, list[int]]:
    found = {}
    for i, layer in enumerate(layers):
        for name, shape in kind_of(layer).parameters(layer):
            found[f"{prefix}{i}.{name}"] = shape
    return found


def _sequential(layers: list[dict[str, Any]], gen: torch.Generator) -> nn.Sequential:
    return nn.Sequential(*(kind_of(s).build(s, gen) for s in layers))


def _describe_sequential(layers: list[dict[str, Any]], lang: str) -> str:
    return "nn.Sequential(" + ", ".join(kind_of(s).describe(s, lang) for s in layers) + ")"


def _sequential_code(layers: list[dict[str, Any]], pad: str = "") -> str | None:
    """The constructor of :func:`_sequential` as source, one layer a line indented below ``pad``; None where a
    layer cannot be written."""
    made = [kind_of(s).constructor(s) for s in layers]
    if None in made:
        return None
    return "nn.Sequential(\n" + "".join(f"{pad}    {m},\n" for m in made) + f"{pad})" if made else "nn.Sequential()"


def _fill_code(layers: list[dict[str, Any]], at: str) -> list[str]:
    """What every layer of the ``nn.Sequential`` at ``at`` draws, in order."""
    return [line for i, s in enumerate(layers) for line in kind_of(s).fill(s, f"{at}[{i}]")]


def _attribute(base: str, name: str) -> str:
    """``base.name`` as source (``getattr`` for a name that is a Python keyword)."""
    return f"{base}.{name}" if not keyword.iskeyword(name) else f"getattr({base}, {name!r})"


def _map_layers(value: Any, change: Callable[[dict[str, Any]], dict[str, Any]]) -> Any:
    """A copy of a model spec with every layer spec in it, wherever it sits, replaced by ``change(layer)``."""
    if isinstance(value, list):
        return [_map_layers(item, change) for item in value]
    if not isinstance(value, dict):
        return value
    if any(key in LAYERS for key in value):
        return change(value)
    return {key: _map_layers(item, change) for key, item in value.items()}


def _names(entries: list[Any], where: str, check: Checker, what: str) -> None:
    seen = set()
    for i, entry in enumerate(entries):
        check.type(entry, dict, f"{where}[{i}]", "expect_named_entry", entry=phrase(what))
        name = entry.get("name")
        if not isinstance(name, str) or not NAME.fullmatch(name) or name in seen:
            check.fail(f"{where}[{i}].name", "expect_new_name", entry=phrase(what))
        if name in MODULE_ATTRIBUTES:  # nn.ModuleDict / nn.Sequential would refuse it only when the model is built
            check.fail(f"{where}[{i}].name", "expect_not_attribute", entry=phrase(what), name=repr(name))
        seen.add(name)


class _Model(ObjectKind):
    """Shared by every model kind: the seed, the generator and the arriving state."""

    layout: ClassVar[frozenset[str]]
    """the kind's own structural fields"""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.fields = frozenset({"seed", *cls.layout, *state.FIELDS})

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        check.seed(spec.get("seed"), f"{where}.seed")
        self.validate_layout(spec, where, check)
        state.validate_state(spec, where, check, self.parameters(spec))

    def build(self, spec: dict[str, Any]) -> nn.Module:
        gen = torch.Generator().manual_seed(spec["seed"])
        return state.apply_state(self.build_layout(spec, gen), spec, gen)

    def describe(self, spec: dict[str, Any], lang: str = "en") -> str:
        return say_in(lang, "describe_model", layout=self.describe_layout(spec, lang), seed=spec["seed"],
                      state=state.describe_state(spec, lang))

    def code(self, spec: dict[str, Any], name: str) -> Code | None:
        """The constructors, then every value drawn into them (under ``torch.no_grad()``), then the state."""
        layout = self.layout_code(spec, name)
        if layout is None:
            return None
        constructor, fills, imports = layout
        lines = [f"{name} = {constructor}"]
        if fills:
            lines += ["with torch.no_grad():", *(f"    {line}" for line in fills), ""]  # "": where a REPL ends it
        return seeded_code(spec["seed"], lines + state.state_code(spec, name), imports)

    def conceal(self, spec: dict[str, Any], hidden: list[float]) -> dict[str, Any]:
        return _map_layers(spec, lambda layer: kind_of(layer).conceal(layer, hidden))

    def reveal(self, spec: dict[str, Any], hidden: tuple[float, ...]) -> dict[str, Any]:
        return _map_layers(spec, lambda layer: kind_of(layer).reveal(layer, hidden))

    def validate_layout(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        raise NotImplementedError

    def parameters(self, spec: dict[str, Any]) -> dict[str, list[int]]:
        raise NotImplementedError

    def build_layout(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        raise NotImplementedError

    def describe_layout(self, spec: dict[str, Any], lang: str) -> str:
        raise NotImplementedError

    def layout_code(self, spec: dict[str, Any], name: str) -> tuple[str, list[str], set[str]] | None:
        """The model ``name``'s constructor as source, the fills of its layers in drawing order, and the imports
        they need; None where a layer cannot be written."""
        raise NotImplementedError


@OBJECTS.register
class MLP(_Model):
    name = "mlp"
    layout = frozenset({"layers"})
    summary = "an nn.Sequential of layers"

    def validate_layout(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        _layers(spec.get("layers"), f"{where}.layers", check)

    def parameters(self, spec: dict[str, Any]) -> dict[str, list[int]]:
        return _sequential_parameters(spec["layers"])

    def build_layout(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        return _sequential(spec["layers"], gen)

    def describe_layout(self, spec: dict[str, Any], lang: str) -> str:
        return _describe_sequential(spec["layers"], lang)

    def layout_code(self, spec: dict[str, Any], name: str) -> tuple[str, list[str], set[str]] | None:
        made = _sequential_code(spec["layers"])
        return None if made is None else (made, _fill_code(spec["layers"], name), set())


@OBJECTS.register
class Net(_Model):
    name = "net"
    layout = frozenset({"blocks"})
    summary = "an nn.Sequential of named blocks, each an nn.Sequential or a Residual (x + body(x))"

    def validate_layout(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        blocks = check.type(spec.get("blocks"), list, f"{where}.blocks", "expect_blocks")
        if not blocks:
            check.fail(f"{where}.blocks", "expect_blocks")
        _names(blocks, f"{where}.blocks", check, "word_block")
        for i, block in enumerate(blocks):
            check.fields(block, {"name", "layers", "residual"}, f"{where}.blocks[{i}]")
            check.type(block.get("residual", False), bool, f"{where}.blocks[{i}].residual", "expect_bool")
            _layers(block.get("layers"), f"{where}.blocks[{i}].layers", check)

    @staticmethod
    def _prefix(block: dict[str, Any]) -> str:
        return f"{block['name']}.body." if block.get("residual") else f"{block['name']}."

    def parameters(self, spec: dict[str, Any]) -> dict[str, list[int]]:
        return {k: v for b in spec["blocks"] for k, v in _sequential_parameters(b["layers"], self._prefix(b)).items()}

    def build_layout(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        from judge.package.kinds.modules import Residual  # torch's classes: imported when first built (.lazy)

        blocks = OrderedDict()
        for block in spec["blocks"]:
            body = _sequential(block["layers"], gen)
            blocks[block["name"]] = Residual(body) if block.get("residual") else body
        return nn.Sequential(blocks)

    def describe_layout(self, spec: dict[str, Any], lang: str) -> str:
        parts = [f"{b['name']}: " + (f"Residual(x + {_describe_sequential(b['layers'], lang)})" if b.get("residual")
                                     else _describe_sequential(b["layers"], lang)) for b in spec["blocks"]]
        return "nn.Sequential(" + ", ".join(parts) + ")"

    def layout_code(self, spec: dict[str, Any], name: str) -> tuple[str, list[str], set[str]] | None:
        entries, fills = [], []
        for block in spec["blocks"]:
            body = _sequential_code(block["layers"], "    ")
            if body is None:
                return None
            entries.append(f"    ({block['name']!r}, {f'Residual({body})' if block.get('residual') else body}),\n")
            at = _attribute(name, block["name"]) + (".body" if block.get("residual") else "")
            fills += _fill_code(block["layers"], at)
        imports = {"from collections import OrderedDict"}
        if any(block.get("residual") for block in spec["blocks"]):
            imports.add("from judge.package.kinds.modules import Residual")
        return "nn.Sequential(OrderedDict([\n" + "".join(entries) + "]))", fills, imports


@OBJECTS.register
class BranchedModel(_Model):
    name = "branched"
    layout = frozenset({"trunk", "heads"})
    summary = "h = trunk(x); output = sum of scale · head(h) over used heads, some detached"

    HEAD_FIELDS = frozenset({"name", "layers", "input", "output", "scale", "used"})

    def validate_layout(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        _layers(spec.get("trunk"), f"{where}.trunk", check)
        heads = check.type(spec.get("heads"), list, f"{where}.heads", "expect_heads")
        _names(heads, f"{where}.heads", check, "word_head")
        for i, head in enumerate(heads):
            at = f"{where}.heads[{i}]"
            check.fields(head, self.HEAD_FIELDS, at)
            _layers(head.get("layers"), f"{at}.layers", check)
            for end in ("input", "output"):
                check.choice(head.get(end, "attached"), ("attached", "detach"), f"{at}.{end}")
            check.number(head.get("scale", 1.0), f"{at}.scale")
            check.type(head.get("used", True), bool, f"{at}.used", "expect_bool")
        if not any(head.get("used", True) for head in heads):
            check.fail(f"{where}.heads", "expect_used_head")

    def parameters(self, spec: dict[str, Any]) -> dict[str, list[int]]:
        found = _sequential_parameters(spec["trunk"], "trunk.")
        for head in spec["heads"]:
            found.update(_sequential_parameters(head["layers"], f"heads.{head['name']}."))
        return found

    def build_layout(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        from judge.package.kinds.modules import Branched, route  # torch's classes: imported when first built

        trunk = _sequential(spec["trunk"], gen)
        heads = {head["name"]: _sequential(head["layers"], gen) for head in spec["heads"]}
        routes = {head["name"]: route(head.get("input") == "detach", head.get("output") == "detach",
                                      float(head.get("scale", 1.0)), head.get("used", True)) for head in spec["heads"]}
        return Branched(trunk, heads, routes)

    WIRING = (("input", "attached", ("attached", "detach")), ("output", "attached", ("attached", "detach")),
              ("scale", 1.0, None), ("used", True, (False, True)))
    """each head's wiring, all of it concealed on the way to a worker (even where it is the default, so that
    what a spec leaves out tells nothing): field, default, the values a hidden number indexes (None: the number)"""

    def conceal(self, spec: dict[str, Any], hidden: list[float]) -> dict[str, Any]:
        spec = super().conceal(spec, hidden)
        heads = []
        for head in spec["heads"]:
            wired = {key: head.get(key, default) for key, default, _ in self.WIRING}
            heads.append({**head, **{key: hide(wired[key] if values is None else values.index(wired[key]), hidden)
                                     for key, _, values in self.WIRING}})
        return {**spec, "heads": heads}

    def reveal(self, spec: dict[str, Any], hidden: tuple[float, ...]) -> dict[str, Any]:
        spec = super().reveal(spec, hidden)
        heads = [{**head, **{key: shown(head[key], hidden) if values is None else values[int(shown(head[key], hidden))]
                             for key, _, values in self.WIRING}} for head in spec["heads"]]
        return {**spec, "heads": heads}

    def describe_layout(self, spec: dict[str, Any], lang: str) -> str:
        heads = []
        for head in spec["heads"]:
            notes = [say_in(lang, key, **fields) for flag, key, fields in (
                (head.get("input") == "detach", "describe_input_detached", {}),
                (head.get("output") == "detach", "describe_output_detached", {}),
                ("scale" in head, "describe_scaled", {"scale": head.get("scale")}),
                (not head.get("used", True), "describe_unused", {})) if flag]
            heads.append(f"{head['name']}{' (' + ', '.join(notes) + ')' if notes else ''}: "
                         f"{_describe_sequential(head['layers'], lang)}")
        return f"Branched(trunk: {_describe_sequential(spec['trunk'], lang)}; heads {'; '.join(heads)})"

    def layout_code(self, spec: dict[str, Any], name: str) -> tuple[str, list[str], set[str]] | None:
        trunk = _sequential_code(spec["trunk"], "    ")
        heads = {head["name"]: _sequential_code(head["layers"], "        ") for head in spec["heads"]}
        if trunk is None or None in heads.values():
            return None
        routes = "".join(
            f"        {h['name']!r}: route(detach_input={h.get('input') == 'detach'}, "
            f"detach_output={h.get('output') == 'detach'}, scale={float(h.get('scale', 1.0))!r}, "
            f"used={h.get('used', True)}),\n" for h in spec["heads"])
        constructor = (f"Branched(\n    {trunk},\n    {{\n"
                       + "".join(f"        {head!r}: {made},\n" for head, made in heads.items())
                       + f"    }},\n    {{\n{routes}    }},\n)")
        fills = _fill_code(spec["trunk"], f"{name}.trunk")
        for head in spec["heads"]:
            fills += _fill_code(head["layers"], _attribute(f"{name}.heads", head["name"]))
        return constructor, fills, {"from judge.package.kinds.modules import Branched, route"}
