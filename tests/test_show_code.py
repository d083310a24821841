"""``judge show SLUG --code``: every sample case's inputs as Python that builds them bit for bit (their
``build_sha256``), every kind writing its own code, and the judge's custom autograd layers never written out."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from judge import messages
from judge.cli import parser
from judge.errors import BadInput
from judge.package import kinds
from judge.package.build import build_objects, checksum, resolve_args, seeded
from judge.package.cases import Case, parse_case
from judge.package.kinds.base import LayerKind, ObjectKind
from judge.package.problem import available, find_problem
from judge.package.snippet import RESERVED, case_snippet, problem_code, sample_object
from tests.support.cli import SLUG, run_judge
from tests.support.kinds_doc import EXAMPLES

BUG_NAMES = sorted({bug for bugs in kinds.BUGS.values() for bug in bugs if bug != "none"})


def _made(case: Case, problem_slug: str = SLUG) -> tuple[str, dict[str, Any]]:
    """The case's snippet, and the objects its setup makes, run in a fresh namespace, by their case names."""
    snippet = case_snippet(find_problem(problem_slug), case)
    namespace: dict[str, Any] = {}
    exec(compile(snippet.setup, case.id, "exec"), namespace)  # the judge's own sample inputs, not a submission
    return snippet.text, {name: namespace[variable] for name, variable in snippet.variables.items()}


def _case(objects: dict[str, Any]) -> Case:
    raw = {"objects": objects, "calls": [{"method": "f", "args": [f"${n}" for n in objects]}]}
    return parse_case(raw, Path("probe.json"), "sample", {"f"})


def _has_custom(value: Any) -> bool:
    if isinstance(value, dict):
        return "custom" in value or any(_has_custom(v) for v in value.values())
    return isinstance(value, list) and any(_has_custom(v) for v in value)


@pytest.mark.parametrize("slug", available())
def test_every_sample_snippet_builds_its_case_bit_for_bit(slug):
    samples = find_problem(slug).samples
    assert samples
    for case in samples:
        text, made = _made(case, slug)
        ast.parse(text)  # the calls too are Python
        assert case.build_sha256 is not None, case.id
        assert checksum(made) == case.build_sha256, f"{slug} {case.id}: the snippet builds other objects"
        for call in case.calls:
            assert f"Solution().{call['method']}(" in text


@pytest.mark.parametrize("slug", available())
def test_the_calls_of_a_snippet_return_what_the_judge_s_own_build_gives(slug):
    """The calls as printed (literal arguments, the call seed, copies where a later call reuses an object) on the
    reference, against the reference on objects built afresh for each call as the worker builds them."""
    problem = find_problem(slug)
    namespace: dict[str, Any] = {}
    exec(compile(problem.reference.read_text(encoding="utf-8"), str(problem.reference), "exec"), namespace)
    for case in problem.samples:
        snippet = case_snippet(problem, case)
        namespace["results"] = []
        exec(compile(snippet.setup, case.id, "exec"), namespace)
        exec(compile(snippet.calls.replace("print(", "results.append("), case.id, "exec"), namespace)
        judged = []
        for call in case.calls:
            with seeded():
                judged.append(getattr(namespace["Solution"](), call["method"])(
                    *resolve_args(call["args"], build_objects(case.objects))))
        assert repr(namespace["results"]) == repr(judged), case.id
        copies = "copy.deepcopy(" in snippet.calls
        assert copies == (f"# {messages.say('code_fresh')}" in snippet.calls)


def test_custom_layers_are_built_by_the_judge_never_written_and_the_comment_says_so():
    """The one kind not written out (its code would tell which backward is broken)."""
    seen = 0
    for slug in available():
        problem = find_problem(slug)
        for case in problem.samples:
            snippet = case_snippet(problem, case)
            custom = tuple(name for name, spec in case.objects.items() if _has_custom(spec))
            assert snippet.judge_built == custom
            for name in custom:
                seen += 1
                variable = snippet.variables[name]
                assert f"# {messages.say('code_judge_built', name=variable)}" in snippet.setup
                assert f"{variable} = sample_object({slug!r}, {case.id!r}, {name!r})" in snippet.setup
                code = snippet.text.split("\n", 1)[1]  # below the title, which is the statement's own
                assert [bug for bug in BUG_NAMES if bug in code] == []
                assert "Custom" not in code and "_rule" not in code
    assert seen >= 3


@pytest.mark.parametrize("section, kind, objects", EXAMPLES, ids=[f"{s}:{k}" for s, k, _ in EXAMPLES])
def test_every_documented_example_writes_itself_bit_for_bit(section, kind, objects):
    case = _case(objects)
    if _has_custom(objects):
        assert kinds.object_code(next(iter(objects.values())), "model") is None
        return
    assert checksum(_made(case)[1]) == checksum(build_objects(case.objects))


UNCOVERED = {
    "every_scheme_on_a_tensor": {
        f"t_{name}": {"kind": "tensor", "seed": i, "shape": [2, 3], "init": name,
                      **({"value": -2.5} if name == "constant" else {}),
                      **({"values": [[1.0, -2.0, 3.5], [0.0, 4.0, -0.0]]} if name == "values" else {})}
        for i, name in enumerate(kinds.SCHEMES)},
    "fan_schemes_with_gains_on_layers": {"model": {"kind": "mlp", "seed": 3, "layers": [
        {"linear": [5, 4], "weight": {"init": "kaiming_uniform", "gain": 0.5}, "bias": {"init": "xavier_uniform"}},
        {"act": "elu", "alpha": 0.5}, {"linear": [4, 3], "weight": {"init": "xavier_normal", "gain": 2.0},
                                       "bias": {"init": "uniform", "low": 0, "high": 2}},
        {"act": "softplus", "beta": 2.0}, {"layernorm": [3], "eps": 1e-3, "weight": {"init": "normal", "mean": -1.0}},
        {"dropout": 0.25}, {"batchnorm1d": 3, "momentum": 0.3, "weight": {"init": "uniform"},
                            "running_var": {"init": "uniform", "low": 0.5, "high": 2.0}}],
        "stale_grad": {"init": "uniform", "low": -0.5, "high": 0.25, "none": ["0.bias"],
                       "inject": [{"param": "2.weight", "index": 1, "value": "-inf"}]},
        "frozen": ["4.weight"], "mode": "eval"}},
    "images_and_exact_values": {
        "cnn": {"kind": "mlp", "seed": 4, "layers": [
            {"conv2d": [2, 3, 3], "stride": 2, "padding": 1}, {"act": "leaky_relu", "negative_slope": 0.2},
            {"maxpool2d": 2, "stride": 1}, {"flatten": True}]},
        "ints": {"kind": "tensor", "seed": 0, "shape": [3], "dtype": "int64", "init": "values", "values": [1, -2, 7]},
        "given": {"kind": "labels", "values": [2, 0, 1], "num_classes": 3},
    },
    "layers_without_a_bias_or_affine_parameters": {"model": {"kind": "mlp", "seed": 6, "layers": [
        {"conv2d": [1, 2, [2, 3]], "bias": False, "weight": {"init": "kaiming_normal"}}, {"flatten": True},
        {"linear": [4, 3], "bias": False}, {"batchnorm1d": 3, "affine": False, "running_mean": {"init": "normal"}},
        {"layernorm": 3, "affine": False}, {"act": "prelu", "num_parameters": 3, "slope": 0.1}, {"linear": [3, 2]}],
        "stale_grad": {"init": "normal"}}},
    "names_the_snippet_uses_itself": {
        name: {"kind": "tensor", "seed": i, "shape": [2], "init": "normal"}
        for i, name in enumerate(["gen", "p", "torch", "class", "2d", "gen_"])},
    "a_branched_model_with_a_scale_and_a_keyword_head": {"model": {
        "kind": "branched", "seed": 5, "trunk": [{"linear": [3, 4]}],
        "heads": [{"name": "main", "layers": [{"linear": [4, 2]}], "scale": 0.5},
                  {"name": "lambda", "layers": [{"linear": [4, 2]}], "input": "detach"}],
        "stale_grad": {"init": "constant", "value": 0.5}}},
}
"""what no bundled sample or documented example may use: every scheme, fan schemes with gains, the state's
every part, names a snippet must rename"""


@pytest.mark.parametrize("name", list(UNCOVERED))
def test_kinds_no_sample_uses_write_themselves_bit_for_bit(name):
    case = _case(UNCOVERED[name])
    assert checksum(_made(case)[1]) == checksum(build_objects(case.objects))


def test_renamed_objects_keep_distinct_usable_names():
    snippet = case_snippet(find_problem(SLUG), _case(UNCOVERED["names_the_snippet_uses_itself"]))
    variables = list(snippet.variables.values())
    assert len(set(variables)) == len(variables)
    assert all(v.isidentifier() and v not in RESERVED and v != "class" for v in variables)
    assert snippet.variables["p"] != "p" and snippet.variables["gen_"] == "gen_"


def test_every_kind_and_scheme_writes_its_own_code():
    """Adding a kind means adding its code writer in the same class: none falls back to the base's."""
    assert [n for n in kinds.OBJECTS if type(kinds.OBJECTS[n]).code is ObjectKind.code] == []
    assert [n for n in kinds.LAYERS if type(kinds.LAYERS[n]).constructor is LayerKind.constructor] == []
    assert [n for n, scheme in kinds.SCHEMES.items() if scheme.code is None] == []


def test_sample_object_builds_sample_objects_only():
    problem = find_problem("backprop-bug-finder")
    sample, hidden = problem.samples[0], next(c for c in problem.cases if c.hidden)
    built = sample_object(problem.slug, sample.id, "model")
    assert checksum({"model": built}) == checksum({"model": build_objects(sample.objects)["model"]})
    for case, name in ((hidden.id, "model"), (sample.id, "nothing")):
        with pytest.raises(BadInput) as caught:
            sample_object(problem.slug, case, name)
        assert caught.value.key == "code_not_sample" and sample.id in str(caught.value)


def test_show_code_prints_the_samples_as_python_instead_of_the_statement(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path / "home"))
    assert parser().parse_args(["show", SLUG, "--code"]).code
    with pytest.raises(SystemExit):
        parser().parse_args(["show", "--help"])
    assert " ".join(messages.say("help_show_code").split()) in " ".join(capsys.readouterr().out.split())
    result = run_judge(["show", SLUG, "--code"])
    assert result.returncode == 0, result.stderr
    problem = find_problem(SLUG)
    assert result.stdout == problem_code(problem) + "\n"
    ast.parse(result.stdout)
    assert "====" not in result.stdout and "your status" not in result.stdout
    assert all(f"# --- {case.id}: " in result.stdout for case in problem.samples)
