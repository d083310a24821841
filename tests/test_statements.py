"""Statements in English and Chinese come from the same data: the same constants, code and examples."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from judge.package.describe import describe_objects
from judge.package.problem import Problem, available, find_problem
from judge.package.statement import render_markdown
from judge.package.text import to_terminal
from tests.support.cli import run_judge

SLUGS = available()


def _code(markdown: str) -> tuple[list[str], set[str]]:
    """The fenced blocks in order, and the set of inline code spans."""
    tokens = MarkdownIt("commonmark").parse(markdown)
    fences = [t.content for t in tokens if t.type == "fence"]
    spans = {c.content for t in tokens for c in t.children or [] if c.type == "code_inline"}
    return fences, spans


def _described_in(markdown: str, problem: Problem, lang: str) -> str:
    """``markdown`` (an English statement) with each sample object's description said in ``lang``, as a statement in
    that language describes it (the examples' code, and the rest of every code block, is the same)."""
    said = {english: other for case in problem.samples
            for english, other in zip(describe_objects(case, "en"), describe_objects(case, lang))}
    return "\n".join(said.get(line, line) for line in markdown.split("\n"))


@pytest.mark.parametrize("slug", SLUGS)
def test_both_languages_carry_the_same_constants_and_examples(slug):
    problem = find_problem(slug)
    english, chinese = render_markdown(problem, "en"), render_markdown(problem, "zh")
    if any(case.objects for case in problem.samples):
        assert _code(english) != _code(chinese)  # the objects are described in Chinese ...
    assert _code(_described_in(english, problem, "zh")) == _code(chinese)  # ... and nothing else differs
    for name, value in problem.constants.items():
        assert str(value) in english and str(value) in chinese, name
    examples = len(problem.samples)
    assert english.count("### Example ") == chinese.count("### 示例 ") == examples
    for case in problem.samples:
        assert case.title in english and case.titles["zh"] in chinese
    assert problem.tolerance.formula in english and problem.tolerance.formula in chinese


def test_show_and_statement_take_a_language():
    shown = run_judge(["show", "dead-relu-detector", "--lang", "zh"])
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("死亡 ReLU 检测") and "示例 1" in shown.stdout
    page = run_judge(["statement", "training-diagnostics", "--lang", "zh", "--format", "html"])
    assert page.returncode == 0 and '<html lang="zh">' in page.stdout and "训练诊断" in page.stdout


def test_terminal_text_underlines_by_display_width():
    text = to_terminal("# 训练诊断\n\n## Methods\n\n- `a`: **b**\n  c\n\n```python\nx = 1\n```\n")
    assert text == "训练诊断\n========\n\nMethods\n-------\n\n- `a`: b\n  c\n\n    x = 1\n"
