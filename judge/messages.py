"""Every sentence the judge shows a person, in one reviewable place.

Keys are stable identifiers; templates use ``str.format`` fields. Logic raises or returns keys, the CLI and the
report renderers turn them into text here.
"""

from __future__ import annotations

from typing import Any

CATALOGUE: dict[str, str] = {
    # bad input (exit 2)
    "unknown_problem": "unknown problem '{slug}'; run 'judge list' to see the problems ({known})",
    "no_problems": "no problems found in {roots}; set JUDGE_PROBLEMS to the folder that holds them (several: separated by '{sep}')",
    "root_missing": "{variable} names {path}, which is not a folder; correct or remove it",
    "file_missing": "{path}: no such file; give the path of your solution's .py file",
    "file_is_dir": "{path} is a directory; give the path of your solution's .py file",
    "file_unreadable": "{path}: cannot read it ({reason})",
    "file_not_python": "{path} is not Python source ({reason}); give the .py file that defines class Solution",
    "case_unreadable": "{path}: cannot read the case file ({reason})",
    "case_invalid": "{path}: field {field}: expected {problem}",
    "problem_invalid": "{path}: {problem}",
    "no_cuda": "--device cuda needs a CUDA GPU and a CUDA build of torch, and none is available here; use --device cpu",
    "no_expected": "{path}: no up-to-date expected values for device '{device}'; run 'judge gen {slug}' first",
    "output_unwritable": "cannot write the report to {path} ({reason})",
    "start_exists": "{path} already exists and was left as it is; use --force to replace it with the starter, or give another path",
    "start_not_python": "{path}: give a path ending in .py, the kind of file 'judge run' judges",
    "start_unwritable": "cannot write the starter to {path} ({reason})",
    "history_unavailable": "cannot use the attempt history {path} ({reason}); set JUDGE_HOME to a folder you can write to",
    "submissions_missing": "{path}: no such folder; give the folder that holds the submissions (.py files, or one folder per student)",
    "submissions_not_dir": "{path} is a file; give the folder that holds the submissions (.py files, or one folder per student)",
    "submissions_empty": "{path} holds no submissions: no .py file and no student folder",
    "duplicate_student": "two submissions for student '{student}': {first} and {second}; keep one",
    "bad_jobs": "--jobs wants a positive number of submissions to judge at once, not {value}",
    "bad_shard": "--shard wants K/N with 1 <= K <= N, e.g. 2/8, not '{value}'",
    "out_unwritable": "cannot write to {path} ({reason})",
    "merge_not_graded": "{path} holds no summary.json: it is not the output of 'judge grade', or that run did not finish",
    "merge_other_problem": "{path} grades '{slug}' but {first} grades '{other}'; merge the outputs of one problem",
    "merge_other_split": "{path} is shard {shard} but {first} is shard {other}; merge the shards of one split",
    "merge_duplicate_shard": "shard {shard} appears twice: {first} and {second}",
    "merge_missing_shards": "shard {missing} of {count} is missing; merge every shard's output",
    "merge_conflict": "student '{student}' is in both {first} and {second}",
    "merge_incomplete": "{path}: the result of student '{student}' is missing; run that shard's 'judge grade' again to finish it",
    "bad_max_level": "JUDGE_MAX_LEVEL is '{value}'; it must be one of {levels}",
    "weak_sandbox": "the workers here run at {level}, which cannot keep hidden cases secret or the judge's files safe from submissions; run 'judge doctor' to see what is missing, or pass --allow-weak-sandbox to grade anyway",
    # judging
    "import_failed_after_hidden": "the submission failed to import again after a hidden case (details are not shown, as for every hidden case)",
    # security level, printed in every report
    "security_level": "{level} ({layers}; {who}{missing})",
    "layer_off": "no {layer}: {reason}",
    "no_bwrap": "bwrap is not installed",
    "level_capped": "JUDGE_MAX_LEVEL is {cap}",
    "no_gpu_in_bwrap": "its minimal view has no GPU devices",
    "no_landlock": "this kernel has no Landlock (Linux 5.13 or later, with landlock in its lsm= list)",
    "secrets_exposed": "hidden cases and the judge's files are NOT protected at this level",
    "layer_weaker": "a weaker level was asked for, or a stronger layer failed first",
    "layer_limits": "memory, file size, open files and lifetime CPU capped; an empty environment and scratch directory; a session of its own; dies with the judge",
    "layer_uid": "workers run as uid {uid}",
    "layer_uid_kept": "workers keep uid {uid}: {reason}",
    "layer_uid_not_root": "the judge does not run as root",
    "layer_capabilities": "each worker drops every capability and sets no_new_privs; the judge and its warm workers are non-dumpable, so no worker can read their /proc entries",
    "layer_seccomp": "a worker starts no process or program, opens no socket, signals and traces no process, and cannot raise its limits",
    "layer_landlock": "ABI {abi}: a worker reads only the interpreter, its libraries and the judge's package, writes only its own scratch directory, executes nothing{scope}",
    "layer_landlock_scope": ", and signals or reaches by abstract socket no process outside itself",
    "layer_landlock_noscope": " (this ABI cannot scope signals: seccomp refuses them)",
    "layer_bwrap": "namespaces: no network, its own PID space, a read-only view of the interpreter alone (no problems, solutions, history or cache)",
    "guarantee_L0": "L0: NO protection of hidden cases, of the judge's files or of its process; 'judge grade' refuses to run here without --allow-weak-sandbox",
    "guarantee_L1": "L1: hidden cases unreadable; the judge's package, problems, solutions, history and cache unwritable; the judge's process unreadable and unsignalled; nothing left for the next submission",
    "guarantee_L2": "L2: all of L1, and a worker sees no file beyond the interpreter's and no process but its own",
    # judge --version and judge doctor
    "version": "judge {version} (torch {torch})",
    "doctor_devices": "devices:",
    "doctor_cpu": "cpu: {model}, {cores} cores",
    "doctor_no_gpu": "no CUDA GPU that torch can use",
    "doctor_problems": "problem roots (JUDGE_PROBLEMS, then the bundled set; the first root with a slug wins):",
    "doctor_problem_count": "{count} problem(s), {shadowed} shadowed by an earlier root",
    "doctor_missing": "missing",
    "doctor_solutions": "reference solution roots (JUDGE_SOLUTIONS, then the solutions/ folder beside each problem root):",
    "doctor_beside": "beside a problem root",
    "doctor_history": "attempt history: {path} ({how}; set JUDGE_HOME to move it)",
    "doctor_cache": "calibration cache: {path} ({how}; set JUDGE_CACHE to move it)",
    "doctor_security": "security level, {what}: {level}",
    "doctor_layers": "confinement of every worker, layer by layer ([x] on, [ ] off):",
    "doctor_layer": "  [{mark}] {name}: {detail}",
    # internal (exit 3)
    "worker_start_failed": "the judge could not start its worker process ({reason})",
    "warm_worker_died": "the judge's warm worker process ended while this submission was judged; it is judged again on the next run",
    "build_drift": "case {case}: the objects built on this machine differ from the ones the expected values were computed on (checksum mismatch); the judge cannot give a fair verdict here -- report this with 'torch {torch}'",
    "reference_failed": "the reference solution failed on case {case}: {reason}",
    "internal": "internal error: {reason}",
    # practice
    "start_written": "wrote the starter for {title} to {path}",
    "start_next": "next: read the problem with 'judge show {slug}', try your solution on the examples with 'judge run {slug}{file}', then 'judge submit {slug}{file}'",
    "not_recorded": "warning: this attempt was judged but not recorded: {reason}",
    "list_summary": "{solved} of {total} solved, {attempted} attempted · 'judge show <problem>' to read one, 'judge start <problem>' to begin",
    "show_status": "your status: {status}, {attempts} attempt(s) · 'judge history {slug}' lists them",
    "show_new": "your status: new · 'judge start {slug}' writes the starter file",
    "history_empty": "no attempts at {slug} yet; 'judge start {slug}' writes the starter file",
    "history_empty_all": "no attempts yet; 'judge list' shows the problems",
    "history_where": "{count} attempt(s), newest first · kept in {path}",
    "check_source_missing": "cannot find the source of class {name}: define it in a notebook cell or a .py file, or pass its source as a string",
    "check_not_a_class": "check() needs your Solution class or its source code as a string, not {kind}",
    "magic_usage": "usage: %%judge <problem> [--submit] at the top of a cell that defines class Solution",
    # grading a class
    "grade_no_python_file": "no .py file in the student's folder",
    "grade_several_python_files": "{count} .py files in the student's folder ({names}); keep one, or name the submission solution.py",
    "grade_progress": "{done}/{total} judged · {counts} · {elapsed} elapsed · ETA {eta}",
    "grade_done": "{total} submissions of {slug}: {judged} judged now, {reused} unchanged since an earlier run ({seconds:.1f} s)",
    "grade_outputs": "class report: {index} (also summary.csv, summary.json, junit.xml; one folder per student)",
    "grade_interrupted": "interrupted: {saved} of {total} submissions are judged and saved; run the same command again to judge the rest",
    "grade_internal": "the judge failed on {count} submission(s) (verdict internal_error, not the students' fault); see their reports",
    "merge_done": "{total} students from {folders} folders",
    # authoring
    "gen_rejected": "{case}: rejected as fragile: {reason}",
    "verify_mismatch": "{case}: {field}: stored {stored}, recomputed {got}",
    "verify_declared": "{path}: declared {declared}, judged {got}",
}


LIST_COLUMNS = ("status", "problem", "title", "difficulty", "tries", "tags")
HISTORY_COLUMNS = ("when", "problem", "mode", "verdict", "passed", "cpu time", "code")
VERDICT_ABBREVIATIONS: dict[str, str] = {
    "accepted": "AC", "wrong_answer": "WA", "time_limit_exceeded": "TLE", "memory_limit_exceeded": "MLE",
    "runtime_error": "RE", "compile_error": "CE", "output_format_error": "OFE", "internal_error": "IE",
}
"""for the progress line, where the full names do not fit"""


def say(key: str, **fields: Any) -> str:
    return CATALOGUE[key].format(**fields)
