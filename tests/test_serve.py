"""``judge serve``: the guard refuses forged requests, and judging through the site gives the CLI's verdicts.

One site runs for the whole module, on the small adversarial copy of training-diagnostics (one sample, one
hidden case), started exactly as a learner starts it (``judge serve``, in a child process).
"""

from __future__ import annotations

import html
import json
import os
import re
import time
from pathlib import Path

import pytest

from tests.support.client import Client, launched
from judge.serve.security import MAX_BODY
from judge.judging.session import IMPORT_WALL_S, SETUP_WALL_S
from judge.places import data_home
from judge.worker import probe, procfs
from tests.support.cli import REFERENCE_SOURCE, REPO, SLUG, default_sigint, judge_env, judge_json, run_judge
from tests.support.toy import build_toy
from tests.support.adversarial import ADVERSARIAL_CASES
from tests.support.cases import BAD_CASES
from tests.support.readers import CONTROL

ADVERSARIAL = REPO / "tests" / "adversarial"


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    return build_toy(tmp_path_factory.mktemp("serve"), ADVERSARIAL_CASES, memory_mb=450, time_floor_s=0.5)


@pytest.fixture(scope="module")
def site(root) -> Client:
    with launched(judge_env(root)) as client:
        yield client


def _error(body: bytes) -> str:
    return json.loads(body)["error"]


def test_the_printed_link_sets_the_key_as_a_cookie_and_drops_it_from_the_address(site):
    status, _ = site.request("GET", "/", headers={"cookie": None, "x-judge-token": None})
    assert status == 403
    connection_status, headers = _raw_get(site, f"/problems/{SLUG}?token={site.token}&lang=zh")
    assert connection_status == 303
    assert headers["location"] == f"/problems/{SLUG}?lang=zh"
    cookie = headers["set-cookie"]
    assert cookie.startswith(f"judge_token_{site.port}={site.token};") and "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert _raw_get(site, f"/?token=forged{site.token}")[0] == 403


def test_the_sites_cookie_is_read_whatever_other_cookies_the_browser_sends_for_the_host(site):
    """Cookies are per host, not per port: another local app's JSON-style cookie shares the header, and must not
    hide the site's own (http.cookies.SimpleCookie drops the whole header at such a cookie: every page was 403)."""
    mine = f"judge_token_{site.port}={site.token}"
    for header in (f'session={{"user":"a","n":1}}; {mine}', f'{mine}; session={{"user":"a","n":1}}',
                   f'a=1; broken; theme="dark mode"; {mine}'):
        status, _ = site.request("GET", "/", headers={"cookie": header, "x-judge-token": None})
        assert status == 200, header
    for header in ('session={"user":"a","n":1}', f'judge_token_{site.port}x={site.token}',
                   f'judge_token_{site.port}=forged{site.token}'):
        assert site.request("GET", "/", headers={"cookie": header, "x-judge-token": None})[0] == 403, header


def _raw_get(site: Client, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str]]:
    import http.client

    connection = http.client.HTTPConnection(site.host, site.port, timeout=30)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}
    finally:
        connection.close()


WALL = {"default-src": {"'self'"}, "script-src": {"'self'"}, "object-src": {"'none'"}, "base-uri": {"'none'"},
        "form-action": {"'self'"}, "frame-ancestors": {"'none'"}}
"""the content-security policy's directives that keep injected markup from running a script, loading or sending
anything elsewhere, re-basing links or being framed (docs/reports.md): each exactly so, nothing looser"""


@pytest.mark.parametrize("path, status", [("/", 200), (f"/problems/{SLUG}", 200),
                                          (f"/api/problems/{SLUG}/samples/1", 200), ("/no/such/page", 404),
                                          ("/static/vendor/codemirror/codemirror.js", 200)])
def test_every_response_carries_the_second_wall(site, path, status):
    """Each kind of response, to the learner (with the site's cookie) and to a request without it (refused)."""
    key = {"cookie": f"judge_token_{site.port}={site.token}"}
    answered = [_raw_get(site, path, key), _raw_get(site, path)]
    assert answered[0][0] == status and (answered[1][0] == 403 or path.startswith("/static/")), answered
    for status, headers in answered:
        directives = {d.split()[0]: set(d.split()[1:]) for d in headers["content-security-policy"].split(";")
                      if d.strip()}
        assert {name: directives.get(name) for name in WALL} == WALL, (path, status)
        assert headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff", path


def test_a_state_changing_request_without_the_key_is_refused_and_changes_nothing(site):
    path = f"/api/problems/{SLUG}/code"
    assert site.request("POST", path, {"code": "# mine\n"})[0] == 200
    forged = [
        {"x-judge-token": None},  # the cookie alone, as a cross-site form post would carry it
        {"x-judge-token": "not-the-key"},
        {"x-judge-token": None, "cookie": None},
    ]
    for headers in forged:
        status, body = site.request("POST", path, {"code": "# forged\n"}, headers=headers)
        assert status == 403, headers
        assert "key" in _error(body)
        status, body = site.request("POST", f"/api/problems/{SLUG}/run", {"code": "# forged\n"}, headers=headers)
        assert status == 403
    assert "# mine" in site.request("GET", f"/problems/{SLUG}")[1].decode()
    assert "# forged" not in site.request("GET", f"/problems/{SLUG}")[1].decode()


def test_another_origin_and_a_rebound_host_name_are_refused(site):
    path = f"/api/problems/{SLUG}/code"
    status, body = site.request("POST", path, {"code": "# evil\n"}, headers={"origin": "http://evil.example"})
    assert status == 403 and "another site" in _error(body)
    status, _ = site.request("POST", path, {"code": "# evil\n"},
                             headers={"origin": f"http://127.0.0.1:{site.port + 1}"})
    assert status == 403
    # DNS rebinding: the attacker's name resolves to 127.0.0.1, the browser sends it as Host
    for host in (f"evil.example:{site.port}", "evil.example", f"127.0.0.1.evil.example:{site.port}"):
        status, body = site.request("GET", "/", headers={"host": host})
        assert status == 421 and "address it was started on" in _error(body)
    assert site.request("POST", path, {"code": "# ok\n"}, headers={"origin": f"http://127.0.0.1:{site.port}"})[0] == 200
    assert site.request("GET", "/", headers={"host": f"localhost:{site.port}"})[0] == 200


def test_request_bodies_are_size_limited_declared_or_chunked(site):
    path = f"/api/problems/{SLUG}/code"
    big = {"code": "#" * (MAX_BODY + 1)}
    status, body = site.request("POST", path, big)
    assert status == 413
    import http.client

    connection = http.client.HTTPConnection(site.host, site.port, timeout=30)
    try:
        chunks = (b"x" * 65536 for _ in range(MAX_BODY // 65536 + 2))
        connection.request("POST", path, body=chunks, encode_chunked=True,
                           headers={"x-judge-token": site.token, "content-type": "application/json"})
        assert connection.getresponse().status == 413
    finally:
        connection.close()
    assert site.request("POST", path, {"code": "# small\n"})[0] == 200


@pytest.mark.parametrize("path", [
    "/static/../../../../etc/passwd", "/static/..%2f..%2f..%2fpyproject.toml", "/static/%2e%2e/app.py",
    "/problems/..%2F..%2Fetc", "/problems/%2e%2e", f"/problems/{SLUG}/attempts/..%2F..%2Fhistory.sqlite3",
    f"/problems/{SLUG}/attempts/20260101T000000-run-0123456789ab", "/api/jobs/..%2F..", "/class/",
    "/class/students/..%2F..%2Fetc/report.html",
])
def test_no_request_path_reaches_files_outside_the_package_and_the_data(site, path):
    status, body = site.request("GET", path)
    assert status == 404, (path, body[:200])
    assert b"root:" not in body and b"[project]" not in body


def test_the_vendored_editor_is_served_from_the_package(site):
    status, body = site.request("GET", "/static/vendor/codemirror/codemirror.js", headers={"cookie": None})
    assert status == 200 and b"CodeMirror" in body
    status, body = site.request("GET", "/static/vendor/codemirror/python.js")
    assert status == 200 and b'defineMode("python"' in body


def test_run_streams_each_case_then_the_report_and_records_the_attempt(site):
    wrong = REFERENCE_SOURCE.replace("correction=1", "correction=0").replace(".std()", ".std(correction=0)")
    events = site.judge(SLUG, "run", wrong)
    assert [e["type"] for e in events] == ["start", "case", "done"]
    assert events[0]["cases"] == [{"case": "sample/01-small", "hidden": False}]
    done = events[-1]
    assert events[1]["verdict"] == done["verdict"] == done["report"]["tests"][0]["extra_data"]["verdict"]
    assert done["verdict"] == "wrong_answer"
    assert "std" in done["html"] and done["report"]["submission"]["path"] == "browser"
    history = site.request("GET", f"/problems/{SLUG}/history")[1].decode()
    link = re.search(rf'href="(/problems/{SLUG}/attempts/{done["attempt"]})"', history)
    assert link, history
    kept = site.request("GET", link.group(1))[1].decode()
    assert "wrong_answer" in kept and "correction=0" in kept


def test_a_judgement_is_not_started_twice_for_the_same_problem(site):
    first = site.request("POST", f"/api/problems/{SLUG}/submit", {"code": REFERENCE_SOURCE})
    second = site.request("POST", f"/api/problems/{SLUG}/submit", {"code": REFERENCE_SOURCE})
    assert first[0] == 202 and second[0] == 409
    job = json.loads(first[1])["job"]
    assert json.loads(second[1])["job"] == job
    events = list(site.events(job))
    assert [e["type"] for e in events].count("done") == 1 and events[-1]["verdict"] == "accepted"


def _attack(name: str) -> str:
    text = next(ADVERSARIAL.glob(f"{name}-*.py")).read_text()
    return REFERENCE_SOURCE + "\n\n" + text if "# base: reference" in text else text


@pytest.mark.parametrize("name", ["33", "03"])
def test_a_hostile_submission_gets_the_same_verdict_as_judge_submit(site, root, tmp_path, name):
    """33 kills its parent (under the site: the warm zygote) and PID 1; 03 returns an object that lies."""
    if name == "33" and not probe.confinement("cpu").seccomp:
        pytest.skip("the warm workers here have no seccomp filter, which is what stops this attack")
    source = _attack(name)
    submission = tmp_path / f"{SLUG}.py"
    submission.write_text(source)
    _, cli = judge_json(["submit", SLUG, str(submission)], root)
    events = site.judge(SLUG, "submit", source)
    served = events[-1]["report"]
    assert served["verdict"] == cli["verdict"] != "accepted"
    assert [t["extra_data"]["verdict"] for t in served["tests"]] == [t["extra_data"]["verdict"] for t in cli["tests"]]
    assert site.judge(SLUG, "run", REFERENCE_SOURCE)[-1]["verdict"] == "accepted"  # the site still judges


def test_the_streamed_report_shows_no_character_that_acts_on_the_reader(site):
    """The page writes the ``done`` event's report into the result pane as text: every string in it is shown as a
    report file shows it, with direction overrides, control bytes and zero-width characters as escapes (the raw
    report went out before: a returned right-to-left override reordered the page's text)."""
    events = site.judge(SLUG, "run", _attack("100"))
    done = events[-1]
    assert done["type"] == "done" and done["verdict"] == "wrong_answer"
    streamed = json.dumps(done["report"], ensure_ascii=False)
    assert "\\u202e" in streamed and not CONTROL.search(streamed), CONTROL.search(streamed)


def test_serve_refuses_a_folder_that_judge_grade_did_not_write(tmp_path):
    result = run_judge(["serve", "--class", str(tmp_path)])
    assert result.returncode == 2
    assert "--out folder of a finished 'judge grade' run" in result.stderr and "Traceback" not in result.stderr


def test_another_interface_only_when_asked_and_with_a_warning(root):
    from judge.serve.security import allowed_hosts

    assert allowed_hosts("127.0.0.1", 8765) == {"127.0.0.1:8765", "localhost:8765", "[::1]:8765"}
    assert allowed_hosts("192.0.2.7", 80) == {"192.0.2.7:80"}
    assert "serve" in run_judge(["--help"]).stdout and "--host" in run_judge(["serve", "--help"]).stdout
    import signal
    import subprocess
    import sys

    process = subprocess.Popen([sys.executable, "-m", "judge", "serve", "--port", "0", "--host", "127.0.0.2"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=judge_env(root),
                               preexec_fn=default_sigint)
    try:
        assert process.stdout.readline().startswith("practice site: http://127.0.0.2:")
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    assert "warning: serving on 127.0.0.2, not only on this machine" in err


SLEEPS_AT_IMPORT = "import time\ntime.sleep(10 ** 6)\n" + REFERENCE_SOURCE
"""left alone, its worker lives until the import's limit (``IMPORT_WALL_S``) ends it"""


def _live_tree(pid: int) -> set[int]:
    """The processes under ``pid`` that have not ended (a killed worker stays a zombie until it is reaped)."""
    def running(p: int) -> bool:
        try:
            return Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
        except (OSError, IndexError):
            return False
    return {p for p in procfs.tree(pid) if running(p)}


def _attempts(site: Client) -> int:
    return site.request("GET", f"/problems/{SLUG}/history")[1].decode().count("<tr><td>")


def test_stop_kills_the_workers_of_a_running_judgement_and_records_nothing(site):
    assert site.judge(SLUG, "run", REFERENCE_SOURCE)[-1]["verdict"] == "accepted"  # the zygote is warm
    idle, before = _live_tree(site.pid), _attempts(site)
    status, body = site.request("POST", f"/api/problems/{SLUG}/run", {"code": SLEEPS_AT_IMPORT})
    assert status == 202
    job = json.loads(body)["job"]
    deadline = time.monotonic() + SETUP_WALL_S
    while not _live_tree(site.pid) - idle:  # wait for the worker that imports the submission
        assert time.monotonic() < deadline, "no worker started"
        time.sleep(0.05)
    worker = _live_tree(site.pid) - idle
    status, body = site.request("POST", f"/api/jobs/{job}/stop", {})
    assert status == 202 and json.loads(body)["job"] == job
    # Killed at once; left alone it would sleep until its import limit ended it. Half that limit is a margin of
    # thousands over a kill, so this says whether Stop killed it, not how fast the machine is.
    deadline = time.monotonic() + IMPORT_WALL_S / 2
    while _live_tree(site.pid) & worker:
        assert time.monotonic() < deadline, "Stop left the worker running"
        time.sleep(0.05)
    events = list(site.events(job))
    assert [e["type"] for e in events] == ["start", "stopped"]  # no verdict for the case it killed
    assert "stopped" in events[-1]["message"]
    assert _live_tree(site.pid) <= idle  # nothing of the job is left
    assert _attempts(site) == before  # a stopped judgement is no attempt
    status, body = site.request("POST", f"/api/jobs/{job}/stop", {})
    assert status == 409 and "already finished" in _error(body)
    assert site.request("POST", "/api/jobs/999999/stop", {})[0] == 404
    assert site.request("POST", f"/api/jobs/{job}/stop", {}, headers={"x-judge-token": None})[0] == 403
    assert site.judge(SLUG, "run", REFERENCE_SOURCE)[-1]["verdict"] == "accepted"  # the site still judges


def _sample(root: Path) -> dict:
    return json.loads(next((root / "problems" / SLUG / "cases" / "sample").glob("*.json")).read_text())


def test_a_pasted_case_shows_the_returned_values_or_the_differences_and_is_not_recorded(site, root):
    raw, before = _sample(root), _attempts(site)
    mine = {"title": "my batch", "objects": raw["objects"], "calls": raw["calls"][:1]}
    done = site.judge(SLUG, "run", REFERENCE_SOURCE, case=json.dumps(mine))[-1]
    assert done["type"] == "done" and done["verdict"] == "ran" and done["attempt"] is None
    assert done["report"]["tests"][0]["extra_data"]["case"] == "custom/input"
    got = json.dumps(raw["expected"]["cpu"]["outputs"][0])[:40]
    assert "no expected values: the outputs" in done["html"] and "returned" in done["html"]
    assert got.replace('"', "&#34;") in done["html"] or got.replace('"', "&quot;") in done["html"]

    hostile = REFERENCE_SOURCE + """

class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return '<script>window.pwned = 1</script>'
"""
    done = site.judge(SLUG, "run", hostile, case=json.dumps(mine))[-1]
    assert done["verdict"] == "ran"  # without expected values nothing is compared, the value only shown
    assert "<script>window" not in done["html"] and "&lt;script&gt;window" in done["html"]

    wrong = REFERENCE_SOURCE.replace("'std': _r(x.std())", "'std': _r(x.std(correction=0))")
    done = site.judge(SLUG, "run", wrong, case=json.dumps({**raw, "title": "my batch"}))[-1]
    assert done["verdict"] == "wrong_answer" and "layer 1 · std" in done["html"]

    status, body = site.request("GET", f"/api/problems/{SLUG}/samples/1")  # a sample as the text to paste
    pasted = json.loads(body)["case"]
    assert status == 200 and json.loads(pasted)["build_sha256"] and json.loads(pasted)["expected"]
    done = site.judge(SLUG, "run", REFERENCE_SOURCE, case=pasted)[-1]  # once refused ("field mistakes: …")
    assert done["verdict"] == "accepted" and "only the judge uses them" in done["html"]
    assert site.request("GET", f"/api/problems/{SLUG}/samples/99")[0] == 404
    assert _attempts(site) == before  # as judge run --case: never recorded


def test_a_bad_pasted_case_gets_the_command_lines_one_line_message(site, root, tmp_path):
    """A 400 with the line ``judge run --case`` prints, for each of the learner's bad cases that fits in a request
    (a deeply nested one once answered 500)."""
    solution, mine = tmp_path / f"{SLUG}.py", tmp_path / "mine.json"
    solution.write_text(REFERENCE_SOURCE)
    cases = [text for text, _ in BAD_CASES if len(text) < MAX_BODY - 4096]
    for text in (*cases, json.dumps({"calls": [{"method": "nope", "args": []}]})):
        status, body = site.request("POST", f"/api/problems/{SLUG}/custom", {"code": REFERENCE_SOURCE, "case": text})
        assert status == 400, body[:300]
        mine.write_text(text)
        cli = run_judge(["run", SLUG, str(solution), "--case", str(mine)], root)
        assert cli.returncode == 2
        assert cli.stderr == f"judge: {_error(body).replace('custom input', str(mine))}\n"
    status, body = site.request("POST", f"/api/problems/{SLUG}/custom", {"code": REFERENCE_SOURCE})
    assert status == 400 and '"case"' in _error(body)


def test_the_editor_opens_on_the_latest_code_from_any_front_end(site, root, tmp_path):
    page = f"/problems/{SLUG}"
    assert site.request("POST", f"/api/problems/{SLUG}/code", {"code": "# typed in the browser\n"})[0] == 200
    assert "# typed in the browser" in site.request("GET", page)[1].decode()
    draft = data_home() / "serve" / "drafts" / f"{SLUG}.py"
    os.utime(draft, (draft.stat().st_mtime - 60,) * 2)  # typed a minute ago (attempts are stamped to the second)
    solution = tmp_path / f"{SLUG}.py"
    solution.write_text(REFERENCE_SOURCE + "\n# submitted from the command line\n")
    assert run_judge(["run", SLUG, str(solution)], root).returncode == 0
    shown = site.request("GET", page)[1].decode()
    editor = shown.split('id="code"')[1].split("</textarea>")[0]
    assert "# submitted from the command line" in editor and "# typed in the browser" not in editor
    assert site.request("POST", f"/api/problems/{SLUG}/code", {"code": "# typed again\n"})[0] == 200
    assert "# typed again" in site.request("GET", page)[1].decode()


def test_the_page_offers_the_starter_a_favicon_and_fonts_for_chinese(site, root):
    page = site.request("GET", f"/problems/{SLUG}")[1].decode()
    starter = (root / "problems" / SLUG / "starter.py").read_text()
    assert 'id="starter"' in page and html.escape(starter.splitlines()[0], quote=False) in page
    assert '<link rel="icon" href="/static/favicon.svg"' in page
    status, icon = site.request("GET", "/static/favicon.svg", headers={"cookie": None})
    assert status == 200 and icon.startswith(b"<svg")
    css = site.request("GET", "/static/site.css")[1].decode()
    assert all(font in css for font in ('"Noto Sans CJK SC"', '"PingFang SC"', '"Microsoft YaHei"'))


def test_the_class_view_shows_the_code_beside_the_report_and_exact_figures_only_when_asked(root, tmp_path):
    """A student's page puts the report and the judged code side by side (one grid of two columns); with
    ``--exact-figures`` its report is the instructor's exact copy, saying so, and without it the student's own."""
    submissions = tmp_path / "class"
    submissions.mkdir()
    (submissions / "ada.py").write_text(REFERENCE_SOURCE)
    graded = tmp_path / "graded"
    assert run_judge(["grade", SLUG, str(submissions), "--out", str(graded)], root).returncode == 0
    pages = {}
    for extra in ((), ("--exact-figures",)):
        with launched(judge_env(root), ("--class", str(graded), *extra)) as client:
            status, body = client.request("GET", "/class/students/ada/report.html")
            assert status == 200
            pages[extra] = body.decode()
    for page in pages.values():
        grid = page[page.index('<div class="student">'):]
        assert grid.index('<section class="report">') < grid.index('<section class="code">') < grid.index(
            html.escape("class Solution", quote=False))
        assert "grid-template-columns:minmax(0,1fr) minmax(0,1fr)" in page
    assert "exact here" in pages[("--exact-figures",)] and "exact here" not in pages[()]
    refused = run_judge(["serve", "--exact-figures"])
    assert refused.returncode == 2 and "--class" in refused.stderr and refused.stderr.count("\n") == 1
