"""The words a learner reads around the judge's sentences: the report's own (headings, columns, verdict names), the
site's pages (list, history, attempt), a graded class's overview, how a case's inputs are described, and the
problems' tag vocabulary. A wing of the catalogue in
:mod:`judge.messages`, which holds them under their keys like every other sentence; ``messages.zh.toml``
translates them key by key (``tests/test_zh.py`` checks that none a zh learner sees is left out)."""

TAGS: tuple[str, ...] = (
    "activations", "adam", "autograd", "batchnorm", "clipping", "computation-graph", "conv2d", "cross-entropy",
    "custom-function", "dead-units", "debugging", "detach", "diagnostics", "entropy", "finite-differences",
    "float64", "gradient-check", "gradients", "hooks", "initialization", "json-only", "kaiming", "learning-rate",
    "loss-scaling", "mixed-precision", "nan-inf", "nested-modules", "optimizers", "pytorch", "relu",
    "requires-grad", "residual", "rule-engine", "running-stats", "sigmoid", "signal-propagation", "softmax", "tanh",
    "train-eval", "training-loop", "vanishing-gradients", "warmup", "xavier")
"""the problems' tag vocabulary, translated once for all of them: each tag is the key ``tag_<tag>`` (hyphens as
underscores); a problem's tag outside it is shown as written (tests/test_zh.py holds the bundled problems to it)"""
ITEMS: tuple[str, ...] = ("activation", "child", "entry", "finding", "item", "layer", "parameter", "step")
"""the words a method's list entries are called by (``[[methods]] item``, ``layer 2 · std``), translated once: each
is the key ``item_<word>``; a module's class name (``Linear``, ``ReLU``) is an identifier, shown as written"""

LEARNER: dict[str, str] = {
    # the report's own words (judge.report.render's text and HTML templates, the site's result pane), said in the
    # report's language; verdict names are their identifiers in English
    "verdict_accepted": "accepted", "verdict_wrong_answer": "wrong_answer",
    "verdict_time_limit_exceeded": "time_limit_exceeded", "verdict_memory_limit_exceeded": "memory_limit_exceeded",
    "verdict_runtime_error": "runtime_error", "verdict_compile_error": "compile_error",
    "verdict_output_format_error": "output_format_error", "verdict_internal_error": "internal_error",
    "verdict_ran": "ran", "verdict_not_run": "not run",
    "mode_run": "run", "mode_submit": "submit",
    "report_verdict_line": "{label}: {verdict}",
    "report_verdict": "verdict",
    "report_passed": "{passed}/{total} {scope} passed",
    "report_rule": "a number passes when {rule}",
    "report_submission": "Submission {path}",
    "report_judge_failed": "The judge failed (not your fault): {reason}",
    "report_case": "case", "report_cpu_time": "cpu time", "report_limit": "limit", "report_memory": "memory",
    "report_field": "field", "report_got": "got", "report_expected": "expected", "report_error": "|error|",
    "report_tolerance": "tolerance",
    "report_got_expected": "Got {got}, expected {expected}",
    "report_format_error": "{field}: got {got}, expected {expected}",
    "report_inputs": "inputs:",
    "report_hint": "hint",
    "report_printed": "printed output:",
    "report_hidden_case": "hidden case: {why}",
    "report_cases_not_run": "Cases {numbers}: {reason}.",
    "report_outputs": "no expected values: the outputs",
    "report_returned": "{method} returned ({time})",
    "report_judge": "Judge",
    "report_judge_line": "judge {version} · security level {level} · device {device}{compared} · torch {torch}",
    "report_compared": " (compared with {expected} expected values: none recorded for {device} yet)",
    "report_expected_values": " (expected values: {expected})",
    "report_none": "none",
    # the site's list, history and attempt pages (judge.serve.templates), in the language of ?lang=
    "site_practice": "Practice", "site_problems": "Problems", "site_class_results": "Class results",
    "site_solved": "{solved} of {total} solved", "site_tag": "Tag", "site_any": "any", "site_filter": "Filter",
    "site_clear": "clear", "site_no_match": "No problem matches these filters.",
    "site_when": "when", "site_mode": "mode", "site_passed_column": "passed", "site_cpu_samples": "cpu (samples)",
    "site_from": "from", "site_code": "code", "site_attempt": "attempt", "site_history_of": "history of {title}",
    "site_no_attempts": "No attempts yet.",
    "site_history_note": "Newest first; each attempt keeps its number ({command}). The CPU time is measured on the sample cases. Attempts judged in the browser link to their report and code; those judged from the command line or a notebook keep their history row only.",
    # a graded class's overview (index.html, judge grade --lang), beside its sentences in judge.messages
    "class_results": "class results", "class_shard": "shard {shard}", "class_incomplete_mark": "incomplete",
    "class_overview": "{students} students · {accepted} accepted ({percent}%) · mean {mean} of {points} points",
    "class_verdicts": "Verdicts", "class_verdicts_label": "students per verdict",
    "class_pass_rate": "Pass rate per case", "class_pass_rate_label": "share of students passing each case",
    "class_pass_rate_note": "Samples first, then hidden cases, in judging order; red below 50%, amber below 80%.",
    "class_students": "Students", "class_column_student": "student", "class_column_verdict": "verdict",
    "class_column_passed": "passed", "class_column_points": "points", "class_column_time": "time (s)",
    "class_column_file": "file", "class_column_report": "report",
    "class_skipped_heading": "Skipped", "class_column_entry": "entry", "class_column_why": "why",
    # the judge's step a note of its own names (the ``exc`` of judge.judging.session.JudgesNote: a limit's ending,
    # or what the judge was doing), by key step_<its name in snake case>; in English, the name itself
    "step_cpu": "cpu", "step_wall": "wall", "step_memory": "memory", "step_threads": "threads", "step_disk": "disk",
    "step_too_large": "too_large", "step_exit": "exit", "step_late": "late",
    "step_starting_the_judge": "Starting the judge", "step_importing_your_file": "Importing your file",
    "step_building_the_case": "Building the case", "step_reading_your_reply": "Reading your reply",
    "step_replacedjudgecode": "ReplacedJudgeCode", "step_notjudgeable": "NotJudgeable",
    # how a case's inputs are described (each kind's describe, judge.package.kinds): in statements' examples, the
    # site's Testcase tab and the reports of visible cases; the kinds' own names (Linear, kaiming_normal, weight)
    # are identifiers and stay as they are
    "describe_tensor": "tensor {shape}{dtype}, {init}, seed {seed}",
    "describe_labels": "labels {values}",
    "describe_labels_drawn": "labels: {n} class indices drawn uniformly from 0..{top}, seed {seed}",
    "describe_optimizer": "optimizer {config}", "describe_training": "training {config}",
    "describe_model": "{layout}, seed {seed}{state}",
    "describe_stale_grad": "; every .grad already holds {init} from an earlier backward pass",
    "describe_stale_inject": ", with {param}.grad[{index}] = {value} (flat index)",
    "describe_grad_none": "; .grad is None for {names}",
    "describe_frozen": "; frozen (requires_grad=False): {names}",
    "describe_mode": "; in {mode} mode",
    "describe_backward_correct": "backward correct", "describe_backward_bug": "backward with bug {bug}",
    "describe_input_detached": "input detached", "describe_output_detached": "output detached",
    "describe_scaled": "scaled by {scale}", "describe_unused": "unused",
    "describe_init_values": "values {values}", "describe_init_default": "default", "describe_no_bias": "no bias",
    # where a difference is (judge.judging.compare.field_in) and what a value of the wrong type is, in a report's
    # language; in English, the field as compare writes it
    "field_item": "{item} {n}", "field_length": "length", "field_keys": "keys", "field_result": "result",
    **{f"item_{word}": word for word in ITEMS},
    "type_bool": "a bool", "type_string": "a string", "type_list": "a list", "type_dict": "a dict",
    "type_integer": "an integer", "type_number": "a number", "type_unknown": "an unknown value",
    # the help of the learner's commands (judge --help, judge run --help, ...; judge.cli's, judge.command's and the
    # practice, serve and grading wings'), and the wrapper of a usage error: argparse's own words are in the
    # [argparse] section of messages.<lang>.toml
    "usage_error": "{message} (see '{command} --help')",
    "help_judge": "Practise, grade and author PyTorch training-diagnostics problems.",
    "help_version": "show program's version number and exit",
    "help_no_color": "no colours (also: set NO_COLOR)",
    "help_lang": "the language to read it in: statement, report, tags and messages (default: {default})",
    "help_slug": "the problem, e.g. training-diagnostics",
    "help_file": "your solution: a .py file defining class Solution (default: <slug>.py)",
    "help_format": "report format (default: text)",
    "help_output": "write the report to this file instead of the terminal",
    "help_device": "where the worker runs (default: cpu)",
    "help_verbose": "show the worker's security layers in full",
    "help_list": "list the problems with their difficulty, tags and your progress",
    "help_show": "read a problem's statement in the terminal",
    "help_start": "write a problem's starter file to work in",
    "help_start_path": "where to write it (default: <slug>.py; a folder: <folder>/<slug>.py)",
    "help_start_force": "replace an existing file",
    "help_run": "judge a solution on the sample cases, with full detail",
    "help_run_case": "run a case file of your own (the package's format; without expected outputs, the outputs are shown)",
    "help_submit": "judge a solution on every case, samples then hidden",
    "help_watch_file": "your solution (default: <slug>.py)",
    "help_watch_no_color": "no colours and no clearing the screen",
    "help_history_slug": "the problem (default: every problem)",
    "help_history_show": "print the code of attempt N (1: the first; 'judge history SLUG' lists the numbers)",
    "help_history_restore": "write the code of attempt N back to FILE (default: <slug>.py)",
    "help_history_force": "with --restore: replace a file that differs",
    "help_serve": "practise in your browser: a local site with the problems, an editor, Run and Submit",
    "help_serve_port": "port to listen on (default: 8765; 0: any free one)",
    "help_serve_host": "listen on this address instead of 127.0.0.1 (others could then reach the site and run code as you: prints a warning)",
    "help_serve_open": "open the site in your web browser",
    "help_serve_class": "instructor: also browse the --out folder of a 'judge grade' run",
    "help_serve_exact": "with --class: show hidden cases' CPU time and memory as measured (for instructors; never serve this to students)",
    "help_serve_lang": "the language of the site's first page and of these lines (default: {default}; the site can switch)",
    "help_grade": "instructor: judge a folder of submissions in parallel, with per-student and class reports",
    "help_grade_submissions": "a folder of .py files, or of one folder per student (the student id is the name)",
    "help_grade_out": "where results go; re-running with the same folder judges only what is new or changed",
    "help_grade_jobs": "submissions judged at once (default: one per core)",
    "help_grade_shard": "judge only the K-th of N deterministic slices (for job arrays); auto: slice (index mod N) + 1 of --shards N, the index from a Slurm array task or a Kubernetes Indexed Job",
    "help_grade_shards": "with --shard auto: how many slices (the size of the array, written in the job file)",
    "help_grade_device": "where the workers run (default: cpu)",
    "help_grade_weak": "grade even where the workers cannot keep hidden cases secret (see 'judge doctor')",
    "help_grade_every_entry": "judge every file of the folder as a submission, not only .py files and folders (names starting with . or __ stay skipped)",
    "help_merge": "instructor: combine the outputs of 'judge grade --shard' runs into one class summary",
    "help_merge_folders": "the --out folders of 'judge grade' runs (e.g. shards)",
    "help_merge_out": "where the combined results and summary go",
    "help_grade_csv_bom": "start summary.csv with a UTF-8 byte order mark, so that Excel reads non-ASCII names",
    "help_grade_points": "what the problem is worth, shared by its hidden cases (default: one per hidden case)",
    "help_grade_lang": "the language of the class overview and the gradebook's feedback, and of the students' reports judged by this run (default: {default})",
    "help_grade_exact": "instructor: hidden cases' CPU time and memory exact in every file written (each report.html too); students' results.json stay coarse. Not for students' eyes",
    # tags (TAGS): each said as itself in English
    **{f"tag_{tag.replace('-', '_')}": tag for tag in TAGS},
}
