"""zh complete (issue 32 §6): a learner who reads the judge in Chinese sees no English word of the judge's own.

Real reports are judged in zh through the site (a wrong answer with a diff, a time limit, a runtime error, an
accepted submit, a pasted case with judge-only fields, a case without expected values) and through ``judge run
--lang zh`` on the bundled problem (a wrong answer with a diff and a hint); each is rendered as the learner sees it
(the site's HTML, the terminal's text, Markdown), the learner's own values, code and identifiers (and the
problem's authored text: titles, hints) are cut out, and what is left may hold no English word but those the zh
catalogue itself writes (CPU, MiB, torch, ...). The list and history pages, ``judge list`` and ``judge history``
are read the same way. A catalogue check says every key the zh path uses has a zh entry."""

from __future__ import annotations

import ast
import html
import json
import re
import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest

from judge import messages
from judge.messages_learner import TAGS
from judge.judging.session import IMPORTING
from judge.judging.verdict import ENDINGS, HIDDEN_LIMIT_NOTES, Verdict
from judge.worker.protocol import REPLACED
from judge.worker.runner import Ending
from judge.package.problem import available, find_problem
from judge.package.statement import render_markdown
from judge.report.render import render
from judge.serve.app import SITE_LABELS
from tests.support.cli import REFERENCE_SOURCE, REPO, SLUG, judge_env, run_judge
from tests.support.client import Client, launched
from tests.support.toy import build_toy, mlp_case
from tests.support.message_sites import code_sites, template_sites

ZH = messages.translations("zh")
WORD = re.compile(r"[A-Za-z][A-Za-z_]{2,}")
QUOTED_OR_FIELD = re.compile(r"""'[^']*'|"[^"]*"|\{[^}]*\}""")
COMMAND = re.compile(r"'(?:judge |--)[^']*'")
"""a command to type, quoted in a message ('judge show <problem>'): code, not words"""
ALLOWED = set(WORD.findall(" ".join(QUOTED_OR_FIELD.sub(" ", text) for text in ZH.values()))) | set(
    messages.LANGUAGES.values())
"""English-looking words a zh text may show: those the zh catalogue writes itself outside quoted commands and
fields (CPU, MiB, torch, PyTorch, ReLU, ...), and the language switch's own names"""
CASES = {
    "sample/01-small": {**mlp_case("a small ReLU MLP", 10, 8), "translations": {"zh": {"title": "一个小型 ReLU MLP"}}},
    "hidden/01-six": mlp_case("batch of six", 20, 6),
}
WRONG = REFERENCE_SOURCE.replace("'std': _r(x.std())", "'std': _r(x.std(correction=0))")
"""the population std: a wrong answer with a diff and the hint population-std-activation"""
SLOW = REFERENCE_SOURCE + "\n\nclass Solution(Solution):\n    def compute_activation_stats(self, model, x):\n" \
                          "        while True:\n            pass\n"
CRASH = REFERENCE_SOURCE + "\n\nclass Solution(Solution):\n    def compute_gradient_stats(self, model, x, y):\n" \
                           "        return 1 / 0\n"
REPORT_TEMPLATES = ("report.txt.j2", "report.md.j2", "report.fragment.html.j2", "report.html.j2", "list.html.j2",
                    "history.html.j2", "attempt.html.j2", "base.html.j2")


# -- the catalogue ---------------------------------------------------------------------------------------------
def zh_path_keys() -> set[str]:
    """Every key a learner reading zh can be shown: the report's templates and builder, the site's pages and
    result pane, verdicts, modes, tags, list columns, and the judge's notes on limits."""
    keys = {k for site in template_sites() if site.where.endswith(REPORT_TEMPLATES) for k in site.keys()}
    keys |= {k for site in code_sites() if site.where.startswith("judge/report/build.py") for k in site.keys()}
    keys |= {"list_summary", "history_cpu_bound", "serve_stopped", "serve_already_judging", "internal"}
    keys |= set(SITE_LABELS) | {f"verdict_{v.value}" for v in Verdict} | {"verdict_not_run", "mode_run", "mode_submit"}
    keys |= {k for k in messages.CATALOGUE if k.startswith(("tag_", "list_column_", "step_"))}
    keys |= {k for rule in ENDINGS.values() for k in (rule.message, rule.at_import)} | set(HIDDEN_LIMIT_NOTES.values())
    return keys


def test_every_key_the_zh_path_uses_has_a_zh_entry():
    keys = zh_path_keys()
    assert len(keys) > 120 and "report_passed" in keys and "tag_rule_engine" in keys
    assert sorted(keys - set(ZH)) == []


def test_every_step_the_judges_own_notes_name_has_a_key():
    """The ``exc`` of every note in the judge's words (judge.judging.session) is said in the report's language."""
    tree = ast.parse((REPO / "judge" / "judging" / "session.py").read_text(encoding="utf-8"))
    named = {c.args[0].value for c in ast.walk(tree) if isinstance(c, ast.Call) and getattr(c.func, "id", "") ==
             "_judges_note" and isinstance(c.args[0], ast.Constant)} | {IMPORTING, REPLACED, *(e.value for e in Ending)}
    keys = {f"step_{re.sub(r'[^a-z]+', '_', name.lower())}" for name in named}
    assert len(named) >= 13 and sorted(keys - set(messages.CATALOGUE)) == []


def test_every_bundled_tag_is_in_the_one_translated_vocabulary():
    tags = {t for slug in available() for t in find_problem(slug).meta.get("tags", [])}
    assert sorted(tags - set(TAGS)) == []
    assert messages.tag_in("zh", "rule-engine") == "规则引擎" and messages.tag_in("en", "rule-engine") == "rule-engine"
    assert messages.tag_in("zh", "not-in-the-vocabulary") == "not-in-the-vocabulary"  # a package's own: as written


def test_the_zh_statement_shows_the_tags_in_chinese():
    text = render_markdown(find_problem(SLUG), "zh")
    assert "规则引擎" in text and "rule-engine" not in text
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


# -- what is left of a page once the learner's own values are cut out --------------------------------------------
def _learner_values(report: dict[str, Any]) -> Iterator[str]:
    """The report's values that are the learner's (code, values, errors of their code, names of methods and
    fields), the problem's (slug, title, case ids, hints) or the machine's (version, device, security level)."""
    yield from (report["problem"]["slug"], report["problem"]["title"], report["submission"]["path"])
    judge = report["judge"]
    yield from (judge["version"], judge["torch"], judge["device"], judge["comparison_rule"],
                judge["security_level"], judge["security_level"].split(" ", 1)[0], *judge["expected_device"])
    for test in report["tests"]:
        x = test["extra_data"]
        yield from (x["case"], x.get("title") or "", *(x.get("inputs") or []))
        if x.get("not_run"):
            yield x["not_run"]["method"]
        for call in x["calls"]:
            yield call["method"]
            yield from (call.get("failed_field") or "", call.get("stdout") or "")
            for d in call.get("differences") or []:
                yield d["field"]
            for value in (call.get("got"), call.get("expected")):
                if value is not None:
                    yield from WORD.findall(json.dumps(value))  # the dicts' keys: mean, std, dead_fraction
            for h in call.get("hints") or []:
                yield from (h["pitfall"], h["text"])
            error = call.get("error") or {}
            if (error.get("exc") or "").isascii():  # the learner's exception; a judge's note names its step in zh
                yield from (error.get("exc") or "", error.get("msg") or "", error.get("trace") or "")


def english_left(shown: str, cut: list[str]) -> list[str]:
    """The English words of ``shown`` once every string of ``cut`` is removed (longest first), runs of white space
    counted as one (the text report wraps and indents hints and tracebacks)."""
    shown = " ".join(COMMAND.sub(" ", shown).split())
    for value in sorted({" ".join(c.split()) for c in cut if c.strip()}, key=len, reverse=True):
        shown = shown.replace(value, " ")
    return sorted({w for w in WORD.findall(shown) if w not in ALLOWED})


def page_text(page: str) -> str:
    """What a browser shows of an HTML page or fragment: no styles, scripts, tags or attributes."""
    page = re.sub(r"<(style|script)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def _report_left(report: dict[str, Any], shown: str, code: str) -> list[str]:
    return english_left(shown, [*_learner_values(report), *code.splitlines(), "torch-diagnostics-judge"])


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
        assert _report_left(report, shown, code) == [], shown
    text = render(report, "text")
    if verdict == "wrong_answer":  # the diff's columns are there, in zh (the hint: the command line's test)
        assert all(messages.say_in("zh", k) in text for k in ("report_field", "report_tolerance"))
        assert "一个小型 ReLU MLP" in text  # the case's own title, in the case file's zh translation
    if verdict == "time_limit_exceeded":  # the limit notes, the sample's exact and the hidden case's bare
        assert "秒 CPU 时间后被停止" in text and "超出了时间限制" in text


def test_custom_input_in_zh_says_its_notes_and_nothing_to_compare_in_zh(site, root):
    pasted = next((root / "problems" / SLUG / "cases" / "sample").glob("*.json")).read_text()
    done = _judged(site, "run", REFERENCE_SOURCE, case=pasted)
    assert done["verdict"] == "accepted" and "只有评测程序使用它们" in done["html"]
    raw = json.loads(pasted)
    fields = "\n".join(raw)  # the pasted case's own field names (build_sha256, translations), which the note names
    assert _report_left(done["report"], page_text(done["html"]), REFERENCE_SOURCE + fields) == []
    done = _judged(site, "run", REFERENCE_SOURCE, case=json.dumps({"objects": raw["objects"], "calls": raw["calls"]}))
    report = done["report"]
    assert done["verdict"] == "ran" and "没有可比较的内容" in report["output"]
    for shown in (page_text(done["html"]), render(report, "text")):
        assert messages.say_in("zh", "report_outputs") in shown
        assert _report_left(report, shown, REFERENCE_SOURCE) == [], shown


def test_the_list_and_history_pages_in_zh_show_no_english_word_of_the_judges(site):
    _judged(site, "run", WRONG)
    problems = [find_problem(slug) for slug in available()]
    names = [value for p in problems for value in (p.slug, p.title)] + ["torch-diagnostics-judge"]
    listing = site.request("GET", "/?lang=zh")[1].decode()
    assert "规则引擎" in listing and ">rule-engine<" not in listing and '<html lang="zh">' in listing
    assert english_left(page_text(listing), names) == []
    history = site.request("GET", f"/problems/{SLUG}/history?lang=zh")[1].decode()
    assert "答案错误" in history
    hashes = re.findall(r"<code>([0-9a-f]{10})</code>", history)  # each attempt's code, by its hash
    sources = re.findall(r"<td>([^<]*)</td><td><code>", history)  # where each came from: browser, a file's path
    assert "browser" in sources
    assert english_left(page_text(history), [*names, *hashes, *sources, f"judge history {SLUG} --show N"]) == []
    english = site.request("GET", "/")[1].decode()  # without ?lang=, as before: English
    assert ">rule-engine<" in english and "Problems" in english


def test_a_language_the_site_does_not_show_is_a_400_in_one_line(site):
    for lang in ("fr", 5, ["zh"]):
        status, body = site.request("POST", f"/api/problems/{SLUG}/run", {"code": REFERENCE_SOURCE, "lang": lang})
        error = json.loads(body)["error"]
        assert status == 400 and "\n" not in error and "en, zh" in error


# -- the command line ------------------------------------------------------------------------------------------
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
    for shown in (render(report, "text"), page_text(render(report, "html"))):
        assert messages.say_in("zh", "report_hint") in shown or messages.say_in("zh", "site_hint") in shown
        assert _report_left(report, shown, WRONG) == [], shown
    listing = run_judge(["list", "--lang", "zh", "--no-color"], root).stdout
    problems = [find_problem(slug) for slug in available()]
    assert "规则引擎" in listing
    assert english_left(listing, [v for p in problems for v in (p.slug, p.title)]) == [], listing
    history = run_judge(["history", SLUG, "--lang", "zh", "--no-color"]).stdout
    assert "答案错误" in history and "运行" in history
    kept = [*re.findall(r"保存在 (\S+)", history), *re.findall(r"\b[0-9a-f]{10}\b", history)]
    assert english_left(history, kept) == [], history
