"""Grading a class: ``judge grade`` judges every submission in a folder, ``judge merge`` combines shards.

One module per step: :mod:`~judge.grading.discover` (which student submitted what), :mod:`~judge.grading.store`
(results on disk, what is still to judge), :mod:`~judge.grading.schedule` (warm workers, one per job slot),
:mod:`~judge.grading.summary` (the class figures, from stored results only), :mod:`~judge.grading.render` (the
files an instructor opens) and :mod:`~judge.grading.progress` (the live line on a terminal).

The output folder (``--out``)::

    students/<student>/results.json   the student's report: exactly what 'judge submit --format json' writes
                                      (Gradescope results.json compatible), plus a "grading" block: student,
                                      source, content_sha256, judge_key, run, judged_at
    students/<student>/report.html    that report as HTML
    summary.csv                       one row per student: verdict, passed/total, score, time
    summary.json                      the same rows, verdict counts, per-case pass rates, shard, problem
    junit.xml                         one test suite per student, one test case per problem case
    index.html                        the class overview: verdict distribution and per-case pass rates

``results.json`` is written atomically the moment a submission's verdict is known; it is the only state.
A re-run judges a student again only when the submission's bytes (``content_sha256``) or what judging means
(``judge_key``: judge version, device, the problem's cases, expected values and limits) changed, and rebuilds
every other file from the stored results.
"""
