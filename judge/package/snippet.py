"""A problem's sample inputs as Python a learner can paste (``judge show SLUG --code``).

Each object kind writes its own code (:func:`judge.package.kinds.object_code`), the same draws in the same order
as its builder, so the objects a snippet makes have the case's ``build_sha256``, bit for bit
(``tests/test_show_code.py`` execs every bundled sample's). An object whose code would show what it hides (the
custom autograd layers of ``backprop-bug-finder``, whose backward rule is the answer) is not written:
a comment says so and :func:`sample_object` builds it. Only sample cases are ever written or built.
"""

from __future__ import annotations

import keyword
from dataclasses import dataclass
from typing import Any

from judge import messages
from judge.errors import BadInput
from judge.package import kinds
from judge.package.build import CALL_SEED
from judge.package.cases import Case
from judge.package.kinds.base import GEN, literal
from judge.package.problem import Problem, find_problem

IMPORTS = ("import torch", "from torch import nn")
"""what every snippet imports (after ``import copy`` where it copies; the kinds' own imports follow, sorted)"""
RESERVED = frozenset({"torch", "nn", "copy", GEN, "p", "Solution", "sample_object", "OrderedDict", "Residual",
                      "Branched", "route"})
"""names a snippet uses itself (``p`` is the loop variable of stale gradients): an object so named is renamed"""


@dataclass(frozen=True)
class Snippet:
    """One sample case as Python."""

    setup: str
    """imports and the statements that build every object"""
    calls: str
    """the case's calls on the learner's ``Solution``"""
    variables: dict[str, str]
    """each object's variable in the code, by its name in the case (they differ only where a name is not a
    usable Python name)"""
    judge_built: tuple[str, ...]
    """the objects built by :func:`sample_object` instead of written out"""

    @property
    def text(self) -> str:
        return f"{self.setup}\n\n{self.calls}\n"


def _comment(lang: str, key: str, **fields: Any) -> str:
    return f"# {messages.say_in(lang, key, **fields)}"


def _usable(name: str) -> bool:
    return name.isidentifier() and not keyword.iskeyword(name) and name not in RESERVED


def _variables(names: list[str]) -> dict[str, str]:
    """A distinct Python name for each object: its own where it can be one, else one made from it."""
    found = {name: name for name in names if _usable(name)}
    for name in names:
        if name not in found:
            variable = "".join(c if c.isalnum() or c == "_" else "_" for c in name).lstrip("0123456789") or "obj"
            while not _usable(variable) or variable in found.values():
                variable += "_"
            found[name] = variable
    return {name: found[name] for name in names}


def _object(arg: Any) -> str | None:
    """The object a call's argument names, if it names one."""
    return arg[1:] if isinstance(arg, str) and arg.startswith("$") else None


def _arg(arg: Any, variables: dict[str, str], later: set[str | None]) -> str:
    name = _object(arg)
    if name is None:
        return literal(arg)
    return f"copy.deepcopy({variables[name]})" if name in later else variables[name]


def _calls(case: Case, variables: dict[str, str]) -> list[str]:
    """Each call on a fresh ``Solution`` under the judge's seed. The judge builds a call's objects afresh, so that
    one call cannot change what another receives: here a call gets copies of the objects a later call uses."""
    lines = []
    for index, call in enumerate(case.calls):
        later = {_object(a) for c in case.calls[index + 1:] for a in c["args"]}
        args = ", ".join(_arg(a, variables, later) for a in call["args"])
        lines += [f"torch.manual_seed({CALL_SEED})", f"print(Solution().{call['method']}({args}))"]
    return lines


def case_snippet(problem: Problem, case: Case, lang: str = "en") -> Snippet:
    """The Python for one sample case of ``problem``."""
    assert not case.hidden, "only sample cases are shown"
    variables = _variables(list(case.objects))
    imports, body, built = set(), [], []
    for name, spec in case.objects.items():
        code = kinds.object_code(spec, variables[name])
        if code is None:
            built.append(name)
            imports.add("from judge.package.snippet import sample_object")
            body += [_comment(lang, "code_judge_built", name=variables[name]),
                     f"{variables[name]} = sample_object({problem.slug!r}, {case.id!r}, {name!r})"]
        else:
            imports |= code.imports
            body += code.lines
        if body[-1]:
            body.append("")
    calls = _calls(case, variables)
    copies = any("copy.deepcopy(" in line for line in calls)
    if copies:
        imports.add("import copy")
    title = "".join(c for c in " ".join(case.titles.get(lang, case.title).split()) if c.isprintable())  # one line
    plain = sorted(i for i in imports if i.startswith("import "))
    setup = [_comment(lang, "code_case", case=case.id, title=title), *plain, *IMPORTS, *sorted(imports - set(plain)), "",
             *body]
    notes = [_comment(lang, "code_solution", slug=problem.slug), *([_comment(lang, "code_fresh")] if copies else []),
             _comment(lang, "code_call_seed")]
    return Snippet("\n".join(setup).rstrip(), "\n".join(notes + calls), variables, tuple(built))


def problem_code(problem: Problem, lang: str = "en") -> str:
    """Every sample case of ``problem`` as Python, one after the other."""
    cases = [case_snippet(problem, case, lang).text for case in problem.samples]
    return "\n\n".join([_comment(lang, "code_header", slug=problem.slug), *cases])


def sample_object(slug: str, case: str, name: str) -> Any:
    """The object ``name`` of the sample case ``case`` (``sample/01-measurement``) of problem ``slug``, built as
    the judge builds it: what a snippet uses for an object it cannot write. Never a hidden case's."""
    problem = find_problem(slug)
    found = next((c for c in problem.samples if c.id == case), None)
    if found is None or name not in found.objects:
        raise BadInput("code_not_sample", slug=slug, case=case, name=name,
                       samples=", ".join(c.id for c in problem.samples))
    return kinds.build_object(found.objects[name])
