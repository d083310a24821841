"""Bad input gets one clear line and exit status 2, never a traceback; the report formats all render."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from tests.support.cli import REFERENCE_SOURCE, SLUG, judge_env, run_judge
from tests.support.readers import CONTROL


def _one_clear_line(result) -> str:
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_unknown_problem(toy_root, write_submission):
    line = _one_clear_line(run_judge(["run", "no-such-problem", str(write_submission("x = 1"))], toy_root))
    assert "unknown problem 'no-such-problem'" in line and "judge list" in line


def test_missing_file(toy_root, tmp_path):
    line = _one_clear_line(run_judge(["run", SLUG, str(tmp_path / "nope.py")], toy_root))
    assert "no such file" in line


def test_a_name_that_holds_a_newline_stays_on_its_one_line(toy_root, tmp_path):
    forged = tmp_path / "nope\njudge: accepted (every case passed)\r.py"
    line = _one_clear_line(run_judge(["submit", SLUG, str(forged)], toy_root))
    assert "no such file" in line and "nope\\njudge: accepted (every case passed)\\r.py" in line


def test_a_name_on_a_success_line_stays_on_its_line(toy_root, tmp_path):
    forged = tmp_path / "mine\njudge: accepted\x1b[2J.py"
    result = run_judge(["start", SLUG, str(forged)], toy_root)
    assert result.returncode == 0 and forged.is_file(), result.stderr
    assert "mine\\njudge: accepted\\x1b[2J.py" in result.stdout and not CONTROL.search(result.stdout.replace("\n", ""))
    assert not any(line.startswith("judge: accepted") for line in result.stdout.splitlines())


def test_a_usage_error_shows_the_argument_as_data(toy_root):
    line = _one_clear_line(run_judge(["list", "--no-such-option", "x\njudge: accepted\x1b[2J"], toy_root))
    assert "x\\njudge: accepted\\x1b[2J" in line and not CONTROL.search(line)


def test_directory(toy_root, tmp_path):
    assert "is a directory" in _one_clear_line(run_judge(["submit", SLUG, str(tmp_path)], toy_root))


@pytest.mark.parametrize("name, content, reason", [
    ("solution.txt", b"class Solution: pass\n", "does not end in .py"),
    ("solution.py", b"\x7fELF\x00\x00binary", "binary"),
    ("solution.py", b"caf\xe9 = 1\n", "UTF-8"),
])
def test_not_python_source(toy_root, tmp_path, name, content, reason):
    path = tmp_path / name
    path.write_bytes(content)
    line = _one_clear_line(run_judge(["run", SLUG, str(path)], toy_root))
    assert "is not Python source" in line and reason in line


def test_unreadable_file(toy_root, write_submission):
    path = write_submission("class Solution: pass\n")
    path.chmod(0)
    result = run_judge(["run", SLUG, str(path)], toy_root)
    path.chmod(0o644)
    if result.returncode == 2:  # as root every file is readable, so this only bites for other users
        assert "cannot read" in _one_clear_line(result)


def test_bad_usage_is_exit_2(toy_root):
    assert "judge:" in _one_clear_line(run_judge(["run", SLUG], toy_root))
    assert "judge:" in _one_clear_line(run_judge(["submit", SLUG, "x.py", "--format", "pdf"], toy_root))


def test_cuda_without_a_gpu_is_a_usage_error(toy_root, write_submission):
    result = run_judge(["run", SLUG, str(write_submission(REFERENCE_SOURCE)), "--device", "cuda"], toy_root)
    if result.returncode == 2:
        assert "CUDA" in _one_clear_line(result)
    else:  # a machine with a GPU judges it
        assert result.returncode == 0


def test_malformed_case_file_names_file_and_field(toy_root, tmp_path, write_submission):
    import shutil

    broken = tmp_path / "broken"
    shutil.copytree(toy_root, broken)
    case = broken / "problems" / SLUG / "cases" / "hidden" / "01-six.json"
    data = json.loads(case.read_text())
    data["objects"]["model"]["layers"][2]["linear"] = [7, "three"]
    case.write_text(json.dumps(data))
    line = _one_clear_line(run_judge(["submit", SLUG, str(write_submission(REFERENCE_SOURCE))], broken))
    assert "01-six.json" in line and "objects.model.layers[2].linear" in line
    case.write_text("{ not json")
    assert "01-six.json" in _one_clear_line(run_judge(["submit", SLUG, str(write_submission(REFERENCE_SOURCE))],
                                                      broken))


def test_a_case_file_named_with_what_a_terminal_acts_on_is_refused(toy_root, tmp_path, write_submission):
    import shutil

    broken = tmp_path / "broken"
    shutil.copytree(toy_root, broken)
    hidden = broken / "problems" / SLUG / "cases" / "hidden"
    (hidden / "01-six.json").rename(hidden / "01\nok  hidden-99\x1b[2J.json")
    line = _one_clear_line(run_judge(["submit", SLUG, str(write_submission(REFERENCE_SOURCE))], broken))
    assert "01\\nok  hidden-99\\x1b[2J.json" in line and "letters, digits" in line and not CONTROL.search(line)
    verified = run_judge(["verify", SLUG, "--no-submissions"], broken)  # which lists what it refuses, one a line
    assert verified.returncode == 1 and "letters, digits" in verified.stdout
    assert not CONTROL.search(verified.stdout.replace("\n", ""))
    assert not any(line.startswith("ok  hidden-99") for line in verified.stdout.splitlines())


def test_a_problem_folder_whose_slug_a_terminal_acts_on_is_refused(toy_root, tmp_path):
    import shutil

    broken = tmp_path / "broken"
    shutil.copytree(toy_root, broken)
    forged = "ok\njudge: accepted\x1b[2J"
    package = (broken / "problems" / SLUG).rename(broken / "problems" / forged)
    toml = package / "problem.toml"
    in_toml = forged.replace("\n", "\\n").replace("\x1b", "\\u001b")
    toml.write_text(toml.read_text().replace(f'slug = "{SLUG}"', f'slug = "{in_toml}"'))
    line = _one_clear_line(run_judge(["list"], broken))
    assert "'slug' must be lower-case letters" in line and "ok\\njudge: accepted\\x1b[2J" in line
    assert not CONTROL.search(line)


@pytest.mark.parametrize("command", [["doctor"], ["serve", "--host", "x\x1b]0;t\x07\nFAKE", "--port", "0"]],
                         ids=["doctor", "serve --host"])
def test_the_machine_s_own_names_stay_on_their_lines(toy_root, tmp_path, command):
    _names_stay_on_their_lines(toy_root, tmp_path / "h\x1b[31m\nFAKE: accepted", command)


def test_a_history_that_cannot_be_written_is_named_on_one_line(toy_root, tmp_path, write_submission):
    """The attempt is judged but not recorded: the warning names the history's folder, a path of any bytes."""
    blocked = tmp_path / os.fsdecode(b"h\x1b[31m\nFAKE: accepted\xff")  # not UTF-8, on a strict stdout
    blocked.write_text("a file where the history's folder should be")
    text = _names_stay_on_their_lines(toy_root, blocked, ["run", SLUG, str(write_submission(REFERENCE_SOURCE))])
    assert "not recorded" in text


def test_the_history_names_its_file_on_one_line(toy_root, tmp_path, write_submission):
    home = tmp_path / "h\x1b[31m\nFAKE: accepted"
    env = {**judge_env(toy_root), "JUDGE_HOME": str(home)}
    subprocess.run([sys.executable, "-m", "judge", "run", SLUG, str(write_submission(REFERENCE_SOURCE))],
                   capture_output=True, timeout=120, env=env, check=True)
    assert "history.sqlite3" in _names_stay_on_their_lines(toy_root, home, ["history", SLUG])


def _names_stay_on_their_lines(toy_root, home, command: list[str]) -> str:
    env = {**judge_env(toy_root), "JUDGE_HOME": str(home), "PYTHONIOENCODING": "utf-8:strict"}
    result = subprocess.run([sys.executable, "-m", "judge", *command], capture_output=True, timeout=120, env=env)
    text = (result.stdout + result.stderr).decode("utf-8")
    assert "Traceback" not in text and "internal error" not in text, text[-2000:]
    assert not CONTROL.search(text.replace("\n", "")) and not any(line.startswith("FAKE") for line in text.splitlines())
    return text


def test_output_file_and_formats(toy_root, write_submission, tmp_path):
    source = write_submission(REFERENCE_SOURCE.replace("'std': _r(x.std())", "'std': _r(x.std() * 2)"))
    outputs = {}
    for fmt in ("json", "text", "markdown", "html", "junit"):
        out = tmp_path / f"report.{fmt}"
        result = run_judge(["run", SLUG, str(source), "--format", fmt, "--output", str(out)], toy_root)
        assert result.returncode == 1 and result.stdout == ""
        outputs[fmt] = out.read_text()
    report = json.loads(outputs["json"])
    assert report["schema_version"] == 1 and report["verdict"] == "wrong_answer"
    assert {"name", "status", "score", "max_score", "output", "visibility", "execution_time"} <= set(report["tests"][0])
    assert "layer 1 · std" in outputs["text"] and "layer 1 · std" in outputs["markdown"]
    assert "<table>" in outputs["html"] and "<script" not in outputs["html"]
    suite = ET.fromstring(outputs["junit"])
    assert suite.find(".//failure").get("type") == "wrong_answer"


def test_no_color_unless_a_terminal(toy_root, write_submission):
    result = run_judge(["run", SLUG, str(write_submission(REFERENCE_SOURCE))], toy_root)
    assert result.returncode == 0 and "\x1b[" not in result.stdout


def test_version_and_help():
    assert run_judge(["--version"]).stdout.startswith("judge ")
    assert "submit" in run_judge(["--help"]).stdout
