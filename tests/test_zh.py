"""zh complete: a learner who reads the judge in Chinese sees no English word of the judge's own, and
the problems' own text in Chinese.

Real reports are judged in zh through the site (a wrong answer with a diff, a time limit, a runtime error, an
accepted submit, a pasted case with judge-only fields, a case without expected values), through ``judge run
--lang zh`` on the bundled problem (a wrong answer with a diff and a hint) and through ``check(..., lang="zh")``;
each is rendered as the learner sees it (the site's HTML, the terminal's text, Markdown), the learner's own values,
code and identifiers are cut out, and what is left may hold no English word but those the zh catalogue itself
writes (CPU, MiB, torch, ...). The inputs are cut only where they are code (tests/support/zh_words.py). The
problem's authored text (its title, a case's title, a hint) must be the package's Chinese, which is checked as
text for every bundled problem: Chinese, and no phrase left in English. The list and history pages, ``judge
list`` and ``judge history``, the one-line errors of the learner's commands and the site's refusals, and the
class view of ``judge grade --lang zh`` are read the same way. A catalogue check says every key the zh path uses
has a zh entry."""

from __future__ import annotations

import argparse
import ast
import errno
import html
import io
import json
import json.decoder
import os
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest
import torch
import uvicorn

from judge import cli, doctor, messages, settings
from judge.grading.discover import discover
from judge.grading.progress import Line
from judge.grading.render import write_outputs
from judge.grading.store import Store
from judge.grading.summary import summarise
from judge.judging.compare import compare, type_in
from judge.judging.session import IMPORTING, UNJUDGEABLE, JudgesNote, _import_failure
from judge.judging.verdict import ENDINGS, HIDDEN_LIMIT_NOTES, Verdict
from judge.messages_learner import ITEMS, TAGS
from judge.package.describe import describe_objects
from judge.package.problem import available, find_problem
from judge.package.snippet import problem_code
from judge.package.statement import render_markdown
from judge.report.render import render
from judge.serve import launch
from judge.serve.app import SITE_LABELS
from judge.serve.pages import TEMPLATES, page_words
from judge.serve.security import TOKEN_HEADER
from judge.system_words import OS_ERRORS, json_reason, os_reason
from judge.worker.confinement import Confinement
from judge.worker.main import NotASolution, encode, import_failure, load_solution
from judge.worker.protocol import MESSAGE_CHARS, REPLACED, SHAPE_ERRORS, SHAPE_EXC, names_within
from judge.worker.runner import Ending
from tests.support.cli import REFERENCE_SOURCE, REPO, SLUG, judge_env, run_judge
from tests.support.client import Client, launched
from tests.support.message_sites import code_sites, template_sites
from tests.support.readers import CONTROL
from tests.support.toy import build_toy, mlp_case
from tests.support.zh_words import (WORD, ZH, description_words, english_left, names_in, page_text,
                                    untranslated)

CASES = {
    "sample/01-small": {**mlp_case("a small ReLU MLP", 10, 8), "translations": {"zh": {"title": "一个小型 ReLU MLP"}}},
    "hidden/01-six": mlp_case("batch of six", 20, 6),
}
TOY_TITLES = {"sample/01-small": "一个小型 ReLU MLP"}
WRONG = REFERENCE_SOURCE.replace("'std': _r(x.std())", "'std': _r(x.std(correction=0))")
"""the population std: a wrong answer with a diff and the hint population-std-activation"""
SLOW = REFERENCE_SOURCE + "\n\nclass Solution(Solution):\n    def compute_activation_stats(self, model, x):\n" \
                          "        while True:\n            pass\n"
CRASH = REFERENCE_SOURCE + "\n\nclass Solution(Solution):\n    def compute_gradient_stats(self, model, x, y):\n" \
                           "        return 1 / 0\n"
REPORT_TEMPLATES = ("report.txt.j2", "report.md.j2", "report.fragment.html.j2", "report.html.j2", "list.html.j2",
                    "history.html.j2", "attempt.html.j2", "base.html.j2", "error.html.j2", "student.html.j2",
                    "class.html.j2")
LEARNER_CODE = ("judge/cli.py", "judge/command.py", "judge/pipeline.py", "judge/settings.py", "judge/judging/",
                "judge/package/", "judge/practice/", "judge/report/build.py", "judge/grading/", "judge/worker/main.py",
                "judge/worker/forkserver.py", "judge/serve/app.py", "judge/serve/pages.py", "judge/serve/class_view.py", "judge/serve/judging.py",
                "judge/serve/security.py", "judge/serve/store.py", "judge/serve/launch.py", "judge/serve/commands.py",
                "judge/system_words.py", "judge/argwords.py")
"""the modules whose messages a learner (or a student, in a class view) can meet in the language they chose,
``judge serve``'s terminal lines (``judge serve --lang``) and ``judge grade``'s and ``judge merge``'s among them"""


# -- the catalogue ---------------------------------------------------------------------------------------------
def zh_path_keys() -> set[str]:
    """Every key a learner reading zh can be shown: the report's templates and builder, the site's pages and
    result pane, the class view, verdicts, modes, tags, list columns, the judge's notes on limits, input
    descriptions, a diff's field words, and every message of the modules a learner's commands run."""
    keys = {k for site in template_sites() if site.where.endswith(REPORT_TEMPLATES) for k in site.keys()}
    keys |= {k for site in code_sites() if site.where.startswith(LEARNER_CODE) for k in site.keys()}
    keys |= {"list_summary", "history_cpu_bound", "serve_stopped", "serve_already_judging", "internal"}
    keys |= set(SITE_LABELS) | {f"verdict_{v.value}" for v in Verdict} | {"verdict_not_run", "mode_run", "mode_submit"}
    keys |= {k for k in messages.CATALOGUE if k.startswith(
        ("tag_", "list_column_", "step_", "describe_", "field_", "item_", "type_", "class_", "expect_", "range_",
         "word_", "help_", "usage_", "os_", "json_", "unsupported_", "layer_name_"))}
    keys |= {k for rule in ENDINGS.values() for k in (rule.message, rule.at_import)} | set(HIDDEN_LIMIT_NOTES.values())
    keys |= set(SHAPE_ERRORS)  # a file that is not a solution, said from the worker's key
    return keys


def test_every_key_the_zh_path_uses_has_a_zh_entry():
    keys = zh_path_keys()
    assert len(keys) > 300 and {"report_passed", "tag_rule_engine", "file_missing", "case_invalid", "describe_tensor",
                                "class_overview", "not_python_suffix", "either", "item_layer"} <= keys
    assert sorted(keys - set(ZH)) == []


def test_every_step_the_judges_own_notes_name_has_a_key():
    """The ``exc`` of every note in the judge's words (judge.judging.session) is said in the report's language."""
    tree = ast.parse((REPO / "judge" / "judging" / "session.py").read_text(encoding="utf-8"))
    named = {c.args[0].value for c in ast.walk(tree) if isinstance(c, ast.Call) and getattr(c.func, "id", "") ==
             "_judges_note" and isinstance(c.args[0], ast.Constant)} | {IMPORTING, REPLACED, UNJUDGEABLE, SHAPE_EXC,
                                                                        *(e.value for e in Ending)}
    keys = {f"step_{re.sub(r'[^a-z]+', '_', name.lower())}" for name in named}
    assert len(named) >= 14 and sorted(keys - set(messages.CATALOGUE)) == []


def test_every_bundled_tag_and_item_word_is_in_the_one_translated_vocabulary():
    problems = [find_problem(slug) for slug in available()]
    assert sorted({t for p in problems for t in p.meta.get("tags", [])} - set(TAGS)) == []
    words = {m.get("item", "item") for p in problems for m in p.methods}
    assert sorted(w for w in words - set(ITEMS) if w.islower()) == []  # the others: class names (Linear, ReLU)
    assert messages.tag_in("zh", "rule-engine") == "规则引擎" and messages.tag_in("en", "rule-engine") == "rule-engine"
    assert messages.tag_in("zh", "not-in-the-vocabulary") == "not-in-the-vocabulary"  # a package's own: as written


def test_the_zh_statement_shows_the_title_and_tags_in_chinese():
    text = render_markdown(find_problem(SLUG), "zh")
    assert text.startswith("# 训练诊断\n") and "规则引擎" in text and "rule-engine" not in text
    assert "rule-engine" in render_markdown(find_problem(SLUG), "en")


def test_a_stored_reports_language_is_one_the_judge_speaks_or_english():
    """A report read back (a class's results.json, a kept attempt) is untrusted: an unknown or hostile ``lang``
    renders it in English, never reads a file it names; zh renders its words in Chinese."""
    golden = json.loads((REPO / "tests" / "golden" / "wrong_answer.json").read_text(encoding="utf-8"))
    english = {fmt: render(golden, fmt) for fmt in ("text", "html")}
    for lang in ("fr", "../../etc/passwd", ["zh"], None, 5):
        assert {fmt: render({**golden, "lang": lang}, fmt) for fmt in english} == english, lang
    chinese = render({**golden, "lang": "zh"}, "text")
    assert messages.say_in("zh", "verdict_wrong_answer") in chinese and "a number passes" not in chinese


def test_a_returned_value_shows_its_own_characters_and_nothing_that_acts_on_the_reader():
    """What a call returned shows 均值 as itself in every format, not as ``\\u5747\\u503c`` (JSON's ASCII escapes);
    a character that cannot be seen or acts on the reader is an escape still (the finalizer every value goes
    through)."""
    golden = json.loads((REPO / "tests" / "golden" / "wrong_answer.json").read_text(encoding="utf-8"))
    call = golden["tests"][0]["extra_data"]["calls"][0]
    call["got"] = [{"均值": 1.0, "a\u202eb\x1b[2J\x9b\u061c\u200b\ufeff\U000e0041": 2.0}]  # one dict for two: shown whole
    call["failed_field"], call["differences"] = "length", [
        {"field": "length", "got": 1, "expected": 2, "error": 1.0, "tolerance": None, "problem": "length"}]
    for lang in ("en", "zh"):
        for fmt in ("text", "markdown", "html"):
            shown = render({**golden, "lang": lang}, fmt)
            assert "均值" in shown and "\\u5747" not in shown, (lang, fmt)
            assert not CONTROL.search(shown), (lang, fmt, CONTROL.search(shown))


@pytest.mark.parametrize("slug", [SLUG, "backprop-bug-finder"])  # the second's models are judge-built
def test_judge_show_code_in_zh_comments_its_python_in_chinese(slug):
    """``judge show --code --lang zh``: the comments of the Python it prints (they were English) in Chinese, but for
    the names they quote (the slug, a case's id and variables) and the case titles (the package's Chinese)."""
    problem = find_problem(slug)
    comments = [line for line in problem_code(problem, "zh").splitlines() if line.startswith("# ")]
    names = [slug, *(c.id for c in problem.samples), *(c.titles["zh"] for c in problem.samples),
             *(n for c in problem.samples for n in c.objects)]
    assert len(comments) > 2 * len(problem.samples) and english_left("\n".join(comments), names) == [], comments
    assert "the inputs of every sample case" in problem_code(problem)


# -- the problems' own text ----------------------------------------------------------------------------------
@pytest.mark.parametrize("slug", available())
def test_every_bundled_problem_has_its_title_hints_and_sample_titles_in_chinese(slug):
    """What a zh learner reads of a package: its title, each hint (problem.toml's [translations.zh]) and each sample's
    title (its case file's translations); the English text itself fails the same check."""
    problem = find_problem(slug)
    chinese = problem.translation("zh")
    shown = [(problem.title, chinese.get("title"))]
    shown += [(text, chinese.get("hints", {}).get(pitfall)) for pitfall, text in problem.hints.items()]
    shown += [(case.title, case.titles.get("zh")) for case in problem.samples]
    assert len(shown) >= 5 and {english: untranslated(english, said) for english, said in shown if
                                untranslated(english, said)} == {}
    assert all(untranslated(english, english) for english, _ in shown)
    assert problem.hints_in("zh") == chinese["hints"] and problem.title_in("zh") == chinese["title"]


@pytest.mark.parametrize("slug", available())
def test_every_sample_of_every_bundled_problem_is_described_in_chinese(slug):
    """A sample's inputs, as the statement's examples, the site's Testcase tab and a report show them: in zh no English
    word once the code (module and scheme names, numbers, the case's own names) is cut; in English, the check sees
    the English."""
    problem = find_problem(slug)
    for case in problem.samples:
        names = names_in(case.objects)
        assert {line: description_words(line, names) for line in describe_objects(case, "zh")
                if description_words(line, names)} == {}
        english = [w for line in describe_objects(case, "en") for w in description_words(line, names)]
        assert bool(english) == bool(case.objects), case.id


# -- what is left of a page once the learner's own values are cut out --------------------------------------------
def _learner_values(report: dict[str, Any]) -> Iterator[str]:
    """The report's values that are the learner's (code, values, errors of their code, names of methods and of
    their values' keys), the problem's identifiers (slug, case ids, pitfall ids, the inputs) or the
    machine's (version, device, security level)."""
    yield from (report["problem"]["slug"], report["submission"]["path"])
    judge = report["judge"]
    yield from (judge["version"], judge["torch"], judge["device"], judge["comparison_rule"],
                judge["security_level"], judge["security_level"].split(" ", 1)[0], *judge["expected_device"])
    for test in report["tests"]:
        x = test["extra_data"]
        yield from (x["case"], *(x.get("inputs") or []))  # their words: checked apart (_report_left)
        if x.get("not_run"):
            yield x["not_run"]["method"]
        for call in x["calls"]:
            yield from (call["method"], call.get("stdout") or "")
            for value in (call.get("got"), call.get("expected")):
                if value is not None:
                    yield from WORD.findall(json.dumps(value))  # the dicts' keys: mean, std, dead_fraction
            yield from (h["pitfall"] for h in call.get("hints") or [])
            error = call.get("error") or {}
            if (error.get("exc") or "").isascii():  # the learner's exception; a judge's note names its step in zh
                yield from (error.get("exc") or "", error.get("msg") or "", error.get("trace") or "")


def _authored(report: dict[str, Any], titles: dict[str, str]) -> Iterator[str]:
    """The problem's text the report shows, each checked to be the package's Chinese (which the tests above hold to
    be Chinese): its title, the case titles ``titles`` names, and every hint."""
    problem = find_problem(report["problem"]["slug"])
    assert report["problem"]["title"] == problem.title_in("zh") != problem.title
    yield report["problem"]["title"]
    for test in report["tests"]:
        x = test["extra_data"]
        if x.get("title"):
            assert x["title"] == titles[x["case"]], x["case"]
            yield x["title"]
        for hint in (h for call in x["calls"] for h in call.get("hints") or []):
            assert hint["text"] == problem.hints_in("zh")[hint["pitfall"]] != problem.hints[hint["pitfall"]]
            yield hint["text"]


def _report_left(report: dict[str, Any], shown: str, code: str, titles: dict[str, str]) -> list[str]:
    """The English words of ``shown`` but the learner's values and the checked authored text, and those of the
    inputs' descriptions once their code is cut."""
    cut = [*_learner_values(report), *_authored(report, titles), *code.splitlines(), "torch-diagnostics-judge"]
    objects = [line for test in report["tests"] for line in test["extra_data"].get("inputs") or []
               if re.match(r"\w+ = ", line)]  # the rest are the calls: code
    return english_left(shown, cut) + [w for line in objects for w in description_words(line)]


# -- the site --------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    root = build_toy(tmp_path_factory.mktemp("zh"), CASES, memory_mb=450, time_floor_s=0.5)
    shutil.copy(REPO / "problems" / SLUG / "statement.zh.md.j2", root / "problems" / SLUG)
    return root


@pytest.fixture(scope="module")
def site(root) -> Iterator[Client]:
    with launched(judge_env(root)) as client:
        yield client


def _judged(site: Client, mode: str, code: str, case: str | None = None) -> dict[str, Any]:
    done = site.judge(SLUG, mode, code, case=case, lang="zh")[-1]
    assert done["type"] == "done", done
    assert done["report"]["lang"] == "zh"
    return done


@pytest.mark.parametrize("mode, code, verdict", [
    ("run", WRONG, "wrong_answer"), ("submit", SLOW, "time_limit_exceeded"), ("run", CRASH, "runtime_error"),
    ("submit", REFERENCE_SOURCE, "accepted")])
def test_a_report_judged_in_zh_shows_no_english_word_of_the_judges(site, mode, code, verdict):
    done = _judged(site, mode, code)
    report = done["report"]
    assert report["verdict"] == verdict
    for shown in (page_text(done["html"]), render(report, "text"), render(report, "markdown")):
        assert messages.say_in("zh", f"verdict_{verdict}") in shown
        assert _report_left(report, shown, code, TOY_TITLES) == [], shown
    assert "训练诊断" in page_text(done["html"])  # the problem's title, in the package's Chinese
    text = render(report, "text")
    if verdict == "wrong_answer":  # the diff's columns and its fields are there, in zh (the hint: the command line's)
        assert all(messages.say_in("zh", k) in text for k in ("report_field", "report_tolerance"))
        assert "一个小型 ReLU MLP" in text and "层 1 · std" in text and "张量 8×5，normal，种子 11" in text
    if verdict == "time_limit_exceeded":  # the limit notes, the sample's exact and the hidden case's bare
        assert "秒 CPU 时间后被停止" in text and "超出了时间限制" in text


def test_custom_input_in_zh_says_its_notes_and_nothing_to_compare_in_zh(site, root):
    pasted = next((root / "problems" / SLUG / "cases" / "sample").glob("*.json")).read_text()
    raw = json.loads(pasted)
    own = {"custom/input": raw["title"]}  # the pasted case's title is the learner's own (its translations ignored)
    done = _judged(site, "run", REFERENCE_SOURCE, case=pasted)
    assert done["verdict"] == "accepted" and "只有评测程序使用它们" in done["html"]
    fields = "\n".join(raw)  # the pasted case's own field names (build_sha256, translations), which the note names
    assert _report_left(done["report"], page_text(done["html"]), REFERENCE_SOURCE + fields, own) == []
    done = _judged(site, "run", REFERENCE_SOURCE, case=json.dumps({"objects": raw["objects"], "calls": raw["calls"]}))
    report = done["report"]
    assert done["verdict"] == "ran" and "没有可比较的内容" in report["output"]
    for shown in (page_text(done["html"]), render(report, "text")):
        assert messages.say_in("zh", "report_outputs") in shown
        assert _report_left(report, shown, REFERENCE_SOURCE, {"custom/input": "input"}) == [], shown  # untitled:
        # the case is called by its file's name, as its id


def test_the_list_and_history_pages_in_zh_show_no_english_word_of_the_judges(site):
    _judged(site, "run", WRONG)
    problems = [find_problem(slug) for slug in available()]
    titles = [p.title_in("zh") for p in problems]
    assert not [t for p, t in zip(problems, titles) if untranslated(p.title, t)]
    names = [p.slug for p in problems] + titles + ["torch-diagnostics-judge"]
    listing = site.request("GET", "/?lang=zh")[1].decode()
    assert "规则引擎" in listing and ">rule-engine<" not in listing and '<html lang="zh">' in listing
    assert "训练诊断" in listing and "Training Diagnostics" not in listing
    assert english_left(page_text(listing), names) == []
    history = site.request("GET", f"/problems/{SLUG}/history?lang=zh")[1].decode()
    assert "答案错误" in history and "训练诊断" in history
    hashes = re.findall(r"<code>([0-9a-f]{10})</code>", history)  # each attempt's code, by its hash
    sources = re.findall(r"<td>([^<]*)</td><td><code>", history)  # where each came from: browser, a file's path
    assert "browser" in sources
    assert english_left(page_text(history), [*names, *hashes, *sources, f"judge history {SLUG} --show N"]) == []
    english = site.request("GET", "/")[1].decode()  # without ?lang=, as before: English
    assert ">rule-engine<" in english and "Problems" in english and "Training Diagnostics" in english


def test_the_problem_pages_testcase_tab_has_each_samples_title_and_inputs_in_each_language(site):
    page = site.request("GET", f"/problems/{SLUG}?lang=zh")[1].decode()
    shown = dict(re.findall(r'<div class="in-lang" lang="(\w+)"(?: hidden)?>(.*?)</div>', page, flags=re.S))
    assert set(shown) == {"en", "zh"}
    assert "a small ReLU MLP" in shown["en"] and "seed 11" in shown["en"]
    assert "一个小型 ReLU MLP" in shown["zh"] and "种子 11" in shown["zh"]  # the case's title: checked as authored text
    lines = [html.unescape(line) for line in re.findall(r"<li><code>(.*?)</code></li>", shown["zh"])]
    objects = [line for line in lines if re.match(r"\w+ = ", line)]  # the rest are the calls: code
    assert len(objects) == 3 and [w for line in objects for w in description_words(line)] == []
    rest = re.sub(r"<li><code>.*?</code></li>|<code>.*?</code>", " ", shown["zh"])
    assert english_left(page_text(rest), ["一个小型 ReLU MLP"]) == [] and "输入" in rest


def test_the_sites_refusals_and_error_page_are_said_in_the_pages_language(site):
    status, body = site.request("GET", "/problems/no-such-problem?lang=zh")
    text = page_text(body.decode())
    assert status == 404 and "页面不存在" in text and "未知的题目" in text
    assert english_left(text, ["no-such-problem", "torch-diagnostics-judge"]) == [], text
    sent = {"code": REFERENCE_SOURCE, "case": "{not json", "lang": "zh"}
    status, body = site.request("POST", f"/api/problems/{SLUG}/custom?lang=zh", sent)
    error = json.loads(body)["error"]
    assert status == 400 and error.startswith("自定义输入 不是有效的 JSON")
    assert ZH["json_expecting_property"] in error and english_left(error, []) == [], error  # the JSON reader's too
    status, body = site.request("GET", "/?lang=zh", headers={TOKEN_HEADER: None, "cookie": None})
    refused = json.loads(body)["error"]
    assert status == 403 and english_left(refused, []) == [] and "密钥" in refused, refused
    assert "key" in json.loads(site.request("GET", "/", headers={TOKEN_HEADER: None, "cookie": None})[1])["error"]


def test_a_language_the_site_does_not_show_is_a_400_in_one_line(site):
    for lang in ("fr", 5, ["zh"]):
        status, body = site.request("POST", f"/api/problems/{SLUG}/run", {"code": REFERENCE_SOURCE, "lang": lang})
        error = json.loads(body)["error"]
        assert status == 400 and "\n" not in error and "en, zh" in error


# -- the command line and the notebook ---------------------------------------------------------------------------
def test_judge_run_list_and_history_with_lang_zh_show_no_english_word_of_the_judges(root, tmp_path):
    """On the bundled problem, whose sample cases hold the known mistakes: a wrong answer's diff and hint; then the
    problem list and the attempt history."""
    solution = tmp_path / f"{SLUG}.py"
    solution.write_text(WRONG)
    judged = run_judge(["run", SLUG, str(solution), "--lang", "zh", "--format", "json"])
    report = json.loads(judged.stdout)
    assert judged.returncode == 1 and report["lang"] == "zh" and report["verdict"] == "wrong_answer", judged.stderr
    assert any(h["pitfall"] == "population-std-activation" for t in report["tests"]
               for c in t["extra_data"]["calls"] for h in c.get("hints", []))
    titles = {case.id: case.titles["zh"] for case in find_problem(SLUG).samples}
    for shown in (render(report, "text"), page_text(render(report, "html"))):
        assert messages.say_in("zh", "report_hint") in shown or messages.say_in("zh", "site_hint") in shown
        assert "贝塞尔校正" in shown  # the hint, in the package's Chinese
        assert _report_left(report, shown, WRONG, titles) == [], shown
    listing = run_judge(["list", "--lang", "zh", "--no-color"], root).stdout
    problems = [find_problem(slug) for slug in available()]
    assert "规则引擎" in listing and "训练诊断" in listing
    assert english_left(listing, [v for p in problems for v in (p.slug, p.title_in("zh"))]) == [], listing
    history = run_judge(["history", SLUG, "--lang", "zh", "--no-color"]).stdout
    assert "答案错误" in history and "运行" in history
    kept = [*re.findall(r"保存在 (\S+)", history), *re.findall(r"\b[0-9a-f]{10}\b", history)]
    assert english_left(history, kept) == [], history


def test_the_one_line_errors_of_the_learners_commands_are_said_in_zh(tmp_path):
    """Each bad input a learner's command refuses: one line, in Chinese but for the paths, slugs and commands it
    names (and the JSON reader's own words)."""
    solution = tmp_path / f"{SLUG}.py"
    solution.write_text(REFERENCE_SOURCE)
    (tmp_path / "solution.txt").write_text(REFERENCE_SOURCE)
    (tmp_path / "broken.json").write_text("{not json")
    (tmp_path / "deep.json").write_text("[" * 40 + "]" * 40)
    (tmp_path / "no-calls.json").write_text('{"objects": {}, "calls": []}')
    (tmp_path / "bad-seed.json").write_text(json.dumps({**mlp_case("mine", 1, 4), "calls": [
        {"method": "compute_activation_stats", "args": ["$model", "$x"]}]}).replace('"seed": 2', '"seed": -2'))
    tries = {
        "unknown_problem": ["run", "no-such-problem"], "unknown_problem_close": ["show", "training-diagnostic"],
        "file_missing": ["run", SLUG, "missing.py"], "file_is_dir": ["submit", SLUG, str(tmp_path)],
        "file_not_python": ["run", SLUG, "solution.txt"],
        "case_not_json": ["run", SLUG, solution.name, "--case", "broken.json"],
        "case_too_deep": ["run", SLUG, solution.name, "--case", "deep.json"],
        "case_invalid": ["run", SLUG, solution.name, "--case", "no-calls.json"],
        "expect_seed": ["run", SLUG, solution.name, "--case", "bad-seed.json"],
        "start_exists": ["start", SLUG, solution.name], "start_not_python": ["start", SLUG, "mine.txt"],
        "start_unwritable": ["start", SLUG, "no-such-folder/mine.py"],
        "case_unreadable": ["run", SLUG, solution.name, "--case", "missing.json"],
        "history_no_attempt": ["history", SLUG, "--show", "999"], "history_which_problem": ["history", "--show", "1"],
    }
    for key, args in tries.items():
        done = run_judge([*args, "--lang", "zh"], cwd=tmp_path)
        line = done.stderr
        assert done.returncode == 2 and line.startswith("judge: ") and line.count("\n") == 1, (key, line)
        assert max(re.split(r"\{[^}]*\}", ZH[key]), key=len).strip() in line, (key, line)
        fields = re.findall(r"字段 (\S+)：", line)  # where in the case file: its own names (calls, objects.x.seed)
        assert english_left(line, [str(tmp_path), *available(), *args, *fields]) == [], (key, line)


def test_check_in_a_notebook_judges_and_refuses_in_the_language_asked(tmp_path):
    """``check(slug, Solution, lang="zh")``: its report in Chinese, hint included, and the error it raises on bad input
    too; a language the judge does not speak is refused."""
    script = (f"import json\nfrom judge import check\nfrom judge.errors import BadInput\n"
              f"result = check({SLUG!r}, {WRONG!r}, lang='zh')\nprint('REPORT', json.dumps(result.report))\n"
              f"for solution, lang in ((42, 'zh'), ({REFERENCE_SOURCE!r}, 'fr')):\n"
              f"    try:\n        check({SLUG!r}, solution, lang=lang)\n"
              f"    except BadInput as exc:\n        print('ERROR', exc)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    shown, rest = done.stdout.split("\nREPORT ", 1)
    report, *errors = rest.splitlines()
    report = json.loads(report.removeprefix("REPORT "))
    titles = {case.id: case.titles["zh"] for case in find_problem(SLUG).samples}
    assert report["lang"] == "zh" and report["verdict"] == "wrong_answer" and "贝塞尔校正" in shown, done.stderr
    assert _report_left(report, shown, WRONG, titles) == [], shown
    assert errors[0] == "ERROR " + messages.say_in("zh", "check_not_a_class", kind=messages.Said(
        "object_of_type", name="int")) and "int 类型的对象" in errors[0]
    assert errors[1] == "ERROR lang must be one of en, zh, not 'fr'"


# -- the class view of judge grade --lang zh ---------------------------------------------------------------------
def test_judge_grade_in_zh_writes_the_class_view_and_the_students_reports_in_chinese(root, tmp_path):
    """A class of three (the reference, a wrong answer, a folder with no .py file) and an entry that is no submission,
    graded in zh: the overview, the gradebook's feedback and each student's report, with no English word of the
    judge's; the student page of ``judge serve --class`` is said in the page's language."""
    folder = tmp_path / "class"
    (folder / "bo").mkdir(parents=True)
    (folder / "al.py").write_text(REFERENCE_SOURCE)
    (folder / "cy.py").write_text(WRONG)
    (folder / "bo" / "notes.txt").write_text("no code")
    (folder / "readme.md").write_text("not a submission")
    out = tmp_path / "out"
    done = run_judge(["grade", SLUG, str(folder), "--out", str(out), "--lang", "zh", "--jobs", "1",
                      "--allow-weak-sandbox"], root)
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    cases = [c["case"] for c in summary["cases"]]
    cut = ["al", "bo", "cy", "al.py", "cy.py", "notes.txt", "readme.md", *cases, "--every-entry",
           "'judge grade --every-entry'", "solution.py", "--points"]
    index = page_text((out / "index.html").read_text(encoding="utf-8"))
    assert "训练诊断" in index and "各用例通过率" in index and "答案错误" in index
    assert english_left(index, cut) == [], index
    said = done.stdout + done.stderr  # its lines in the terminal: what was judged, the verdicts, what was skipped
    assert "3 份提交" in said and "答案错误 1" in said and "跳过了 1 个" in said and "班级报告" in said, said
    assert english_left(said, [*cut, str(out / "index.html"), SLUG, "summary.csv", "summary.json", "junit.xml",
                               "index.html"]) == [], said
    assert "答案错误（通过用例" in (out / "gradebook.csv").read_text(encoding="utf-8")
    for student in ("al", "bo", "cy"):
        report = json.loads((out / "students" / student / "results.json").read_text(encoding="utf-8"))
        shown = page_text((out / "students" / student / "report.html").read_text(encoding="utf-8"))
        assert report["lang"] == "zh"
        code = (folder / f"{student}.py").read_text() if student != "bo" else "notes.txt\nsolution.py"  # file names
        assert _report_left(report, shown, code, TOY_TITLES) == [], shown
    page = TEMPLATES.get_template("student.html.j2").render(
        token="", has_class=True, **page_words("zh"), student="bo", report="", code=None, verdict="compile_error",
        source="bo")
    assert "学生 bo" in page and english_left(page_text(page), ["bo", "torch-diagnostics-judge"]) == []


def test_judge_merge_says_its_lines_and_its_refusals_in_zh(root, tmp_path):
    """A graded class merged in zh, then merged again once a stored figure is edited (the audit's reason said in zh
    too), and grade's and merge's other refusals; in English, merge's lines as they were."""
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "al.py").write_text(REFERENCE_SOURCE)
    out, merged = tmp_path / "out", tmp_path / "merged"
    assert run_judge(["grade", SLUG, str(tmp_path / "class"), "--out", str(out), "--jobs", "1",
                      "--allow-weak-sandbox"], root).returncode == 0
    paths = [str(p) for p in (out, merged, merged / "index.html", tmp_path / "class", tmp_path)]
    files = ["summary.csv", "summary.json", "junit.xml", "index.html", "al", SLUG]
    done = run_judge(["merge", str(out), "--out", str(merged), "--lang", "zh"], root)
    assert done.returncode == 0 and "来自 1 个文件夹的 1 名学生" in done.stdout and "通过 1" in done.stdout, done.stdout
    assert english_left(done.stdout + done.stderr, [*paths, *files]) == [], done.stdout
    english = run_judge(["merge", str(out), "--out", str(merged)], root).stdout
    assert english.startswith("1 students from 1 folders\naccepted 1\nclass report: "), english
    stored = out / "students" / "al" / "results.json"
    stored.write_text(stored.read_text(encoding="utf-8").replace('"passed": 2', '"passed": 1', 1), encoding="utf-8")
    refusals = {"merge_tampered": ["merge", str(out), "--out", str(merged)],
                "merge_not_graded": ["merge", str(tmp_path / "class"), "--out", str(merged)],
                "bad_shard": ["grade", SLUG, str(tmp_path / "class"), "--out", str(out), "--shard", "3/2"],
                "bad_points": ["merge", str(out), "--out", str(merged), "--points=0"]}
    for key, args in refusals.items():
        done = run_judge([*args, "--lang", "zh"], root)
        line = done.stderr
        assert done.returncode == 2 and line.startswith("judge: ") and line.count("\n") == 1, (key, line)
        assert max(re.split(r"\{[^}]*\}", ZH[key]), key=len).strip() in line, (key, line)
        assert english_left(line, [*paths, *files, "passed"]) == [], (key, line)  # passed: the figure's field
    assert "但由它的用例得出的是" in run_judge([*refusals["merge_tampered"], "--lang", "zh"], root).stderr


def test_grades_progress_line_is_said_in_its_language():
    """The line redrawn on a terminal while a class is judged: verdicts by their short names in English (as it was),
    by their names in zh."""
    lines = {}
    for lang in ("en", "zh"):
        stream = io.StringIO()
        line = Line(stream, lang)
        line.start(2)
        for verdict in ("accepted", "wrong_answer"):
            line.judged(verdict)
        line.finish()
        lines[lang] = stream.getvalue().split("\r\x1b[K")[-2]
    assert re.fullmatch(r"2/2 judged · AC 1 WA 1 · 0:00 elapsed · ETA 0:00", lines["en"]), lines["en"]
    assert re.fullmatch(r"已评测 2/2 · 通过 1 答案错误 1 · 已用 0:00 · 预计还需 0:00", lines["zh"]), lines["zh"]
    assert english_left(lines["zh"], []) == []


def test_a_class_overview_in_english_is_as_it_was_and_each_language_names_its_reasons(tmp_path):
    (tmp_path / "class" / ".hidden").mkdir(parents=True)
    (tmp_path / "class" / "notes.txt").write_text("")
    (tmp_path / "class" / "al.py").write_text(REFERENCE_SOURCE)
    reasons = {lang: {s.entry: s.reason for s in discover(tmp_path / "class", SLUG, lang=lang).skipped}
               for lang in ("en", "zh")}
    assert reasons["en"][".hidden"] == messages.say("grade_skip_hidden") and "隐藏" in reasons["zh"][".hidden"]
    golden = json.loads((REPO / "tests" / "golden" / "wrong_answer.json").read_text(encoding="utf-8"))
    golden["grading"] = {"student": "al", "source": "al.py", "judge_key": "k", "run": "r"}
    Store(tmp_path / "out").save(golden)
    summary = summarise(SLUG, "Training Diagnostics", None, [golden])
    index = page_text(write_outputs(tmp_path / "out", summary, [golden]).read_text(encoding="utf-8"))
    assert "1 students · 0 accepted (0%)" in index and "Pass rate per case" in index and "wrong_answer" in index


# -- argparse's words, the commands' help, JUDGE_LANG ------------------------------------------------------------
DEVELOPER_ONLY = {
    ".__call__() not defined", "conflicting subparser: %s", "conflicting subparser alias: %s",
    'argument "-" with mode %r', "cannot merge actions - two groups are named %r",
    "'required' is an invalid argument for positionals", "dest= is required for options like %r",
    "invalid option string %(option)r: must start with a character %(prefix_chars)r",
    "invalid conflict_resolution value: %r", "conflicting option string: %s", "conflicting option strings: %s",
    "mutually exclusive arguments must be optional", "cannot have multiple subparser arguments", "%r is not callable"}
"""argparse's msgids that only a parser built wrongly says (a bug of the judge's, caught by every test that builds
it), never a learner's command line"""


def _argparse_msgids() -> set[str]:
    """Every msgid argparse (this Python's) passes to ``_`` or ``ngettext``."""
    tree = ast.parse(Path(argparse.__file__).read_text(encoding="utf-8"))
    return {arg.value for call in ast.walk(tree) if isinstance(call, ast.Call) and getattr(call.func, "id", "") in
            ("_", "ngettext") for arg in call.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)}


def test_every_argparse_msgid_a_command_line_can_meet_has_a_zh_entry():
    """A Python whose argparse says something new fails here until messages.zh.toml's [argparse] says it too."""
    said = messages.argparse_words("zh")
    msgids = _argparse_msgids()
    assert {"usage: ", "invalid choice: %(value)r (choose from %(choices)s)"} <= msgids and DEVELOPER_ONLY & msgids
    assert sorted(msgids - DEVELOPER_ONLY - set(said)) == []
    assert {k: v for k, v in said.items() if untranslated(k, v)} == {}


QUOTED = re.compile(r"'[^']*'")
"""a value or a piece of code, quoted in a usage error or a help text ('xml', '<slug>.py')"""


def _usage_error(capsys, argv: list[str]) -> str:
    with pytest.raises(SystemExit) as ended:
        cli.main(argv)
    err = capsys.readouterr().err
    assert ended.value.code == 2 and err.startswith("judge: ") and err.count("\n") == 1, err
    return err


USAGE_ERRORS = {
    "unrecognized arguments": ["run", SLUG, "mine.py", "nonexistent-arg-mistake"],
    "the following arguments are required": ["run"],
    "invalid choice": ["run", SLUG, "--format", "xml"],
    "unrecognized option": ["run", SLUG, "--bogus"],
    "invalid int value": ["history", SLUG, "--show", "x"],
    "expected one argument": ["run", SLUG, "--format"],
    "not allowed with argument": ["history", SLUG, "--show", "1", "--restore", "2"],
    "ignored explicit argument": ["list", "--no-color=yes"],
    "ambiguous option": ["grade", SLUG, "class", "--out", "out", "--shar", "2"],
    "a count of its own": ["grade", SLUG, "class", "--out", "out", "--jobs", "0"],
    "a port number": ["serve", "--port", "99999"],
}


@pytest.mark.parametrize("argv", USAGE_ERRORS.values(), ids=USAGE_ERRORS)
def test_every_kind_of_usage_error_is_said_in_zh(capsys, argv):
    """argparse's own words and the judge's wrapper, in the language of ``--lang`` (put last, as a learner adds it);
    left: the command line's own words (its options, values and choices) and ``int``, the type's name."""
    err = _usage_error(capsys, [*argv, "--lang", "zh"])
    code = [*argv, *_code_of({a.dest: a for a in cli.parser()._actions}["command"].choices[argv[0]]), "int"]
    assert re.search(r"[\u4e00-\u9fff]", err) and "（见 'judge" in err, err
    assert english_left(err, [*code, *QUOTED.findall(err)]) == [], err
    english = _usage_error(capsys, argv)
    assert "see 'judge" in english and english_left(english, code)  # the same check sees the English


def test_judge_lang_says_usage_errors_in_its_language_and_argv_wins(capsys, monkeypatch):
    monkeypatch.setenv("JUDGE_LANG", "zh")
    assert "缺少以下必需的参数" in _usage_error(capsys, ["run"])
    assert "the following arguments are required" in _usage_error(capsys, ["run", "--lang", "en"])
    assert "argument --lang: invalid choice: 'fr'" in _usage_error(capsys, ["run", "--lang=fr"])  # in English
    for unknown in ("fr", "../zh", "ZH"):  # a language the judge does not speak: English, never a crash
        monkeypatch.setenv("JUDGE_LANG", unknown)
        assert cli.language_of(["run"]) == "en" and settings.LANG.lenient() == "en"
        assert "the following arguments are required" in _usage_error(capsys, ["run"])
    assert cli.language_of(["run", "--lang=zh"]) == "zh" and cli.language_of(["run", "--", "--lang", "zh"]) == "en"


def test_the_language_setting_offers_the_languages_the_judge_speaks_and_doctor_lists_it(monkeypatch):
    assert settings.LANG.choices == tuple(messages.LANGUAGES) and settings.LANG.choices[0] == "en"
    monkeypatch.delenv("JUDGE_LANG", raising=False)
    assert "  JUDGE_LANG  (not set: en)" in doctor.settings()
    monkeypatch.setenv("JUDGE_LANG", "zh")
    assert "  JUDGE_LANG = zh  (set)" in doctor.settings()
    assert cli.parser("zh").parse_args(["run", SLUG]).lang == "zh"  # the learner's commands' --lang default


LEARNER_COMMANDS = ("list", "show", "start", "run", "submit", "watch", "history", "serve", "grade", "merge")
"""the commands whose help is said in the learner's language; the author's (statement, new, gen, verify, mutate),
the platforms' (export, autograde) and doctor stay English (docs/practising.md)"""


def _code_of(parser: argparse.ArgumentParser) -> list[str]:
    """What a command's help shows that is code: its options, metavars, destinations and choices."""
    return [word for action in parser._actions for word in (
        *action.option_strings, *([action.metavar] if isinstance(action.metavar, str) else []), action.dest,
        action.dest.upper(),
        *(str(c) for c in action.choices or ()), "{" + ",".join(map(str, action.choices or ())) + "}")]


@pytest.mark.parametrize("command", LEARNER_COMMANDS)
def test_the_help_of_each_learner_command_is_said_in_zh(capsys, command):
    commands = {a.dest: a for a in cli.parser("zh")._actions}["command"].choices
    with pytest.raises(SystemExit):
        cli.main([command, "--help", "--lang", "zh"])
    shown = capsys.readouterr().out
    assert shown.startswith("用法：judge " + command) and "选项" in shown and "显示此帮助信息并退出" in shown
    assert english_left(shown, [*_code_of(commands[command]), command, "judge", *QUOTED.findall(shown)]) == [], shown


def test_judge_help_in_zh_leaves_only_the_authors_and_platforms_commands_in_english(capsys, monkeypatch):
    monkeypatch.setenv("JUDGE_LANG", "zh")
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    shown = capsys.readouterr().out
    top = cli.parser("en")
    commands = {a.dest: a for a in top._actions}["command"]
    english = [a.help for a in commands._choices_actions if a.dest not in LEARNER_COMMANDS]
    assert len(english) == 8 and "练习、评分和编写" in shown
    assert english_left(shown, [*english, *_code_of(top), *commands.choices]) == [], shown


# -- judge serve's lines -----------------------------------------------------------------------------------------
def test_judge_serve_says_its_lines_in_its_language_and_starts_the_site_in_it(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets: None)  # its lines, not the site
    (tmp_path / "index.html").write_text("")
    (tmp_path / "summary.json").write_text("{}")
    launch.serve("0.0.0.0", 0, graded=tmp_path, lang="zh")
    said = capsys.readouterr()
    shown = said.out + said.err
    url = re.search(r"http://\S+", said.out)[0]
    assert "练习网站" in shown and "警告" in shown and "教师视图" in shown and url.endswith("&lang=zh"), shown
    assert english_left(shown, [url, str(tmp_path.resolve()), "0.0.0.0", *re.findall(r"http://\S+", shown)]) == []
    launch.serve("127.0.0.1", 0)
    assert "&lang" not in capsys.readouterr().out  # English: the link as it was


# -- other programs' words: the system's, the JSON reader's --------------------------------------------------------
@pytest.mark.parametrize("code", [*OS_ERRORS, errno.EBUSY], ids=[*(errno.errorcode[c] for c in OS_ERRORS), "other"])
def test_a_system_error_is_the_systems_words_in_english_and_the_catalogues_in_zh(code):
    reason = os_reason(OSError(code, os.strerror(code)))
    assert reason.said_in("en") == os.strerror(code) and f"{reason}" == os.strerror(code)
    zh = reason.said_in("zh")
    assert re.search(r"[\u4e00-\u9fff]", zh) and english_left(zh, [errno.errorcode[code]]) == [], zh
    line = messages.say_in("zh", "file_unreadable", path="x.py", reason=reason)
    assert zh in line and english_left(line, ["x.py", errno.errorcode[code]]) == []


BAD_JSON = {"json_expecting_value": "", "json_expecting_property": "{1: 2}", "json_expecting_colon": '{"a" 1}',
            "json_expecting_comma": "[1 2]", "json_unterminated_string": '"abc', "json_control_character": '"\x01"',
            "json_unicode_escape": '"\\u12"', "json_escape": '"\\q"', "json_extra_data": "[1] x"}


def _decoder_messages() -> set[str]:
    """Every message json.decoder raises, read from its source: a JSONDecodeError's first argument, or the ``msg`` it
    builds first (up to the character the pure-Python reader appends)."""
    found = set()
    for node in ast.walk(ast.parse(Path(json.decoder.__file__).read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "JSONDecodeError" and isinstance(
                node.args[0], ast.Constant):
            found.add(node.args[0].value)
        if isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == ["msg"]:
            built = node.value.func.value if isinstance(node.value, ast.Call) else node.value
            if isinstance(built, ast.Constant):
                found.add(built.value.split("{")[0])
    return found


def test_every_message_of_the_json_reader_is_said_in_zh():
    """Each text the reader refuses is told by its own message; every message json.decoder can raise (read from its
    source, each of the C scanner's too) has one."""
    for key, text in BAD_JSON.items():
        with pytest.raises(json.JSONDecodeError) as refused:
            json.loads(text)
        reason = json_reason(refused.value.msg)
        assert reason.key == key and reason.said_in("en") == refused.value.msg, (key, refused.value.msg)
        assert english_left(reason.said_in("zh"), []) == [], key
    msgs = _decoder_messages()
    assert len(msgs) >= 8 and {m: json_reason(m).key for m in msgs if json_reason(m).key == "json_error"} == {}
    assert english_left(json_reason("something new").said_in("zh"), []) == []


# -- a value the worker cannot send -------------------------------------------------------------------------------
UNRETURNABLE = REFERENCE_SOURCE + (
    "\n\nclass Solution(Solution):\n    def compute_activation_stats(self, model, x):\n        return x\n"
    "    def compute_gradient_stats(self, model, x, y):\n        return [object()] * 3\n")


def test_a_value_the_worker_cannot_send_is_described_in_the_reports_language(tmp_path):
    solution = tmp_path / "mine.py"
    solution.write_text(UNRETURNABLE)
    for lang in ("zh", "en"):
        judged = run_judge(["run", SLUG, str(solution), "--lang", lang, "--format", "json"])
        report = json.loads(judged.stdout)
        text = render(report, "text")
        if lang == "en":
            assert "got a tensor of shape [16, 8]" in text and "an object of type object" in text
            continue
        assert "形状为 [16, 8] 的张量" in text and "object 类型的对象" in text, text
        titles = {case.id: case.titles["zh"] for case in find_problem(SLUG).samples}
        assert _report_left(report, text, UNRETURNABLE, titles) == [], text


def test_a_forged_unsupported_marker_is_shown_as_data_never_as_a_template():
    """The marker is the submission's to forge: a known key with fields of the wrong kind is shown as its text, and
    a type name full of markup is a field, escaped where it is shown."""
    assert encode(torch.zeros(2, 3), None) == {"$unsupported": {"key": "unsupported_tensor", "shape": [2, 3]}}
    forged = [{"key": "unsupported_tensor", "shape": "{0.__class__}"}, {"key": "security_level"},
              {"key": "object_of_type", "name": "x" * 61}, {"key": "unsupported_deep", "extra": 1}, "{name}"]
    for marker in forged:
        assert compare({"$unsupported": marker}, 0.5).format_error.got == str(marker)
    said = compare({"$unsupported": {"key": "object_of_type", "name": "<b>{x}</b>"}}, 0.5).format_error.got
    assert type_in("zh", said) == "<b>{x}</b> 类型的对象" and type_in("en", said) == "an object of type <b>{x}</b>"


# -- a file that is not a solution ----------------------------------------------------------------------------------
NOT_SOLUTIONS = {
    "empty": ("", "the file defines no class Solution", "文件中没有定义类 Solution"),
    "no-methods": ("class Solution:\n    pass\n", "class Solution has no method compute_activation_stats, "
                   "compute_gradient_stats, diagnose; it has: none", "类 Solution 缺少方法 compute_activation_stats, "
                   "compute_gradient_stats, diagnose；它有的方法：无"),
    "renamed": (REFERENCE_SOURCE.replace("def diagnose(", "def diagnosis("), "class Solution has no method diagnose; "
                "it has: compute_activation_stats, compute_gradient_stats, diagnosis", "类 Solution 缺少方法 diagnose；"
                "它有的方法：compute_activation_stats, compute_gradient_stats, diagnosis"),
}
"""a file that imports but is not a solution: its source, then what the report says in English (as the worker worded
it before it sent a key) and in zh"""


@pytest.mark.parametrize("name", NOT_SOLUTIONS)
def test_a_file_that_is_not_a_solution_is_said_in_the_reports_language(root, tmp_path, name):
    source, english, chinese = NOT_SOLUTIONS[name]
    solution = tmp_path / "mine.py"
    solution.write_text(source)
    shown = {}
    for lang in ("en", "zh"):
        report = json.loads(run_judge(["run", SLUG, str(solution), "--lang", lang, "--format", "json"], root).stdout)
        assert report["verdict"] == "compile_error" and report.get("lang", "en") == lang
        shown[lang] = render(report, "text")
    assert f"\nImportError: {english}\n" in shown["en"], shown["en"]
    assert f"\n导入错误: {chinese}\n" in shown["zh"], shown["zh"]
    names = [m["name"] for m in find_problem(SLUG).methods] + ["diagnosis"]  # the problem's and the class's methods
    assert _report_left(report, shown["zh"], "\n".join(names), TOY_TITLES) == [], shown["zh"]
    assert _report_left(report, page_text(render(report, "html")), "\n".join(names), TOY_TITLES) == []


def test_a_file_that_ends_its_import_is_told_so_in_the_reports_language(root, tmp_path):
    """The judge's own note on an import that ended the worker, said in zh (it was said in English alone), and the
    footer's security level without its layers (it kept the first of them, cut mid-way, in zh)."""
    solution = tmp_path / "mine.py"
    solution.write_text("import os\nos._exit(3)\n")
    report = json.loads(run_judge(["run", SLUG, str(solution), "--lang", "zh", "--format", "json"], root).stdout)
    text = render(report, "text")
    assert report["judge"]["startup_error"]["trace"] == "" and "导入你的文件时，它结束了进程（退出状态 3）" in text, text
    assert re.search(r"\n评测程序 \S+ · 安全级别 L\d · 设备 cpu · ", text), text  # the level alone, as in English
    assert _report_left(report, text, "", TOY_TITLES) == [], text


def test_a_forged_not_a_solution_reply_is_shown_as_data_never_said_as_the_judges():
    """The reply comes after the submission ran in the worker: a key with any field a worker does not send (a method
    the problem has not, a name list of another kind or too long, another field, another key) is shown as its text."""
    methods = ["compute_activation_stats", "diagnose"]
    good = {"type": "import_error", "key": "import_missing_methods", "missing": ["diagnose"], "found": ["x", "y"]}
    note = _import_failure(good, methods)
    assert isinstance(note, JudgesNote) and note["msg"] == "class Solution has no method diagnose; it has: x, y"
    assert note.fields["found"] == "x, y" and note["trace"] == ""
    forged = [{**good, "missing": ["rm"]}, {**good, "missing": ["diagnose", "compute_activation_stats"]},
              {**good, "missing": []}, {**good, "found": "x, y"}, {**good, "found": [1]}, {**good, "extra": 1},
              {**good, "found": ["x" * (MESSAGE_CHARS + 1)]}, {**good, "key": "security_level"},
              {"type": "import_error", "key": "import_no_solution_class", "found": []}]
    for message in forged:
        error = _import_failure(message, methods)
        assert type(error) is dict and error["msg"] == str({k: v for k, v in message.items() if k != "type"})[
            :MESSAGE_CHARS] and error["exc"] == "ImportError", message
    lone = _import_failure({**good, "found": ["\ud800<b>{x}</b>"]}, methods)
    assert lone.fields["found"] == "\ufffd<b>{x}</b>"  # a field: escaped where shown, never a template
    assert _import_failure({"type": "import_error", "exc": "E", "msg": "m", "trace": "t"}, methods) == {
        "exc": "E", "msg": "m", "trace": "t"}  # an exception's fields, as before


def test_the_methods_a_class_has_travel_within_the_message_limit():
    """A class with thousands of methods (a forged ``dir``) still fits one reply: the names whose joined text is the
    whole list's cut where a message is cut."""
    many = [f"method_{i:05d}_" + "x" * (i % 50) for i in range(3000)]
    for names in (many, ["a" * 5000], ["ab", "c"], [], ["a" * (MESSAGE_CHARS - 3), "bcd"]):
        joined, kept = ", ".join(names), ", ".join(names_within(names))
        assert joined.startswith(kept) and min(len(joined), MESSAGE_CHARS - 2) <= len(kept) <= MESSAGE_CHARS, names[:2]
    with pytest.raises(NotASolution) as refused:
        load_solution(b"class Solution:\n" + "".join(f"    def {n}(self): pass\n" for n in many).encode(), "x.py",
                      ["diagnose"])
    message = json.loads(json.dumps(import_failure(refused.value)))
    assert len(", ".join(message["found"])) == MESSAGE_CHARS and _import_failure(message, ["diagnose"]).key == \
        "import_missing_methods"


# -- the security level in full ------------------------------------------------------------------------------------
NAMES = ("bubblewrap", "cgroup", "uid", "seccomp", "Landlock", "ABI")
"""the kernel's and the tools' names, which a security level says as they are in every language"""


def test_the_security_level_in_full_is_said_in_the_reports_language():
    """``--verbose``'s description, with the reasons a level gives for each layer that is off; a probe's own failure
    text (another program's) stays as it is."""
    off = (messages.SaidText("layer_off", layer="bubblewrap", reason=messages.SaidText("no_bwrap")),
           messages.SaidText("layer_off", layer=messages.SaidText("layer_name_private_mounts"),
                             reason=messages.SaidText("layer_uid_not_root")),
           messages.SaidText("layer_off", layer="Landlock", reason=messages.SaidText("no_landlock")),
           messages.SaidText("layer_off", layer="cgroup", reason=messages.SaidText("layer_env_off", env="JUDGE_CGROUPS")))
    for confinement in (Confinement("L0", None, missing=off), Confinement("L2", 65534, "/usr/bin/bwrap", (), True, 7,
                                                                         2, True, "user")):
        zh = confinement.describe("zh")
        assert zh.startswith(confinement.level + "（") and english_left(zh, ["JUDGE_CGROUPS=off"], NAMES) == [], zh
        english = confinement.describe()
        assert english == confinement.describe("en") and english_left(english, [])
    assert off[0] == "no bubblewrap: bwrap is not installed" and off[0].startswith("no bubblewrap")  # text, as before
    assert pickle.loads(pickle.dumps(off[1])).said_in("zh") == off[1].said_in("zh")


def test_judge_run_verbose_in_zh_says_the_security_level_in_chinese(tmp_path):
    solution = tmp_path / f"{SLUG}.py"
    solution.write_text(REFERENCE_SOURCE)
    shown = run_judge(["run", SLUG, str(solution), "--lang", "zh", "--verbose", "--no-color"]).stdout
    line = shown.strip().splitlines()[-1]
    assert "安全级别" in line and "资源限制" in line, line
    failures = re.findall(r"：([^；）]*(?:Error|exit status)[^；）]*)", line)  # a probe's own failure text, if any
    assert english_left(line, [*failures, "JUDGE_CGROUPS=off", "JUDGE_PRIVATE_MOUNTS=off",
                               "JUDGE_IPC_NAMESPACES=off"], NAMES) == [], line
