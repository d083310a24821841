"""The learner's side: progress, the commands a learner uses, and judging from a notebook.

``history`` records every judged attempt in SQLite (in :func:`judge.places.data_home`), ``views`` lays out the
problem list and the attempt history for a terminal, ``source`` turns a notebook's class into a submission file,
and ``notebook`` judges it (``check`` and the ``%%judge`` cell magic). Judging itself is never done here: every
path goes through :func:`judge.pipeline.judge_guarded` and its isolated worker.
"""
