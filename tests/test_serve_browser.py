"""The practice site in a real browser: headless Chromium driven by Selenium, through the whole learner flow
and the instructor view. Each step saves a screenshot (the folder is printed at the end; set
``JUDGE_TEST_ARTIFACTS`` to choose it).

Needs Debian's ``chromium`` and ``chromium-driver`` (``apt-get install -y chromium chromium-driver``); without
them the test is skipped, saying so. The driver is used from ``/usr/bin/chromedriver``: nothing is downloaded.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.client import Client, launched
from tests.support.cli import REPO, SLUG, judge_env

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
WAIT_S = 180
PACKAGE = REPO / "problems" / SLUG
WRONG = (PACKAGE / "submissions" / "wrong_answer" / "population-std-activation.py").read_text()
RIGHT = (REPO / "solutions" / f"{SLUG}.py").read_text()
INJECTION = ('<script>window.pwned = 1</script><img id="injected-img" src="x" onerror="window.pwned = 2">'
             '<meta http-equiv="refresh" content="0;url=about:blank"><base href="https://evil.example/">'
             '<form id="injected-form" action="https://evil.example/"><input name="pw"></form>'
             '<b id="injected-b" style="position:fixed;inset:0">cover</b> ]]> ``` \x1b[31m')
HOSTILE = RIGHT + f"""

class Solution(Solution):
    def compute_activation_stats(self, model, x):
        print({INJECTION!r})
        raise ValueError({INJECTION!r})
"""
HOSTILE_STUDENT = '<img src=x onerror="window.pwned=3"> & co'
"""a student id (a file name) that is markup itself"""

if not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)):
    pytest.skip(f"no {CHROMIUM} and {CHROMEDRIVER}: apt-get install -y chromium chromium-driver",
                allow_module_level=True)
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed: pip install -e '.[test]'")
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support import expected_conditions as EC  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Path:
    """A class of two graded by the real ``judge grade``: one right, one with the population std."""
    base = tmp_path_factory.mktemp("class")
    (base / "submissions").mkdir()
    (base / "submissions" / "ada.py").write_text(RIGHT)
    (base / "submissions" / "bob.py").write_text(WRONG)
    (base / "submissions" / f"{HOSTILE_STUDENT}.py").write_text(HOSTILE)
    result = subprocess.run([sys.executable, "-m", "judge", "grade", SLUG, str(base / "submissions"),
                             "--out", str(base / "graded")], capture_output=True, text=True, env=judge_env(None))
    assert result.returncode == 0, result.stdout + result.stderr
    return base / "graded"


@pytest.fixture(scope="module")
def site(graded, tmp_path_factory) -> Client:
    """A learner of their own: the list must show every problem 'new', whatever earlier tests solved."""
    env = {**judge_env(None), "JUDGE_HOME": str(tmp_path_factory.mktemp("learner-home"))}
    with launched(env, ("--class", str(graded))) as client:
        yield client


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1400,900", "--lang=en-GB"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def shots(tmp_path_factory, request) -> Path:
    folder = Path(os.environ.get("JUDGE_TEST_ARTIFACTS") or tmp_path_factory.getbasetemp() / "artifacts") / "serve"
    folder.mkdir(parents=True, exist_ok=True)
    yield folder
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"\nscreenshots of the browser test: {folder}")


def _wait(driver, condition, seconds: float = WAIT_S):
    return WebDriverWait(driver, seconds).until(condition)


def _status(driver, slug: str) -> str:
    return driver.find_element(By.CSS_SELECTOR, f'tr[data-slug="{slug}"] td.status').text


def _editor(driver) -> str:
    return driver.execute_script("return document.querySelector('.CodeMirror').CodeMirror.getValue()")


def _set_editor(driver, code: str) -> None:
    driver.execute_script("document.querySelector('.CodeMirror').CodeMirror.setValue(arguments[0])", code)


def _judged(driver) -> str:
    """Wait for the result panel's verdict, having seen the live progress chips appear."""
    _wait(driver, EC.presence_of_element_located((By.CSS_SELECTOR, "#progress .case")))
    _wait(driver, lambda d: d.find_element(By.ID, "result").get_attribute("data-verdict"))
    return driver.find_element(By.ID, "result").get_attribute("data-verdict")


def _open_problem(driver) -> None:
    driver.find_element(By.LINK_TEXT, "Training Diagnostics").click()
    _wait(driver, EC.presence_of_element_located((By.CSS_SELECTOR, ".CodeMirror")))


def test_the_learner_flow_and_the_instructor_view_in_chromium(site, browser, shots):
    driver = browser
    driver.get(f"{site.base}/?token={site.token}")
    _wait(driver, EC.presence_of_element_located((By.CSS_SELECTOR, "table.problems")))
    assert driver.current_url == f"{site.base}/"  # the key went into a cookie, out of the address bar
    assert _status(driver, SLUG) == "new"
    driver.save_screenshot(str(shots / "01-problem-list.png"))

    _open_problem(driver)
    assert "Training Diagnostics" in driver.find_element(By.ID, "statement-en").text
    assert "class Solution" in _editor(driver)  # the starter
    driver.save_screenshot(str(shots / "02-problem.png"))

    # a wrong solution, then a line typed with the keyboard: Tab indents with spaces, and it is saved as typed
    _set_editor(driver, WRONG)
    driver.find_element(By.CSS_SELECTOR, ".CodeMirror-code").click()
    ActionChains(driver).key_down(Keys.CONTROL).send_keys(Keys.END).key_up(Keys.CONTROL).send_keys(
        Keys.ENTER, "#", Keys.TAB, "typed here").perform()
    assert _editor(driver).rstrip().endswith("#    typed here")
    _wait(driver, lambda d: d.find_element(By.ID, "saved").text == "saved")
    driver.refresh()
    _wait(driver, EC.presence_of_element_located((By.CSS_SELECTOR, ".CodeMirror")))
    assert _editor(driver).rstrip().endswith("#    typed here")  # nothing lost on reload

    driver.find_element(By.ID, "run").click()
    assert _judged(driver) == "wrong_answer"
    result = driver.find_element(By.ID, "result").text
    assert "layer 1 · std" in result  # the failing field, per layer
    assert "population-std-activation" in result and "n - 1" in result  # the hint
    assert driver.find_elements(By.CSS_SELECTOR, "#progress .case.wrong_answer")
    driver.execute_script("document.querySelector('#result .hint').scrollIntoView({block: 'center'})")
    driver.save_screenshot(str(shots / "03-run-wrong-answer.png"))

    _set_editor(driver, RIGHT)
    driver.find_element(By.ID, "submit").click()
    assert _judged(driver) == "accepted"
    chips = driver.find_elements(By.CSS_SELECTOR, "#progress .case")
    assert len(chips) == len(list((PACKAGE / "cases").rglob("*.json")))
    assert all("accepted" in c.get_attribute("class") for c in chips)
    assert driver.find_element(By.ID, "status").text == "solved"
    driver.save_screenshot(str(shots / "04-submit-accepted.png"))

    driver.find_element(By.LINK_TEXT, "Problems").click()
    _wait(driver, EC.presence_of_element_located((By.CSS_SELECTOR, "table.problems")))
    assert _status(driver, SLUG) == "solved"
    assert _status(driver, "dead-relu-detector") == "new"
    driver.save_screenshot(str(shots / "05-list-solved.png"))

    _open_problem(driver)
    driver.find_element(By.ID, "lang-zh").click()
    chinese = driver.find_element(By.ID, "statement-zh")
    assert chinese.is_displayed() and not driver.find_element(By.ID, "statement-en").is_displayed()
    assert any("\u4e00" <= ch <= "\u9fff" for ch in chinese.text)
    driver.save_screenshot(str(shots / "06-statement-zh.png"))

    driver.find_element(By.CSS_SELECTOR, "header nav a[href='/class/']").click()  # named in 中文 now
    _wait(driver, EC.presence_of_element_located((By.TAG_NAME, "svg")))
    assert "3 students · 1 accepted" in driver.find_element(By.TAG_NAME, "body").text
    driver.save_screenshot(str(shots / "07-class-overview.png"))
    rows = driver.find_elements(By.CSS_SELECTOR, "table tr")
    next(r for r in rows if r.text.startswith("bob")).find_element(By.LINK_TEXT, "report").click()
    _wait(driver, EC.presence_of_element_located((By.CSS_SELECTOR, "pre.code")))
    page = driver.find_element(By.TAG_NAME, "body").text
    assert "Student bob" in page and "wrong_answer" in page and "correction=0" in page
    report, code = (driver.find_element(By.CSS_SELECTOR, f".student > section.{name}") for name in ("report", "code"))
    assert code.rect["x"] >= report.rect["x"] + report.rect["width"]  # beside the report, not below it
    assert code.rect["y"] < driver.execute_script("return window.innerHeight")  # in view without scrolling
    driver.save_screenshot(str(shots / "08-class-student.png"))


REFRESH_WAIT_S = 1.5
"""long enough for an injected ``<meta http-equiv="refresh" content="0">`` to have fired"""


def _nothing_injected(driver, shown: str = "window.pwned = 1</script>") -> None:
    """The injected markup is on the page as text, and none of it acted: no element, no script, no redirect."""
    here = driver.current_url
    time.sleep(REFRESH_WAIT_S)
    assert driver.current_url == here, f"the page went to {driver.current_url}"
    assert not driver.find_elements(By.CSS_SELECTOR, "#injected-img, #injected-form, #injected-b, base, form input")
    assert driver.execute_script("return window.pwned") is None
    assert shown in driver.find_element(By.TAG_NAME, "body").text


def test_injected_markup_shows_as_text_in_the_result_panel_and_the_instructor_view(site, browser, shots):
    driver = browser
    driver.get(f"{site.base}/problems/{SLUG}?token={site.token}")  # alone on its xdist worker, or after the others
    _wait(driver, EC.presence_of_element_located((By.CSS_SELECTOR, ".CodeMirror")))
    _set_editor(driver, HOSTILE)
    driver.find_element(By.ID, "run").click()
    assert _judged(driver) == "runtime_error"
    _nothing_injected(driver)
    driver.save_screenshot(str(shots / "09-run-injected-markup.png"))

    driver.get(f"{site.base}/problems/{SLUG}/history")
    driver.find_element(By.CSS_SELECTOR, "table.history a").click()  # the newest attempt: the hostile one
    _wait(driver, EC.presence_of_element_located((By.CSS_SELECTOR, "pre.code")))
    assert "/attempts/" in driver.current_url
    _nothing_injected(driver)

    driver.get(f"{site.base}/class/")
    _wait(driver, EC.presence_of_element_located((By.TAG_NAME, "svg")))
    row = next(r for r in driver.find_elements(By.CSS_SELECTOR, "table tr") if r.text.startswith("<img"))
    assert row.text.startswith(HOSTILE_STUDENT)
    _nothing_injected(driver, HOSTILE_STUDENT)  # the overview, whose student ids are file names
    row = next(r for r in driver.find_elements(By.CSS_SELECTOR, "table tr") if r.text.startswith("<img"))
    row.find_element(By.LINK_TEXT, "report").click()
    _wait(driver, EC.presence_of_element_located((By.CSS_SELECTOR, "pre.code")))
    assert driver.find_element(By.TAG_NAME, "h1").text == f"Student {HOSTILE_STUDENT}"
    _nothing_injected(driver)
    driver.save_screenshot(str(shots / "10-class-student-injected-markup.png"))


SIZES = [(1280, 800), (1920, 1080)]
"""the laptop and the desktop screen the layout must fit"""
LOUD = WRONG + """

class Solution(Solution):
    def compute_activation_stats(self, model, x):
        for line in range(200):
            print(f"line {line} of a long printed output")
        return super().compute_activation_stats(model, x)
"""
"""a wrong answer whose result is long: its printed output and every failing field"""
SLEEPS_AT_IMPORT = "import time\ntime.sleep(10 ** 6)\n" + RIGHT
STOPPED_WAIT_S = 15
"""Stop kills the worker at once; left alone, its import would run for its whole limit (30 s)"""


def _inside_viewport(driver, selector: str) -> dict:
    return driver.execute_script("""
        const r = document.querySelector(arguments[0]).getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height,
                inside: r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth};""", selector)


def _viewport(driver, width: int, height: int) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def test_the_workspace_keeps_editor_and_result_in_view_at_both_screen_sizes(site, browser, shots):
    driver = browser
    try:
        for width, height in SIZES:
            _viewport(driver, width, height)
            driver.get(f"{site.base}/problems/{SLUG}?token={site.token}")  # whichever test runs first
            _wait(driver, EC.presence_of_element_located((By.CSS_SELECTOR, ".CodeMirror")))
            _set_editor(driver, LOUD)
            driver.find_element(By.ID, "run").click()
            assert _judged(driver) == "wrong_answer"
            assert "line 0 of a long printed output" in driver.find_element(By.ID, "result").get_attribute(
                "textContent")
            assert driver.execute_script("return [innerWidth, innerHeight]") == [width, height]
            for pane in (".statement", ".CodeMirror", ".lower", "#run", "#stop"):  # .lower: the results pane
                place = _inside_viewport(driver, pane)
                assert place["inside"] and place["height"] > 0, (width, height, pane, place)
            assert _inside_viewport(driver, ".CodeMirror")["height"] > height / 4  # the editor keeps its room
            scrolls = driver.execute_script("""const l = document.querySelector('.lower');
                return [l.scrollHeight > l.clientHeight, document.scrollingElement.scrollHeight <= innerHeight];""")
            assert scrolls == [True, True]  # the long result scrolls in its pane; the page itself does not
            driver.save_screenshot(str(shots / f"11-layout-{width}x{height}.png"))
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _editor_height(driver) -> float:
    return driver.execute_script("return document.querySelector('.CodeMirror').getBoundingClientRect().height")


def test_a_wrong_runs_verdict_diff_and_hint_are_in_view_and_cases_and_splitter_answer(site, browser, shots):
    """The Test Result tab as on LeetCode: after a wrong Run the verdict, the first failing case's diff and its hint
    are on screen without scrolling anything, at both screen sizes; a case tab shows that case; the splitter moves
    and the browser keeps where it was left."""
    driver = browser
    try:
        for width, height in SIZES:
            _viewport(driver, width, height)
            driver.get(f"{site.base}/problems/{SLUG}?token={site.token}")
            _wait(driver, EC.presence_of_element_located((By.CSS_SELECTOR, ".CodeMirror")))
            driver.execute_script("localStorage.removeItem('judge-split'); localStorage.setItem('judge-lang', 'en')")
            driver.refresh()
            _wait(driver, EC.presence_of_element_located((By.CSS_SELECTOR, ".CodeMirror")))
            _set_editor(driver, WRONG)
            driver.find_element(By.ID, "run").click()
            assert _judged(driver) == "wrong_answer"
            for shown in ("#result .verdict-line", "#case-view table.diff", "#case-view .hint"):
                place = _inside_viewport(driver, shown)
                assert place["inside"] and place["height"] > 0, (width, height, shown, place)
            assert driver.execute_script("return document.querySelector('.lower').scrollTop") == 0  # not scrolled to
            assert "population-std-activation" in driver.find_element(By.CSS_SELECTOR, "#case-view .hint").text
            chips = driver.find_elements(By.CSS_SELECTOR, "#progress .case")
            first = next(i for i, c in enumerate(chips) if "accepted" not in c.get_attribute("class"))
            assert [c.get_attribute("aria-selected") for c in chips].index("true") == first  # the first failing one
            assert "layer 1 · std" in driver.find_element(By.ID, "case-view").text
            driver.save_screenshot(str(shots / f"15-wrong-run-in-view-{width}x{height}.png"))

        # a case tab shows its own case: a passing one, with its output and expected values
        passing = next(c for c in chips if "accepted" in c.get_attribute("class"))
        passing.click()
        view = driver.find_element(By.ID, "case-view").text
        assert passing.get_attribute("title") in view and "accepted" in view and "Expected" in view
        assert "layer 1 · std" not in view
        assert passing.get_attribute("aria-selected") == "true"

        # the splitter: dragged up, the editor shrinks by as much; after a reload it is where it was left
        before = _editor_height(driver)
        ActionChains(driver).click_and_hold(driver.find_element(By.ID, "splitter")).move_by_offset(0, -120).release().perform()
        moved = _editor_height(driver)
        assert abs((before - moved) - 120) < 12, (before, moved)
        driver.refresh()
        _wait(driver, EC.presence_of_element_located((By.CSS_SELECTOR, ".CodeMirror")))
        assert abs(_editor_height(driver) - moved) < 2
        driver.save_screenshot(str(shots / "16-splitter-kept.png"))

        # the Testcase tab: a sample becomes the custom input in one click (without the judge's own fields)
        driver.find_element(By.ID, "tab-testcase").click()
        driver.find_elements(By.CSS_SELECTOR, ".sample-tab")[1].click()
        driver.find_element(By.ID, "use-sample-2").click()
        assert driver.find_element(By.ID, "case").is_displayed()
        pasted = json.loads(driver.find_element(By.ID, "case").get_attribute("value"))
        sample = json.loads(sorted((PACKAGE / "cases" / "sample").glob("*.json"))[1].read_text())
        assert pasted["calls"] == sample["calls"] and pasted["objects"] == sample["objects"]
        assert pasted["expected"] == sample["expected"] and "mistakes" not in pasted

        # the page's words follow the statement's language
        driver.find_element(By.ID, "lang-zh").click()
        assert driver.find_element(By.ID, "run").text == "运行"
        assert driver.find_element(By.ID, "tab-result").text == "测试结果"
        driver.find_element(By.ID, "tab-testcase").click()  # the sample shown: its title and inputs in 中文 too
        shown = driver.find_elements(By.CSS_SELECTOR, ".sample")[1].text
        assert "输入" in shown and "种子" in shown and "seed" not in shown, shown
        driver.save_screenshot(str(shots / "17-labels-zh.png"))
        driver.find_element(By.ID, "lang-en").click()
        assert driver.find_element(By.ID, "run").text == "Run"
        assert "seed" in driver.find_elements(By.CSS_SELECTOR, ".sample")[1].text
    finally:
        driver.execute_script(f"localStorage.removeItem('judge-split'); localStorage.removeItem('judge-case-{SLUG}')")
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_stop_reset_a_pasted_case_and_a_rerun_after_editing(site, browser, shots):
    driver = browser
    _viewport(driver, *SIZES[0])
    try:
        driver.get(f"{site.base}/problems/{SLUG}?token={site.token}")
        _wait(driver, EC.presence_of_element_located((By.CSS_SELECTOR, ".CodeMirror")))

        # Stop: a submission that would sleep through its import's whole limit
        _set_editor(driver, SLEEPS_AT_IMPORT)
        assert not driver.find_element(By.ID, "stop").is_enabled()
        driver.find_element(By.ID, "run").click()
        _wait(driver, EC.presence_of_element_located((By.CSS_SELECTOR, "#progress .case.running")))
        driver.find_element(By.ID, "stop").click()
        _wait(driver, lambda d: d.find_element(By.ID, "result").get_attribute("data-state") == "stopped",
              STOPPED_WAIT_S)
        assert "stopped" in driver.find_element(By.ID, "result").text
        assert driver.find_element(By.ID, "run").is_enabled() and not driver.find_element(By.ID, "stop").is_enabled()
        chips = driver.find_elements(By.CSS_SELECTOR, "#progress .case")
        assert chips and all(c.get_attribute("class") == "case stopped" for c in chips)  # no case has a verdict
        driver.save_screenshot(str(shots / "12-stopped.png"))

        # reset to the starter: asked first, and "keep" keeps
        driver.find_element(By.ID, "reset").click()
        assert driver.find_element(By.ID, "reset-confirm").is_displayed()
        driver.find_element(By.ID, "reset-no").click()
        assert not driver.find_element(By.ID, "reset-confirm").is_displayed()
        assert _editor(driver) == SLEEPS_AT_IMPORT
        driver.find_element(By.ID, "reset").click()
        driver.find_element(By.ID, "reset-yes").click()
        starter = (PACKAGE / "starter.py").read_text()
        assert _editor(driver) == starter
        _wait(driver, lambda d: d.find_element(By.ID, "saved").text == "saved")
        driver.refresh()
        _wait(driver, EC.presence_of_element_located((By.CSS_SELECTOR, ".CodeMirror")))
        assert _editor(driver) == starter  # saved as the draft

        # a case of one's own: without expected values its returned values are shown; bad JSON is one line
        _set_editor(driver, RIGHT)
        sample = json.loads((PACKAGE / "cases" / "sample" / "01-healthy-kaiming-mlp.json").read_text())
        driver.find_element(By.ID, "tab-custom").click()
        case = driver.find_element(By.ID, "case")
        case.clear()  # whatever an earlier test left in this browser's custom input
        case.send_keys('{"calls": [')
        driver.find_element(By.ID, "run-custom").click()
        _wait(driver, EC.visibility_of_element_located((By.CSS_SELECTOR, "#result .error")))
        error = driver.find_element(By.CSS_SELECTOR, "#result .error").text
        assert error.startswith("custom input is not valid JSON: line 1, column 12") and "\n" not in error
        driver.find_element(By.ID, "tab-custom").click()
        case.clear()
        mine = json.dumps({"title": "my batch", "objects": sample["objects"], "calls": sample["calls"][:1]})
        driver.execute_script("arguments[0].value = arguments[1]", case, mine)  # pasted, not typed key by key
        driver.find_element(By.ID, "run-custom").click()
        assert _judged(driver) == "ran"  # nothing to compare
        shown = driver.find_element(By.ID, "result").text
        assert "custom/input" in shown and "returned (no expected values to compare with)" in shown
        assert '"mean"' in driver.find_element(By.CSS_SELECTOR, "#result pre.returned").text
        driver.execute_script("document.querySelector('#result pre.returned').scrollIntoView({block: 'center'})")
        driver.save_screenshot(str(shots / "13-custom-input.png"))

        # the rerun after an edit, as 'judge watch' does on each save: edit, Run again, a new verdict
        _set_editor(driver, WRONG)
        driver.find_element(By.ID, "run").click()
        assert _judged(driver) == "wrong_answer"
        _set_editor(driver, RIGHT)
        driver.find_element(By.ID, "run").click()
        assert _judged(driver) == "accepted"
        driver.save_screenshot(str(shots / "14-rerun-accepted.png"))
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_run_in_chinese_shows_the_result_pane_in_chinese(site, browser, shots):
    """The page's 中文 switch sends its language with Run: the verdict, the diff's columns, the per-case line, the
    hint's label and the full report come back in Chinese, and the history link keeps the language."""
    driver = browser
    try:
        driver.get(f"{site.base}/problems/{SLUG}?token={site.token}")
        _wait(driver, EC.presence_of_element_located((By.CSS_SELECTOR, ".CodeMirror")))
        driver.find_element(By.ID, "lang-zh").click()
        _set_editor(driver, WRONG)
        driver.find_element(By.ID, "run").click()
        assert _judged(driver) == "wrong_answer"
        line = driver.find_element(By.CSS_SELECTOR, "#result .verdict-line").text
        view = driver.find_element(By.ID, "case-view").text
        assert "答案错误" in line and "wrong_answer" not in line, line
        assert all(word in view for word in ("字段", "实际", "预期", "容差", "提示")), view
        assert not {"field", "tolerance", "Hint", "expected", "wrong_answer"} & set(view.replace("|", " ").split()), view
        assert "完整报告" in driver.find_element(By.CSS_SELECTOR, "#result .full-report summary").text
        report = driver.execute_script("return document.querySelector('#result .full-report div').textContent")
        assert "数值满足" in report and "a number passes" not in report
        assert driver.find_element(By.CSS_SELECTOR, "header nav").text.split() == ["题目", "班级成绩"]
        history = driver.find_element(By.CSS_SELECTOR, "a.keeps-lang[href*='/history']").get_attribute("href")
        assert history.endswith("/history?lang=zh"), history
        driver.save_screenshot(str(shots / "30-run-in-chinese.png"))
    finally:
        driver.execute_script("localStorage.setItem('judge-lang', 'en')")
