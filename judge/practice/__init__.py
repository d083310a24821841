"""The learner's side: progress, the commands a learner uses, and judging from a notebook.

``home`` says where a learner's data lives, ``history`` records every judged attempt in SQLite, ``views`` lays
out the problem list and the attempt history for a terminal, ``source`` turns a notebook's class into a
submission file, and ``notebook`` judges it (``check`` and the ``%%judge`` cell magic). Judging itself is
never done here: every path goes through :func:`judge.judging.submission.judge_file` and its isolated worker.
"""
