"""Grading where courses grade: Gradescope autograders and PrairieLearn external graders.

``judge export gradescope SLUG...`` writes an autograder zip (Gradescope's ``gradescope/autograder_samples``
``docs/specs.md``); ``judge export prairielearn SLUG...`` writes a folder with one question per problem and a
grader image definition (PrairieLearn's ``docs/externalGrading.md``). Both carry the same few files:

``setup.sh``           installs the judge into ``<prefix>/venv`` (``/autograder`` on Gradescope, where it runs when
                       the image is built; ``/opt/torch-judge`` in the PrairieLearn image) from the wheel beside it,
                       with the CPU build of torch, then runs ``judge doctor`` and ``judge autograde --setup``, which
                       checks the sandbox and calibrates every exported problem once, into ``<prefix>/calibration``
``export.json``        what was exported (:class:`judge.platforms.config.Export`): the problems and their points, the
                       visibility of hidden cases, the leaderboard and cooldown options
``*.whl``              the judge, with only the exported problems in its bundle (:mod:`judge.platforms.wheel`); on
                       PrairieLearn the judge alone, as its image is public: each question's ``tests/`` folder
                       (mounted at ``/grade/tests`` while grading) carries the problem and its reference
``run_autograder`` /   run for every submission: ``judge autograde <platform>``, which judges the student's file
``grade``              through the same path as ``judge submit`` (:mod:`judge.platforms.engine`) and writes the
                       platform's ``results.json`` (:mod:`judge.platforms.gradescope`,
                       :mod:`judge.platforms.prairielearn`)
``statements/``        each problem's statement as Markdown and HTML, and its starter file, for the instructor

Scoring is the same on both: sample cases are worth nothing (their full detail is shown at once), the points sit
on the hidden cases, which show their verdict only. Time limits come from the calibration baked into the image
(``JUDGE_CALIBRATION=pinned``) and memory and wall-clock limits fit the container (:mod:`judge.judging.limits`).
"""
