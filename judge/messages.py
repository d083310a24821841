"""Every sentence the judge shows a person, in one reviewable place.

Keys are stable identifiers; templates use ``str.format`` fields. Logic raises or returns keys, the CLI and the
report renderers turn them into text here.
"""

from __future__ import annotations

from typing import Any

CATALOGUE: dict[str, str] = {
    # bad input (exit 2)
    "unknown_problem": "unknown problem '{slug}'; run 'judge list' to see the problems ({known})",
    "no_problems": "no problems found in {root}; set JUDGE_PROBLEMS to the folder that holds them",
    "file_missing": "{path}: no such file; give the path of your solution's .py file",
    "file_is_dir": "{path} is a directory; give the path of your solution's .py file",
    "file_unreadable": "{path}: cannot read it ({reason})",
    "file_not_python": "{path} is not Python source ({reason}); give the .py file that defines class Solution",
    "case_unreadable": "{path}: cannot read the case file ({reason})",
    "case_invalid": "{path}: field {field}: expected {problem}",
    "problem_invalid": "{path}: {problem}",
    "no_cuda": "--device cuda needs a CUDA GPU and a CUDA build of torch, and none is available here; use --device cpu",
    "no_expected": "{path}: no expected values for device '{device}'; run 'judge gen {slug}' first",
    "output_unwritable": "cannot write the report to {path} ({reason})",
    "bad_max_level": "JUDGE_MAX_LEVEL is '{value}'; it must be one of {levels}",
    # judging
    "import_failed_after_hidden": "the submission failed to import again after a hidden case (details are not shown, as for every hidden case)",
    # security level, printed in every report
    "security_level": "{level} ({layers}; {who}{missing})",
    "layer_off": "no {layer}: {reason}",
    "no_bwrap": "bwrap is not installed",
    "level_capped": "JUDGE_MAX_LEVEL is {cap}",
    "no_gpu_in_bwrap": "its minimal view has no GPU devices",
    # internal (exit 3)
    "worker_start_failed": "the judge could not start its worker process ({reason})",
    "build_drift": "case {case}: the objects built on this machine differ from the ones the expected values were computed on (checksum mismatch); the judge cannot give a fair verdict here -- report this with 'torch {torch}'",
    "reference_failed": "the reference solution failed on case {case}: {reason}",
    "internal": "internal error: {reason}",
    # authoring
    "gen_rejected": "{case}: rejected as fragile: {reason}",
    "verify_mismatch": "{case}: {field}: stored {stored}, recomputed {got}",
    "verify_declared": "{path}: declared {declared}, judged {got}",
}


def say(key: str, **fields: Any) -> str:
    return CATALOGUE[key].format(**fields)
