"""Every sentence the judge shows a person, in one reviewable place.

Keys are stable identifiers; templates use ``str.format`` fields. Logic raises or returns keys, the CLI and the
report renderers turn them into text here. What a learner reads in a statement's language other than English
(``judge show --lang zh``, the site's labels) is translated in ``messages.<lang>.toml`` beside this file, key by key
with the same fields; a key without a translation is said in English (:func:`say_in`).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from judge.compat import tomllib
from judge.messages_author import AUTHORING
from judge.messages_cases import EXPECTED
from judge.messages_learner import LEARNER
from judge.messages_machine import MACHINE

LANGUAGES = {"en": "English", "zh": "中文"}
"""the languages a learner may read the judge in (``--lang``, the site's switch): statements, the site's words,
reports and tags"""


CATALOGUE: dict[str, str] = {
    # bad input (exit 2)
    "watch_waiting": "watching {path}: save it to judge the samples again (not recorded in the history; Ctrl-C stops)",
    "watch_stopped": "stopped watching",
    "watch_judging": "judging {path}…",
    "unknown_problem_close": "unknown problem '{slug}'; did you mean {close}? ('judge list' shows them all)",
    "unknown_problem": "unknown problem '{slug}'; run 'judge list' to see the problems ({known})",
    "no_problems": "no problems found in {roots}; set JUDGE_PROBLEMS to the folder that holds them (several: separated by '{sep}')",
    "root_missing": "{variable} names {path}, which is not a folder; correct or remove it",
    "file_missing": "{path}: no such file; give the path of your solution's .py file",
    "file_is_dir": "{path} is a directory; give the path of your solution's .py file",
    "file_unreadable": "{path}: cannot read it ({reason})",
    "file_not_python": "{path} is not Python source ({reason}); give the .py file that defines class Solution",
    "not_python_suffix": "its name does not end in .py", "not_python_binary": "it contains NUL bytes, so it is binary",
    "not_python_encoding": "it is not UTF-8 text", "either": "{first} or {second}",
    "file_is_link": "{path} is a symbolic link; only a regular file of the student's own is judged, never what a link points to",
    "file_hard_linked": "{path} has {links} names (hard links); only a file with a single name is judged, so a copy of another file cannot be handed in",
    "file_not_regular": "{path} is a {kind}, not a regular file; give the .py file that defines class Solution",
    "file_too_big": "{path} is {size:,} bytes, over the {cap:,} bytes a submission may have; give the .py file that defines class Solution",
    "file_changed": "{path} changed while it was read; judge it again once it stays as it is",
    "case_unreadable": "{path}: cannot read the case file ({reason})",
    "case_invalid": "{path}: field {field}: expected {problem}",
    "case_not_json": "{path} is not valid JSON: line {line}, column {column}: {reason}",
    "case_number_too_long": "{path} holds an integer of thousands of digits, more than the judge reads; no case needs one",
    "case_too_big": "{path} is {size} KiB; a case may be at most {limit} KiB",
    "case_too_deep": "{path} nests lists and objects more than {limit} levels deep; a case may nest at most {limit}",
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
    "bad_jobs": "wants a positive number of things done at once (submissions, mutants, problems), not {value}",
    "bad_port": "wants a port number from 0 (any free one) to 65535, not {value}",
    "serve_exact_without_class": "--exact-figures shows a graded class's hidden figures; give it with --class OUT",
    "bad_points": "--points wants a positive number of points, not {value}",
    "merge_other_points": "{path} gives the problem {points} points but {first} gives it {other}; give --points to merge them",
    "bad_max": "wants a positive number of mutants, not {value}",
    "bad_shard": "--shard wants K/N in plain digits with 1 <= K <= N <= {most}, e.g. 2/8, or auto, not '{value}'",
    "bad_shards": "--shards wants the number of shards in plain digits, from 1 to {most}, not '{value}'",
    "bad_shard_env": "--shard auto: {name} is '{value}', not a task index in plain digits",
    "shard_auto_needs_count": "--shard auto needs --shards N, the number of shards, written in the job file (a resubmitted array task cannot tell how many there were)",
    "shards_without_auto": "--shards N goes with --shard auto; --shard K/N says N itself",
    "no_shard_env": "--shard auto needs a task index from a Slurm job array ({slurm}) or a Kubernetes Indexed Job ({kubernetes}); give --shard K/N elsewhere",
    "bad_setting": "{name} is '{value}'; it must be one of {choices} (docs/configuration.md)",
    "out_unwritable": "cannot write to {path} ({reason})",
    "merge_not_graded": "{path} holds no summary.json: it is not the output of 'judge grade', or that run did not finish",
    "merge_other_problem": "{path} grades '{slug}' but {first} grades '{other}'; merge the outputs of one problem",
    "merge_other_split": "{path} is shard {shard} but {first} is shard {other}; merge the shards of one split",
    "merge_duplicate_shard": "shard {shard} appears twice: {first} and {second}",
    "merge_missing_shards": "shard {missing} of {count} is missing; merge every shard's output",
    "merge_conflict": "student '{student}' is in both {first} and {second}",
    "merge_other_cases": "{path}: '{student}' was judged with other cases, limits, device or judge than the students of {first}; grade every part with the same package and judge, then merge",
    "merge_incomplete": "{path}: the result of student '{student}' is missing; run that shard's 'judge grade' again to finish it",
    "weak_sandbox": "the workers here run at {level}, which cannot keep hidden cases secret or the judge's files safe from submissions; run 'judge doctor' to see what is missing, or pass --allow-weak-sandbox to grade anyway",
    # judging: how a call ended (judge.judging.verdict.ENDINGS; the fields are judge.judging.session.ending_fields)
    "ended_cpu": "stopped after {cpu_s:.2f} s of CPU time (limit {cpu_limit_s:.2f} s)",
    "ended_wall": "stopped after {wall_s:.2f} s of wall time (limit {wall_limit_s:.2f} s; time spent waiting for a CPU not counted)",
    "ended_memory": "stopped at {peak_mib:.0f} MiB (limit {memory_limit_mib:.0f} MiB)",
    "ended_memory_cgroup": "killed by the kernel at its memory limit ({memory_limit_mib:.0f} MiB, counting memfd, tmpfs and shared pages)",
    "ended_threads": "stopped at {tasks} threads (limit {task_limit})",
    "ended_disk": "wrote {written_mib} MiB where it may write (disk quota {quota_mib} MiB)",
    "ended_too_large": "the returned value was larger than the judge accepts",
    "ended_exit": "the process ended during the call (exit status {status})",
    "ended_late": "used {cpu_s:.3f} s of CPU, limit {cpu_limit_s:.3f} s",
    "hidden_limit_time": "exceeded its time limit ({cpu_limit_s:.2f} s of CPU time)",
    "hidden_limit_memory": "exceeded its memory limit of {memory_limit_mib:.0f} MiB",
    "import_slow": "importing your file took longer than {import_limit_s:.0f} s, the limit for an import; move slow work from the top level of the file into the methods",
    "import_memory": "importing your file used more than {memory_limit_mib:.0f} MiB, the memory limit",
    "import_exit": "your file ended the process while it was being imported (exit status {status})",
    "import_bad_reply": "the worker's reply at start-up was not the expected one",
    # the file ran but is not a solution: said from a worker's key and fields (judge.worker.protocol.SHAPE_ERRORS)
    "import_no_solution_class": "the file defines no class Solution",
    "import_missing_methods": "class Solution has no method {missing}; it has: {found}",
    "unjudgeable": "{reason}",  # why no worker can load a file (judge.pipeline.Submitted.unjudgeable), said already
    # judge export and judge autograde (Gradescope, PrairieLearn)
    "export_duplicate": "a problem is named twice in '{slugs}'; name each once",
    "export_bad_points": "--points wants a positive number of points, not {value}",
    "export_bad_cooldown": "--cooldown wants minutes, 0 or more, not {value}",
    "export_bad_wheelhouse": "{path}: no .whl file there; give a folder of wheels (pip download --only-binary=:all: -d DIR torch ...), or leave --wheelhouse out",
    "export_bad_timeout": "--timeout wants seconds from 1 to 600 (PrairieLearn's most), not {value}",
    "export_not_installed": "the judge is not installed as the package {name}, so no wheel can be made of it; install it (pip install .) and export again",
    "export_stale_metadata": "the installed metadata of {name} is for version {found} (or lists no dependencies), but this judge is {version}; reinstall it (pip install .) and export again",
    "export_done_gradescope": "wrote {out} ({count} problem(s)). On Gradescope: create a Programming Assignment, upload it under 'Configure Autograder' (Ubuntu 22.04 base image), then 'Test Autograder' with a solution; the statements are in its statements/ folder",
    "export_done_prairielearn": "wrote {out} ({count} question(s)). Build and push the grader image from {out}/grader (see its Dockerfile), copy {out}/questions/* into your course's questions/, then sync the course",
    "autograde_bad_config": "{path}: not an export.json written by 'judge export' ({reason})",
    "autograde_other_platform": "{path} was exported for {platform}, not {asked}",
    "autograde_unknown_problem": "'{slug}' was not exported here; the exported problems are {known}",
    "autograde_pick_problem": "several problems were exported ({known}); name the one to judge with --problem",
    "autograde_no_folder": "no submission was found: {folder} does not exist",
    "autograde_no_named_file": "no file named {name} was submitted (this assignment has several problems: submit one file per problem, named after it)",
    "autograde_bad_metadata": "ignored {path}: {reason}",
    "autograde_unfinished": "The judge did not finish: {done} of {total} cases were judged when it stopped. This is not a verdict on your code; submit again, and tell your instructor if this persists.",
    "autograde_weak": "this autograder's sandbox runs at {level}, which cannot keep the hidden cases secret or the judge's files safe, so it judges nothing; run 'judge doctor' in the image to see what is missing, or export with --allow-weak-sandbox to judge anyway",
    "autograde_failed": "The judge failed (not your fault): {reason}. Tell your instructor.",
    "autograde_not_installed": "The autograder is not installed correctly (its setup did not finish), so nothing was judged. Tell your instructor.",
    "autograde_level": "security level: {level}",
    "autograde_judging": "{slug}: judging {path}",
    "autograde_verdict": "{slug}: {verdict}, {passed}/{total} cases passed ({seconds:.1f} s)",
    "autograde_written": "wrote {path} (score {score})",
    "autograde_box": "box (this container's cgroup limits): memory {memory}, CPUs {cpus}",
    "autograde_calibrated": "{slug}: calibrated; CPU-time limits {low:.2f} to {high:.2f} s, memory limit {memory} MiB",
    "gradescope_judged": "Judged: {samples} sample case(s), shown in full below, and {hidden} hidden case(s), worth {points:g} point(s) together; {when}.",
    "platform_samples_verdict": "verdict on the sample cases alone",
    "gradescope_when_hidden": "only your instructor sees their results",
    "gradescope_when_after_due_date": "their results are shown after the due date",
    "gradescope_when_after_published": "their results are shown when the grades are published",
    "gradescope_when_visible": "their verdicts are listed with the tests (never their data)",
    "gradescope_cooldown": "Not judged: this submission came less than {minutes:g} minutes after the last judged one. Its results are kept below; submit again in {wait:.0f} minute(s).",
    "prairielearn_message": "{passed} of {hidden} scored (hidden) cases passed; the sample cases are shown in full below.",
    "prairielearn_internal": "The judge failed (not your fault); tell your instructor.",
    "prairielearn_output_cut": "(the sample report was too long for PrairieLearn and is left out)",
    "import_failed_after_hidden": "the submission failed to import again after a hidden case (details are not shown, as for every hidden case)",
    "worker_did_not_start": "the worker did not start",
    "reply_malformed": "the worker's reply was not a well-formed answer to this call",
    "replaced_judge_code": "your code replaced the backward of a judge-built layer (or the routes of a judge-built "
                           "model): a method may change the values it is given, never the code of the judge's objects",
    # the report's summary lines (judge.report.build)
    "report_summary": "{verdict}: {passed}/{total} {scope} passed",
    "report_ran": "nothing to compare: {total} case(s) of your own without expected values; the values your code returned are shown",
    "scope_run": "sample cases",
    "scope_submit": "cases",
    "case_not_run": "not run",
    "case_not_run_method": "not run: {method} ended on a time or memory limit in {strikes} cases, so its other cases are not run",
    "case_not_run_budget": "not run: the submission's time budget ({budget:g} s for all its calls) was spent",
    "report_budget": "time: each call within its case's CPU-time limit, {budget:g} s for the whole submission; once {strikes} calls of one method end on a limit, its other cases are not run",
    "report_exact_hidden": "hidden cases' figures are exact here, as measured: this copy is for instructors and authors, never for students (their reports give them coarse)",
    "case_accepted": "accepted",
    "case_ran": "ran, nothing to compare: no expected values in the case",
    "case_ignored_fields": "ignored {fields}: only the judge uses them",
    "case_failed": "{verdict} in {method}",
    "case_failed_at": "{verdict} in {method} at {field}",
    # internal (exit 3)
    "worker_start_failed": "the judge could not start its worker process ({reason})",
    "warm_worker_died": "the judge's warm worker process ended while this submission was judged; it is judged again on the next run",
    "build_drift": "case {case}: the objects built on this machine differ from the ones the expected values were computed on (checksum mismatch); the judge cannot give a fair verdict here -- report this with 'torch {torch}'",
    "reference_failed": "the reference solution failed on case {case}: {reason}",
    "internal": "internal error: {reason}",
    "interrupted": "interrupted",
    "rerun_failed": "judge gen's rerun under {path} failed (exit {code}); its last output:\n{tail}",
    "rerun_not_taken": "judge gen's rerun under {path} ran torch's {got} kernels instead; that code path cannot be checked here",
    # practice
    "start_written": "wrote the starter for {title} to {path}",
    "start_next": "next: read the problem with 'judge show {slug}', try your solution on the examples with 'judge run {slug}{file}', then 'judge submit {slug}{file}'",
    "not_recorded": "warning: this attempt was judged but not recorded: {reason}",
    "list_summary": "{solved} of {total} solved, {attempted} attempted · 'judge show <problem>' to read one, 'judge start <problem>' to begin",
    "show_status": "your status: {status}, {attempts} attempt(s) · 'judge history {slug}' lists them",
    "show_new": "your status: new · 'judge start {slug}' writes the starter file",
    "status_new": "new", "status_attempted": "attempted", "status_solved": "solved",
    "list_column_status": "status", "list_column_problem": "problem", "list_column_title": "title",
    "list_column_difficulty": "difficulty", "list_column_tries": "tries", "list_column_tags": "tags",
    "difficulty_easy": "easy", "difficulty_medium": "medium", "difficulty_hard": "hard",
    "help_show_code": "print each sample case's inputs as Python to paste, built bit for bit as the judge builds them, then its calls (instead of the statement)",
    # judge show SLUG --code: comments in the Python it prints (judge.package.snippet)
    "code_header": "{slug}: the inputs of every sample case, as the judge builds them: values drawn in float64 from a torch.Generator seeded per object, then cast to float32",
    "code_case": "--- {case}: {title}",
    "code_judge_built": "{name} holds the judge's own autograd layers: written out, their code would tell which backward is broken, which is what the problem asks; the judge builds it",
    "code_solution": "define your class Solution first (paste your {slug}.py above this line), then:",
    "code_call_seed": "the judge seeds torch before every call, so that dropout draws the same masks",
    "code_fresh": "the judge builds the inputs afresh for every call, so a call gets copies of what a later call uses too: one cannot change what another receives",
    "code_not_sample": "{slug} has no sample case '{case}' with an object '{name}'; only the objects of sample cases can be built ({samples})",
    "history_empty": "no attempts at {slug} yet; 'judge start {slug}' writes the starter file",
    "history_empty_all": "no attempts yet; 'judge list' shows the problems",
    "history_where": "{count} attempt(s), oldest first, each keeping its number · cpu: measured on the sample cases, or a bound (≤) where only that was kept · kept in {path} · 'judge history SLUG --show N' prints attempt N's code, '--restore N [FILE]' writes it back",
    "history_cpu_bound": "≤ {ms:.1f} ms (bound)", "history_column_number": "#",
    "history_no_attempt": "no attempt {number} at {slug}: there are {count} (1 is the first; 'judge history {slug}' lists them)",
    "history_no_code": "attempt {number} at {slug} was recorded before the history kept code; only its hash is known",
    "history_restore_exists": "{path} exists and differs from attempt {number} at {slug}; add --force to replace it, or name another file",
    "history_restore_link": "{path} is a symbolic link; the judge does not write through links: name the file itself, in the folder the link points to",
    "history_restore_special": "{path} is not a regular file (a FIFO, a device or a folder); name a file to write attempt {number} to",
    "history_restored": "wrote attempt {number} at {slug} to {path}",
    "history_bad_restore": "--restore takes a number and at most one file ('--restore 2 mine.py'), not '{given}'",
    "history_which_problem": "--show and --restore need the problem: 'judge history SLUG --show N'",
    "help_watch": "judge a solution on the sample cases again every time you save it (Ctrl-C stops)",
    "help_history": "list your past attempts at a problem (or at every problem), show one's code or restore it",
    "check_source_missing": "cannot find the source of class {name}: define it in a notebook cell or a .py file, or pass its source as a string",
    "check_not_a_class": "check() needs your Solution class or its source code as a string, not {kind}",
    "object_of_type": "an object of type {name}",
    "unsupported_tensor": "a tensor of shape {shape}", "unsupported_deep": "a value nested too deeply",
    "magic_usage": "usage: %%judge <problem> [--submit] [--lang zh] at the top of a cell that defines class Solution",
    "check_bad_lang": "lang must be one of {known}, not '{given}'",
    # the practice site (judge serve)
    "serve_url": "practice site: {url}\n(the link holds this launch's key: open it in your browser; Ctrl-C stops the site)",
    "serve_class": "instructor view of {path}: {url}class/",
    "serve_host_warning": "warning: serving on {host}, not only on this machine: anyone who can reach it and has the link can run code here as you",
    "serve_port_busy": "cannot listen on {host}:{port} ({reason}); choose another port with --port, or 0 for any free one",
    "serve_no_graded": "{path} holds no index.html and summary.json: give the --out folder of a finished 'judge grade' run",
    "serve_unwritable": "cannot save to {path} ({reason}); set JUDGE_HOME to a folder you can write to",
    "serve_forbidden_token": "this request does not carry the site's key; open the link 'judge serve' printed",
    "serve_bad_host": "refused: the site answers only to the address it was started on, not '{host}'",
    "serve_bad_origin": "refused: a change requested by another site ({origin})",
    "serve_too_large": "refused: the request is larger than {limit} bytes",
    "serve_bad_body": "send JSON with the code as a string: {{\"code\": \"...\"}}",
    "serve_unknown_problem": "unknown problem '{slug}'",
    "serve_bad_lang": "'lang' must be one of {known}: the languages the site is shown in",
    "serve_not_found": "no such page",
    "serve_no_attempt": "no report kept for this attempt (attempts judged from the command line keep only their history row)",
    "serve_no_job": "no such judgement (the site keeps the latest ones only)",
    "serve_no_class": "no graded class here: start the site with 'judge serve --class <the --out folder of judge grade>'",
    "serve_no_student": "no student '{student}' in this class",
    "serve_already_judging": "{slug} is already being judged; its result follows",
    "serve_lost": "lost contact with the judge; is 'judge serve' still running?",
    "serve_running": "Running on the sample cases…",
    "serve_submitting": "Submitting: every case, hidden ones included…",
    "serve_custom_running": "Running on your own case…",
    "serve_bad_case_body": "send JSON with the code and the case file's text as strings: {{\"code\": \"...\", \"case\": \"{{...}}\"}}",
    "serve_stopping": "Stopping…",
    # the problem page's labels (judge.serve.app.SITE_LABELS), switched with the statement's language
    "site_run": "Run", "site_run_title": "judge on the sample cases (Ctrl-Enter)",
    "site_submit": "Submit", "site_submit_title": "judge on every case, hidden ones included",
    "site_stop": "Stop", "site_stop_title": "stop the judgement under way",
    "site_reset": "Reset", "site_reset_title": "replace the code with the problem's starter code",
    "site_reset_yes": "Reset to starter", "site_reset_no": "Keep my code",
    "site_saved": "saved", "site_unsaved": "unsaved", "site_not_saved": "not saved", "site_history": "history",
    "site_tab_testcase": "Testcase", "site_tab_result": "Test Result", "site_tab_custom": "Custom input",
    "site_run_custom": "Run on this case", "site_use_sample": "Use as custom input", "site_case": "Case {n}",
    "site_custom_case": "custom input",
    "site_input": "Input", "site_output": "Output", "site_expected": "Expected", "site_printed": "Printed output",
    "site_hint": "Hint", "site_hidden": "hidden", "site_hidden_case": "Hidden case: {why}", "site_full_report": "Full report",
    "site_returned": "returned (no expected values to compare with)", "site_no_result": "Run your code to see its result here.",
    "site_passed": "{passed}/{total} cases passed · {seconds} s", "site_splitter": "drag to share the room between the editor and the results",
    "site_not_here": "Not here", "site_back_to_problems": "Back to the problems",
    # a graded class's student page (judge serve --class)
    "site_class_back": "class results", "site_student": "Student {student}", "site_code_heading": "Code",
    "site_code_gone": "The submitted file {source} is no longer where it was graded, or no longer what was graded, so it is not shown.",
    "serve_stopped": "stopped: your code was halted and the judging cancelled; nothing was recorded",
    "serve_already_finished": "this judgement has already finished; there is nothing to stop",
    "serve_reset_confirm": "Replace the code in the editor with the starter code? What you typed is not kept (past attempts stay in the history).",
    "serve_custom_help": "Paste a case in the format of the problem's case files (as 'judge run --case FILE' takes): its \"objects\" and \"calls\", and \"expected\" values if you want them compared. Without them, the values your code returns are shown. A sample case file works as it is.",
    # grading a class
    "gradebook_feedback": "{verdict}: {passed}/{total} cases passed",
    "grade_skip_hidden": "a hidden name (starting with . or __), never a submission",
    "grade_skip_not_python": "not a .py file or a student's folder (--every-entry judges it as a submission)",
    "grade_skipped_one": "skipped {count} entry that is not a submission: {names} (listed in summary.json and index.html)",
    "grade_skipped": "skipped {count} entries that are not a submission: {names} (listed in summary.json and index.html)",
    "grade_no_python_file": "no .py file in the student's folder",
    "grade_no_python_file_found": "no .py file was submitted; found {names} instead (the solution must be a file ending in .py, in lower case, e.g. solution.py)",
    "grade_several_python_files": "{count} .py files in the student's folder ({names}); keep one, or name the submission solution.py",
    "grade_progress": "{done}/{total} judged · {counts} · {elapsed} elapsed · ETA {eta}",
    "grade_done": "{total} submissions of {slug}: {judged} judged now, {reused} unchanged since an earlier run ({seconds:.1f} s)",
    "grade_outputs": "class report: {index} (also summary.csv, summary.json, junit.xml; one folder per student)",
    "grade_interrupted": "interrupted: {saved} of {total} submissions are judged and saved, and the overview shows them (marked incomplete); run the same command again to judge the rest",
    "merge_interrupted": "{path} holds an interrupted 'judge grade' run ({missing} submission(s) not judged); run that command again to finish it, then merge",
    "class_incomplete": "Incomplete: this run was interrupted with {missing} submission(s) not judged yet. Run the same 'judge grade' command again to judge the rest.",
    "class_exact": "Exact figures: hidden cases' CPU time and memory, and every judgement's time, are shown as measured (judge grade --exact-figures). These pages are for instructors; do not give them to students (each student's results.json stays coarse).",
    "class_points": "Points: the sample cases are worth 0, the hidden cases share the problem's {points:g} points, each earned when accepted (--points sets them).",
    "class_time_coarse": "Time: each judgement's wall time, rounded up to whole seconds, as students see it.",
    "class_time_exact": "Time: each judgement's wall time in seconds, as measured.",
    "class_skipped": "Entries of the class folder that are not submissions ('judge grade --every-entry' judges every file):",
    "grade_internal": "the judge failed on {count} submission(s) (verdict internal_error, not the students' fault); see their reports",
    "junit_time": "testcase: CPU seconds the submission used on the case; testsuite: their sum",
    "merge_done": "{total} students from {folders} folders",
    "merge_malformed_summary": "{path} is not a summary 'judge grade' writes ({what} is missing, of another kind, or names another folder); judge that shard again",
    "merge_malformed_result": "{path}: the stored result of student '{student}' is not one 'judge grade' writes ({what} is missing or of another kind); judge that shard again",
    "merge_what_link": "its folder, a link,", "merge_what_page": "the report its page shows",
    "merge_tampered": "{path}: the stored result of student '{student}' does not add up ({why}); judge that shard again",
    "audit_case": "case {case} is stored as {status} but its verdict is {verdict}",
    "audit_figure": "its {figure} is stored as {stored} but its cases give {found}",
    "audit_source": "its source {source} is not the file that was judged (another sha256)",
    **LEARNER,
    **AUTHORING,
    **MACHINE,
    **EXPECTED,
}


LIST_COLUMNS = ("status", "problem", "title", "difficulty", "tries", "tags")


def say(key: str, /, **fields: Any) -> str:
    return CATALOGUE[key].format(**fields)


def translations(lang: str) -> dict[str, str]:
    """The translated messages of ``lang`` (none for English, or a language the judge does not speak: a language
    named by a request is checked before anything is read or cached)."""
    return {} if lang not in LANGUAGES or lang == "en" else _catalogue_file(lang)[0]


def argparse_words(lang: str) -> dict[str, str]:
    """argparse's own words in ``lang`` (the file's ``[argparse]`` section), by argparse's English text, its msgid
    (:mod:`judge.argwords`); none for English or a language the judge does not speak."""
    return {} if lang not in LANGUAGES or lang == "en" else _catalogue_file(lang)[1]


@functools.lru_cache(maxsize=None)
def _catalogue_file(lang: str) -> tuple[dict[str, str], dict[str, str]]:
    """The messages of ``messages.<lang>.toml``, and its ``[argparse]`` section."""
    read = tomllib.loads(Path(__file__).with_name(f"messages.{lang}.toml").read_text(encoding="utf-8"))
    return {k: v for k, v in read.items() if isinstance(v, str)}, read.get("argparse", {})


def text_in(lang: str, key: str) -> str:
    """A message's template in ``lang``, its fields unfilled (for the site's script, which fills them)."""
    return translations(lang).get(key, CATALOGUE[key])


def say_in(lang: str, key: str, /, **fields: Any) -> str:
    return text_in(lang, key).format(**{name: value.said_in(lang) if isinstance(value, (Said, SaidText)) else value
                                         for name, value in fields.items()})


class Said:
    """A message that is a field of another (why a file is not Python, "'a' or 'b'"): said in the language the
    message around it is said in, in English where it is formatted as it is."""

    def __init__(self, key: str, /, **fields: Any):
        self.key, self.fields = key, fields

    def said_in(self, lang: str) -> str:
        return say_in(lang, self.key, **self.fields)

    def __format__(self, spec: str) -> str:
        return format(self.said_in("en"), spec)

    def __str__(self) -> str:
        return self.said_in("en")


class SaidText(str):
    """A message said in English, as text (what code that keeps it tests with ``startswith`` sees), that can be said
    again in another language: why a layer of the workers' confinement is off, found once per process and shown in
    each report's language (``judge run --verbose``)."""

    key: str
    fields: dict[str, Any]

    def __new__(cls, key: str, /, **fields: Any) -> SaidText:
        said = super().__new__(cls, say(key, **fields))
        said.key, said.fields = key, fields
        return said

    def said_in(self, lang: str) -> str:
        return say_in(lang, self.key, **self.fields)

    def __reduce__(self) -> tuple[Any, ...]:  # pickled as its key and fields, not as the English it reads
        return _said_text, (self.key, self.fields)


def _said_text(key: str, fields: dict[str, Any]) -> SaidText:
    return SaidText(key, **fields)


def said_in(lang: str, text: str) -> str:
    """``text`` in ``lang``: a :class:`SaidText` said again in it, any other text as it is (another program's)."""
    return text.said_in(lang) if isinstance(text, SaidText) else text


def tag_in(lang: str, tag: str) -> str:
    """A problem's tag in ``lang``: its translation when it is one of :data:`judge.messages_learner.TAGS`, else as
    the problem wrote it."""
    known = f"tag_{tag.replace('-', '_')}" in CATALOGUE
    return say_in(lang, f"tag_{tag.replace('-', '_')}") if known else tag
