"""The site's pages and API, as a Starlette application (built by :func:`build_app`).

Pages: ``/`` the problem list (``?tag=``, ``?difficulty=``), ``/problems/<slug>`` statement, editor and result,
``/problems/<slug>/history`` and ``/problems/<slug>/attempts/<key>``, and with ``--class`` the graded folder
under ``/class/`` (:mod:`judge.serve.class_view`); each in the language of ``?lang=`` (:mod:`judge.serve.pages`). API (JSON; every POST needs the token header, see :mod:`judge.serve.security`):
``POST /api/problems/<slug>/code`` saves the draft, ``POST /api/problems/<slug>/{run,submit}`` starts a
judgement (409 with the running job when one is already running for that problem), ``POST
/api/problems/<slug>/custom`` one on the learner's own case (``{"code", "case"}``: the case file's JSON text),
``GET /api/jobs/<id>/events`` streams its events (server-sent events), ``GET /api/jobs/<id>`` returns those so
far, ``POST /api/jobs/<id>/stop`` stops it (its workers are killed; 409 when it has already finished).
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any, AsyncIterator, Iterable

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from judge import messages
from judge.errors import BadInput
from judge.package.describe import describe_inputs
from judge.package.problem import DIFFICULTIES, Problem, available, find_problem
from judge.package.statement import markdown_html, render_markdown
from judge.practice.history import attempts, progress
from judge.practice.views import NO_ATTEMPTS, cpu_cell
from judge.report.render import html_fragment
from judge.report.style import verdict_css
from judge.serve import store
from judge.serve.class_view import class_overview, class_student
from judge.serve.judging import AlreadyJudging, Job, Judging, check_case
from judge.serve.pages import LANGUAGES, Site, page, page_language, said
from judge.serve.security import Guard

HERE = Path(__file__).parent
MODES = ("run", "submit")
CUSTOM_MODE = "custom"
"""the URL of a Run on the learner's own case"""
SITE_LABELS = (
    "site_run", "site_run_title", "site_submit", "site_submit_title", "site_stop", "site_stop_title", "site_reset",
    "site_reset_title", "site_reset_yes", "site_reset_no", "site_saved", "site_unsaved", "site_not_saved",
    "site_history", "site_tab_testcase", "site_tab_result", "site_tab_custom", "site_run_custom", "site_use_sample",
    "site_case", "site_input", "site_output", "site_expected", "site_printed", "site_hint", "site_hidden_case",
    "site_full_report", "site_returned", "site_no_result", "site_passed", "site_splitter", "serve_lost",
    "serve_running", "serve_submitting", "serve_custom_running", "serve_stopping", "serve_reset_confirm",
    "serve_custom_help", "status_new", "status_attempted", "status_solved", "difficulty_easy", "difficulty_medium",
    "difficulty_hard", "verdict_accepted", "verdict_wrong_answer", "verdict_time_limit_exceeded",
    "verdict_memory_limit_exceeded", "verdict_runtime_error", "verdict_compile_error", "verdict_output_format_error",
    "verdict_internal_error", "verdict_ran", "verdict_not_run", "report_field", "report_got", "report_expected",
    "report_error", "report_tolerance", "report_format_error", "site_problems", "site_class_results",
    "site_hidden")
"""every word of the problem page's own and of its result pane (not the statement's; the report's sentences come
written in the page's language, :func:`_language`), in each statement language: the page's script shows them in
the language the learner picks"""
JUDGE_ONLY_FIELDS = ("mistakes", "translations")
"""a sample case's fields that only the judge and the statement use: left out of the Use as custom input button"""


def _problem(request: Request) -> Problem:
    """The problem the URL names; its slug must be one of the installed problems (never a path as sent)."""
    slug = request.path_params["slug"]
    if slug not in available():
        raise HTTPException(404, said(request, "serve_unknown_problem", slug=slug))
    return find_problem(slug)


# -- pages -----------------------------------------------------------------------------------------------------
async def problem_list(request: Request) -> HTMLResponse:
    problems = [find_problem(slug) for slug in available()]
    mine = progress()
    tag, difficulty = request.query_params.get("tag", ""), request.query_params.get("difficulty", "")
    rows = [{"problem": p, "progress": mine.get(p.slug, NO_ATTEMPTS)} for p in problems
            if (not tag or tag in p.meta.get("tags", [])) and (not difficulty or p.meta["difficulty"] == difficulty)]
    tags = sorted({t for p in problems for t in p.meta.get("tags", [])})
    solved = sum(mine.get(p.slug, NO_ATTEMPTS).status == "solved" for p in problems)
    return page(request, "list.html.j2", rows=rows, tags=tags, difficulties=DIFFICULTIES, tag=tag,
                 difficulty=difficulty, solved=solved, total=len(problems))


async def problem_page(request: Request) -> HTMLResponse:
    problem = _problem(request)
    statements = {lang: markdown_html(render_markdown(problem, lang))
                  for lang in LANGUAGES if problem.template(lang).exists()}
    starter = problem.starter.read_text(encoding="utf-8")
    code = store.latest_code(problem.slug, attempts(problem.slug)[::-1])
    site: Site = request.app.state.site
    running = site.judging.running(problem.slug)
    labels = {lang: {key: messages.text_in(lang, key) for key in SITE_LABELS} for lang in statements}
    return page(request, "problem.html.j2", problem=problem, statements=statements,
                 code=code if code is not None else starter, starter=starter, samples=_samples(problem, statements),
                 labels=json.dumps(labels, ensure_ascii=False),
                 progress=progress().get(problem.slug, NO_ATTEMPTS), running=running.id if running else "")


def _samples(problem: Problem, langs: Iterable[str]) -> list[dict[str, Any]]:
    """The Testcase tab: each sample's title and inputs as the report names them, in each of ``langs`` (the page's
    script shows those of the language picked), and its case file as custom input."""
    return [{"name": case.name, "shown": {lang: {"title": case.titles.get(lang, case.title),
                                                "inputs": describe_inputs(case, lang)} for lang in langs},
             "json": json.dumps({k: v for k, v in case.raw.items() if k not in JUDGE_ONLY_FIELDS}, indent=1)}
            for case in problem.samples]


async def history_page(request: Request) -> HTMLResponse:
    problem = _problem(request)
    kept = store.kept_keys(problem.slug)
    lang = page_language(request)
    rows = [{"attempt": a, "key": store.attempt_key(a), "cpu": cpu_cell(a, lang)} for a in attempts(problem.slug)[::-1]]
    return page(request, "history.html.j2", problem=problem, rows=rows, kept=kept)  # newest first, as LeetCode


async def attempt_page(request: Request) -> HTMLResponse:
    problem = _problem(request)
    kept = store.kept_attempt(problem.slug, request.path_params["key"])
    if kept is None:
        raise HTTPException(404, said(request, "serve_no_attempt"))
    return page(request, "attempt.html.j2", problem=problem, report=html_fragment(kept["report"]),
                 code=kept["code"], verdict=kept["report"]["verdict"])


# -- API -------------------------------------------------------------------------------------------------------
async def _strings(request: Request, *names: str, key: str = "serve_bad_body") -> list[str]:
    """The named string fields of the JSON body, or a 400 saying (``key``) what to send."""
    try:
        body = json.loads(await request.body())
    except ValueError:
        body = None
    if not isinstance(body, dict) or not all(isinstance(body.get(n), str) for n in names):
        raise HTTPException(400, said(request, key))
    return [body[n] for n in names]


async def _code(request: Request) -> str:
    return (await _strings(request, "code"))[0]


async def _language(request: Request) -> str:
    """The language the page shows, sent with Run and Submit (``lang``; English when absent), in which the report
    is written: one of :data:`LANGUAGES`, else a 400 (called after :func:`_strings` has read a JSON object)."""
    lang = json.loads(await request.body()).get("lang", "en")
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise HTTPException(400, said(request, "serve_bad_lang", known=", ".join(LANGUAGES)))
    return lang


async def save_code(request: Request) -> JSONResponse:
    problem = _problem(request)
    store.save_draft(problem.slug, await _code(request))
    return JSONResponse({"saved": True})


async def start_judging(request: Request) -> JSONResponse:
    problem = _problem(request)
    mode, case = request.path_params["mode"], None
    if mode == CUSTOM_MODE:  # the samples' Run, on the learner's case instead
        (code, case), mode = await _strings(request, "code", "case", key="serve_bad_case_body"), "run"
    elif mode in MODES:
        code = await _code(request)
    else:
        raise HTTPException(404, said(request, "serve_not_found"))
    lang = await _language(request)
    if case is not None:
        try:
            check_case(problem, case)
        except BadInput as exc:  # the learner's own input: a bad request, in the command line's words and language
            raise HTTPException(400, exc.said_in(lang)) from None
    store.save_draft(problem.slug, code)
    site: Site = request.app.state.site
    try:
        job = site.judging.start(problem, mode, code, case, lang)
    except AlreadyJudging as busy:
        return JSONResponse({"job": busy.job.id, "error": messages.say_in(lang, "serve_already_judging",
                                                                          slug=problem.slug)}, status_code=409)
    return JSONResponse({"job": job.id}, status_code=202)


async def sample_case(request: Request) -> JSONResponse:
    """Sample case N's file as text (``{"case": ...}``), to paste into Custom input as it is: samples are public,
    and the fields only the judge uses are ignored there (:func:`judge.package.cases.load_own_case`)."""
    samples = _problem(request).samples
    number = request.path_params["number"]
    if not number.isdigit() or not 1 <= int(number) <= len(samples):
        raise HTTPException(404, said(request, "serve_not_found"))
    return JSONResponse({"case": samples[int(number) - 1].path.read_text(encoding="utf-8")})


def _job(request: Request) -> Job:
    site: Site = request.app.state.site
    job = site.judging.job(request.path_params["job"])
    if job is None:
        raise HTTPException(404, said(request, "serve_no_job"))
    return job


async def job_events(request: Request) -> StreamingResponse:
    job = _job(request)

    async def stream() -> AsyncIterator[str]:
        async for event in job.follow():
            yield f"data: {json.dumps(event)}\n\n"

    return StreamingResponse(stream(), media_type="text/event-stream", headers={"cache-control": "no-store"})


async def job_state(request: Request) -> JSONResponse:
    job = _job(request)
    return JSONResponse({"job": job.id, "finished": job.finished, "events": job.events})


async def stop_job(request: Request) -> JSONResponse:
    """The Stop button: the job's workers are killed and it ends with ``stopped`` (its events say when)."""
    job = _job(request)
    if job.finished:
        return JSONResponse({"job": job.id, "error": said(request, "serve_already_finished")}, status_code=409)
    site: Site = request.app.state.site
    site.judging.stop(job)
    return JSONResponse({"job": job.id}, status_code=202)


async def verdicts_stylesheet(request: Request) -> Response:
    """The verdicts' colours, written from the one verdict table (:mod:`judge.report.style`), as every report's."""
    return Response(str(verdict_css()), media_type="text/css")


async def not_found(request: Request, exc: HTTPException) -> Response:
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)
    return page(request, "error.html.j2", status=exc.status_code, message=exc.detail)


async def bad_input(request: Request, exc: BadInput) -> Response:
    """A problem that cannot be shown (a broken package): its one-line message, never a traceback."""
    return await not_found(request, HTTPException(422, exc.said_in(page_language(request))))


def build_app(token: str, hosts: frozenset[str], cookie: str, graded: Path | None = None,
              judging: Judging | None = None, exact: bool = False) -> Guard:
    """The application behind its guard. ``judging`` defaults to a new one, warmed when the server starts;
    ``exact``: the class view's reports give hidden cases' figures as measured."""
    judging = judging or Judging()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        judging.warm()
        try:
            yield
        finally:
            judging.close()

    routes = [
        Route("/", problem_list),
        Route("/problems/{slug}", problem_page),
        Route("/problems/{slug}/history", history_page),
        Route("/problems/{slug}/attempts/{key}", attempt_page),
        Route("/api/problems/{slug}/code", save_code, methods=["POST"]),
        Route("/api/problems/{slug}/samples/{number}", sample_case),
        Route("/api/problems/{slug}/{mode}", start_judging, methods=["POST"]),
        Route("/api/jobs/{job}/events", job_events),
        Route("/api/jobs/{job}/stop", stop_job, methods=["POST"]),
        Route("/api/jobs/{job}", job_state),
        Route("/class/", class_overview),
        Route("/class/index.html", class_overview),
        Route("/class/students/{student}/report.html", class_student),
        Route("/static/verdicts.css", verdicts_stylesheet),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: not_found, BadInput: bad_input})
    app.state.site = Site(token, judging, graded, exact)
    return Guard(app, token, hosts, cookie)
