"""A misspelt problem name gets the closest names ("did you mean"), wherever a command takes one."""

from __future__ import annotations

import pytest

from judge import messages
from judge.package.problem import unknown_problem

from tests.support.cli import run_judge


@pytest.mark.parametrize("args", [["show", "traning-diagnostics"], ["start", "traning-diagnostics"],
                                  ["run", "traning-diagnostics"], ["verify", "traning-diagnostics"],
                                  ["history", "traning-diagnostics"], ["statement", "traning-diagnostics"]])
def test_a_misspelt_slug_is_answered_with_the_closest_name_in_one_line(args, tmp_path):
    result = run_judge(args, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("judge: unknown problem 'traning-diagnostics'; did you mean 'training-diagnostics'")
    assert result.stderr.count("\n") == 1 and "'judge list' shows them all" in result.stderr


def test_a_name_close_to_nothing_lists_every_problem():
    assert str(unknown_problem("zzz", ["b-one", "a-two"])) == messages.say("unknown_problem", slug="zzz",
                                                                             known="a-two, b-one")
    assert "'dead-relu-detector'" in str(unknown_problem("dead-relu", ["dead-relu-detector", "loss-scale"]))
