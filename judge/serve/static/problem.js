// The problem page: the editor (saved as you type, reset to the starter), Run / Submit / Run on a case of one's
// own, Stop, live progress from server-sent events, the result case by case (as LeetCode's Test Result tab), the
// splitter between editor and results, and the page's words in the statement's language.
"use strict";
(function () {
  const token = document.querySelector('meta[name="judge-token"]').content;
  const slug = document.body.dataset.slug;
  const labels = JSON.parse(document.body.dataset.labels);  // {lang: {key: text with {fields}}}
  const saved = document.getElementById("saved");
  const buttons = ["run", "submit", "run-custom", "reset-yes"].map((id) => document.getElementById(id));
  const stopButton = document.getElementById("stop");
  const progress = document.getElementById("progress");
  const result = document.getElementById("result");
  const caseInput = document.getElementById("case");
  const coding = document.getElementById("coding");
  let current = null;  // the job being followed
  let shown = null;  // the report on screen, whose cases the progress chips select
  let lang = "en";
  const SAVE_DELAY_MS = 400;

  const editor = CodeMirror.fromTextArea(document.getElementById("code"), {
    mode: "python", lineNumbers: true, indentUnit: 4, tabSize: 4, indentWithTabs: false, matchBrackets: true,
    lineWrapping: true,  // a long line wraps in view instead of running off the editor's right edge
    extraKeys: {
      Tab: (cm) => cm.somethingSelected() ? cm.indentSelection("add")
        : cm.replaceSelection(" ".repeat(cm.getOption("indentUnit")), "end"),
      "Shift-Tab": (cm) => cm.indentSelection("subtract"),
      "Ctrl-Enter": () => judge("run"),
    },
  });

  // -- words: every label of the page's own, in the language picked for the statement --------------------------
  function say(key, fields) {
    let text = (labels[lang] || {})[key] || labels.en[key];
    Object.entries(fields || {}).forEach(([name, value]) => { text = text.split(`{${name}}`).join(String(value)); });
    return text;
  }
  function applyLabels(root) {
    root.querySelectorAll("[data-label]").forEach((el) => { el.textContent = say(el.dataset.label, el.dataset); });
    root.querySelectorAll("[data-title]").forEach((el) => { el.title = say(el.dataset.title, el.dataset); });
  }
  function verdictName(verdict, tag) {  // a verdict's name in the page's language (null: not run), coloured
    return node(tag || "span", verdict || "", undefined, "verdict_" + (verdict || "not_run"));
  }
  function node(tag, className, text, label) {
    const el = document.createElement(tag);
    if (className) el.className = className;
    if (label) { el.dataset.label = label; el.textContent = say(label); } else if (text !== undefined) el.textContent = text;
    return el;
  }

  function post(path, body, extra) {  // ?lang=: the page's language, in which the site says what it refuses
    return fetch(`${path}?lang=${lang}`, Object.assign({
      method: "POST", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", "X-Judge-Token": token },
    }, extra || {}));
  }

  // -- saving as the learner types -------------------------------------------------------------------------
  let timer = null;
  function showSaved(state) {  // saved, unsaved or not_saved
    saved.dataset.label = "site_" + state;
    saved.textContent = say(saved.dataset.label);
    saved.className = "saved " + state;
  }
  function save(extra) {
    clearTimeout(timer);
    timer = null;
    return post(`/api/problems/${slug}/code`, { code: editor.getValue() }, extra)
      .then((r) => showSaved(r.ok ? "saved" : "not_saved"), () => showSaved("not_saved"));
  }
  editor.on("change", () => {
    clearTimeout(timer);
    showSaved("unsaved");
    timer = setTimeout(save, SAVE_DELAY_MS);
  });
  window.addEventListener("pagehide", () => { if (timer) save({ keepalive: true }); });

  // -- language: the statement's, and the page's words with it ---------------------------------------------------
  function showLanguage(chosen) {
    lang = chosen;
    document.documentElement.lang = chosen;
    document.querySelectorAll(".statement-text, .in-lang").forEach((el) => { el.hidden = el.lang !== chosen; });
    document.querySelectorAll("button.lang").forEach((b) => b.classList.toggle("active", b.dataset.lang === chosen));
    applyLabels(document);
    document.querySelectorAll("a.keeps-lang").forEach((a) => {  // the list and history pages, in this language
      const url = new URL(a.href);
      url.searchParams.set("lang", chosen);
      a.href = url.pathname + url.search;
    });
    try { localStorage.setItem("judge-lang", chosen); } catch (e) { /* private mode: not remembered */ }
  }
  document.querySelectorAll("button.lang").forEach((b) => b.addEventListener("click", () => showLanguage(b.dataset.lang)));
  let remembered = new URLSearchParams(location.search).get("lang");  // a link from a page shown in it first
  try { remembered = remembered || localStorage.getItem("judge-lang"); } catch (e) { /* ignore */ }
  showLanguage(document.getElementById("statement-" + remembered) ? remembered : "en");

  // -- the splitter between editor and results, its place kept per browser --------------------------------------
  const SPLIT_KEY = "judge-split";
  const MIN_EDITOR_PX = 80, MIN_RESULTS_PX = 120, SPLITTER_STEP_PX = 24;
  const splitter = document.getElementById("splitter");
  const editorBox = document.querySelector(".editor");
  function setEditorHeight(px, keep) {
    const room = coding.clientHeight - (editorBox.offsetTop - coding.offsetTop) - MIN_RESULTS_PX;
    const height = Math.round(Math.max(MIN_EDITOR_PX, Math.min(px, room)));
    coding.style.setProperty("--editor-height", height + "px");
    editor.refresh();
    if (keep) { try { localStorage.setItem(SPLIT_KEY, String(height)); } catch (e) { /* not remembered */ } }
  }
  let keptSplit = null;
  try { keptSplit = localStorage.getItem(SPLIT_KEY); } catch (e) { /* ignore */ }
  if (keptSplit && Number(keptSplit) > 0) setEditorHeight(Number(keptSplit), false);
  splitter.addEventListener("pointerdown", (down) => {
    down.preventDefault();
    splitter.setPointerCapture(down.pointerId);
    const top = editorBox.getBoundingClientRect().top;
    const move = (e) => setEditorHeight(e.clientY - top, false);
    const up = (e) => {
      splitter.removeEventListener("pointermove", move);
      splitter.removeEventListener("pointerup", up);
      setEditorHeight(e.clientY - top, true);
    };
    splitter.addEventListener("pointermove", move);
    splitter.addEventListener("pointerup", up);
  });
  splitter.addEventListener("keydown", (e) => {
    const step = { ArrowUp: -SPLITTER_STEP_PX, ArrowDown: SPLITTER_STEP_PX }[e.key];
    if (step) { e.preventDefault(); setEditorHeight(editorBox.clientHeight + step, true); }
  });

  // -- reset to the starter, after a confirmation -------------------------------------------------------------
  const confirmBar = document.getElementById("reset-confirm");
  document.getElementById("reset").addEventListener("click", () => { confirmBar.hidden = false; });
  document.getElementById("reset-no").addEventListener("click", () => { confirmBar.hidden = true; });
  document.getElementById("reset-yes").addEventListener("click", () => {
    confirmBar.hidden = true;
    editor.setValue(document.getElementById("starter").value);
    save();
  });

  // -- Testcase, Test Result and Custom input tabs ----------------------------------------------------------------
  function showTab(panel) {
    document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.dataset.panel === panel));
    document.querySelectorAll(".panel").forEach((p) => { p.hidden = p.id !== panel; });
  }
  document.querySelectorAll(".tab").forEach((t) => t.addEventListener("click", () => showTab(t.dataset.panel)));
  const caseKey = "judge-case-" + slug;
  try { caseInput.value = localStorage.getItem(caseKey) || ""; } catch (e) { /* private mode: not remembered */ }
  function keepCase() { try { localStorage.setItem(caseKey, caseInput.value); } catch (e) { /* ignore */ } }
  caseInput.addEventListener("input", keepCase);
  document.querySelectorAll(".sample-tab").forEach((tab) => tab.addEventListener("click", () => {
    document.querySelectorAll(".sample-tab").forEach((t) => t.setAttribute("aria-selected", String(t === tab)));
    document.querySelectorAll(".sample").forEach((s) => { s.hidden = s.dataset.sample !== tab.dataset.sample; });
  }));
  document.querySelectorAll(".use-sample").forEach((button) => button.addEventListener("click", () => {
    caseInput.value = button.parentElement.querySelector(".sample-json").value;
    keepCase();
    showTab("custom-pane");
  }));

  // -- one case of a report, as the Test Result tab shows it ---------------------------------------------------
  const shownValue = (v) => typeof v === "string" ? v : JSON.stringify(v);
  function figure(v) {  // an error or a tolerance, to 6 significant digits as the judge's reports show them
    if (v == null) return "-";
    if (typeof v !== "number" || Number.isInteger(v)) return shownValue(v);
    return v && (Math.abs(v) < 1e-3 || Math.abs(v) >= 1e7) ? v.toExponential(3) : String(Number(v.toPrecision(6)));
  }
  function differences(call) {
    const table = node("table", "diff");
    const head = table.insertRow();
    ["report_field", "report_got", "report_expected", "report_error", "report_tolerance"]
      .forEach((h) => head.appendChild(node("th", "", undefined, h)));
    call.differences.forEach((d) => {
      const row = table.insertRow();
      [d.field, shownValue(d.got), shownValue(d.expected), figure(d.error), figure(d.tolerance)]
        .forEach((v) => { row.insertCell().textContent = v; });
    });
    return table;
  }
  function block(label, text, className) {
    const box = node("div", "value");
    box.append(node("h5", "", undefined, label), node("pre", className || "", text));
    return box;
  }
  function renderCall(call) {
    const parts = [];
    const title = node("h4");
    title.append(node("code", "", call.method), ": ", verdictName(call.verdict));
    parts.push(title);
    if (call.differences && call.differences.length) parts.push(differences(call));
    if (call.format_error) {
      const f = call.format_error;
      parts.push(node("p", "", say("report_format_error", { field: f.field, got: f.got, expected: f.expected })));
    }
    (call.hints || []).forEach((h) => {
      const hint = node("p", "hint");
      hint.append(node("strong", "", undefined, "site_hint"), ` (${h.pitfall}): ${h.text}`);
      parts.push(hint);
    });
    if (call.error) parts.push(node("pre", "error-trace", `${call.error.exc}: ${call.error.msg}\n${call.error.trace || ""}`));
    if (call.got !== undefined && call.expected == null) parts.push(block("site_returned", shownValue(call.got), "returned"));
    else if (call.got !== undefined) {
      const pair = node("div", "values" + (call.verdict === "accepted" ? " passed" : ""));
      pair.append(block("site_output", shownValue(call.got), "returned"), block("site_expected", shownValue(call.expected)));
      parts.push(pair);
    }
    if (call.stdout) parts.push(block("site_printed", call.stdout, "printed"));
    return parts;
  }
  function renderCase(test, index) {
    const x = test.extra_data;
    const title = node("h3");
    const number = node("span", "", undefined, "site_case");
    number.dataset.n = index + 1;
    number.textContent = say("site_case", { n: index + 1 });
    title.append(number, " · ", node("code", "", x.case), " · ", verdictName(x.verdict));
    const parts = [title];
    if (x.hidden || x.not_run || !x.calls) {
      const why = node("p", "", test.output);
      if (x.hidden) { why.dataset.label = "site_hidden_case"; why.dataset.why = test.output; why.textContent = say("site_hidden_case", { why: test.output }); }
      parts.push(why);
      return parts;
    }
    x.calls.forEach((call) => parts.push(...renderCall(call)));
    if (x.inputs) {
      const inputs = node("ul", "inputs");
      x.inputs.forEach((line) => inputs.appendChild(node("li")).appendChild(node("code", "", line)));
      parts.push(node("h4", "", undefined, "site_input"), inputs);
    }
    return parts;
  }
  function selectCase(index) {
    if (!shown || !shown.tests[index]) return;
    Array.from(progress.children).forEach((chip, i) => chip.setAttribute("aria-selected", String(i === index)));
    document.getElementById("case-view").replaceChildren(...renderCase(shown.tests[index], index));
  }
  function showReport(event) {
    const report = event.report;
    shown = report;
    const line = node("p", "verdict-line");
    const passed = node("span");
    passed.dataset.label = "site_passed";
    Object.assign(passed.dataset, { passed: report.passed, total: report.total, seconds: report.execution_time.toFixed(2) });
    passed.textContent = say("site_passed", passed.dataset);
    const verdict = verdictName(event.verdict, "strong");
    line.append(verdict, " · ", passed);
    const parts = [line];
    const startup = report.judge.startup_error;
    if (startup) parts.push(node("pre", "error-trace", `${startup.exc}: ${startup.msg}\n${startup.trace || ""}`));
    if (report.judge.judge_error) parts.push(node("p", "error", report.judge.judge_error));
    const view = node("div", "case-view");
    view.id = "case-view";
    const full = node("details", "full-report");
    const fragment = node("div");
    fragment.innerHTML = event.html;  // rendered by the judge from its JSON report, escaped there
    full.append(node("summary", "", undefined, "site_full_report"), fragment);
    parts.push(view, full);
    result.replaceChildren(...parts);
    const failing = report.tests.findIndex((t) => t.status === "failed");
    selectCase(failing < 0 ? 0 : failing);
  }

  // -- judging -----------------------------------------------------------------------------------------------
  function busy(on) {
    buttons.forEach((b) => { b.disabled = on; });
    stopButton.disabled = !on;
    if (!on) current = null;
  }
  function chip(index, name, verdict) {
    const el = node("button", "case " + verdict);
    el.type = "button";
    el.dataset.label = "site_case";
    el.dataset.n = index + 1;
    el.textContent = say("site_case", { n: index + 1 });
    el.title = name;
    el.addEventListener("click", () => selectCase(index));
    return el;
  }
  function handle(event) {
    if (event.type === "start") {
      shown = null;
      progress.replaceChildren(...event.cases.map((c, i) =>
        chip(i, c.hidden ? say("site_hidden") : c.case, i === 0 ? "running" : "pending")));
      result.replaceChildren();
    } else if (event.type === "case") {
      const el = progress.children[event.index];
      if (el) el.className = "case " + (event.verdict || "not_run");
      const next = progress.children[event.index + 1];
      if (next) next.className = "case running";
    } else if (event.type === "done") {
      showReport(event);
      if (event.warning) result.prepend(node("p", "error", event.warning));
      result.dataset.verdict = event.verdict;
      if (event.report.mode === "submit" && event.verdict === "accepted") {
        const status = document.getElementById("status");
        status.dataset.label = "status_solved";
        status.textContent = say("status_solved");
        status.className = "status solved";
      }
    } else if (event.type === "error") {
      result.replaceChildren(node("p", "error", event.message));
    } else if (event.type === "stopped") {
      Array.from(progress.children).forEach((el) => {
        if (/pending|running/.test(el.className)) el.className = "case stopped";
      });
      result.replaceChildren(node("p", "stopped", event.message));
      result.dataset.state = "stopped";
    }
  }
  const LAST = ["done", "error", "stopped"];
  function follow(job) {
    busy(true);
    current = job;
    const source = new EventSource(`/api/jobs/${job}/events`);
    source.onmessage = (message) => {
      const event = JSON.parse(message.data);
      handle(event);
      if (LAST.includes(event.type)) { source.close(); busy(false); }
    };
    source.onerror = () => {
      source.close();
      busy(false);
      handle({ type: "error", message: say("serve_lost") });
    };
  }
  const PROGRESS = { run: "serve_running", submit: "serve_submitting", custom: "serve_custom_running" };
  async function judge(mode) {
    if (buttons[0].disabled) return;
    busy(true);
    showTab("result-pane");
    clearTimeout(timer);
    timer = null;
    progress.replaceChildren();
    delete result.dataset.verdict;
    delete result.dataset.state;
    result.replaceChildren(node("p", "", undefined, PROGRESS[mode]));
    const body = { code: editor.getValue(), lang: lang };  // the report is written in the page's language
    if (mode === "custom") body.case = caseInput.value;
    let reply;
    try {
      reply = await post(`/api/problems/${slug}/${mode}`, body);
    } catch (e) {
      busy(false);
      handle({ type: "error", message: say("serve_lost") });
      return;
    }
    const answer = await reply.json();
    if (reply.ok || reply.status === 409) { showSaved("saved"); follow(answer.job); }
    else { busy(false); handle({ type: "error", message: answer.error }); save(); }  // refused: keep the code
  }
  buttons[0].addEventListener("click", () => judge("run"));
  buttons[1].addEventListener("click", () => judge("submit"));
  buttons[2].addEventListener("click", () => judge("custom"));
  stopButton.addEventListener("click", () => {
    if (!current) return;
    stopButton.disabled = true;
    result.replaceChildren(node("p", "", undefined, "serve_stopping"));
    post(`/api/jobs/${current}/stop`, {}).catch(() => handle({ type: "error", message: say("serve_lost") }));
  });
  if (document.body.dataset.running) follow(document.body.dataset.running);
})();
