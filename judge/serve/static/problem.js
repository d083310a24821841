// The problem page: the editor (saved as you type, reset to the starter), Run / Submit / Run on a case of one's
// own, Stop, and live progress from server-sent events.
"use strict";
(function () {
  const token = document.querySelector('meta[name="judge-token"]').content;
  const slug = document.body.dataset.slug;
  const saved = document.getElementById("saved");
  const buttons = ["run", "submit", "run-custom", "reset-yes"].map((id) => document.getElementById(id));
  const stopButton = document.getElementById("stop");
  const progress = document.getElementById("progress");
  const result = document.getElementById("result");
  const caseInput = document.getElementById("case");
  let current = null;  // the job being followed
  const SAVE_DELAY_MS = 400;

  const editor = CodeMirror.fromTextArea(document.getElementById("code"), {
    mode: "python", lineNumbers: true, indentUnit: 4, tabSize: 4, indentWithTabs: false, matchBrackets: true,
    extraKeys: {
      Tab: (cm) => cm.somethingSelected() ? cm.indentSelection("add")
        : cm.replaceSelection(" ".repeat(cm.getOption("indentUnit")), "end"),
      "Shift-Tab": (cm) => cm.indentSelection("subtract"),
      "Ctrl-Enter": () => judge("run"),
    },
  });

  function post(path, body, extra) {
    return fetch(path, Object.assign({
      method: "POST", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", "X-Judge-Token": token },
    }, extra || {}));
  }

  // -- saving as the learner types -------------------------------------------------------------------------
  let timer = null;
  function showSaved(state) { saved.textContent = state; saved.className = "saved " + state; }
  function save(extra) {
    clearTimeout(timer);
    timer = null;
    return post(`/api/problems/${slug}/code`, { code: editor.getValue() }, extra)
      .then((r) => showSaved(r.ok ? "saved" : "not saved"), () => showSaved("not saved"));
  }
  editor.on("change", () => {
    clearTimeout(timer);
    showSaved("unsaved");
    timer = setTimeout(save, SAVE_DELAY_MS);
  });
  window.addEventListener("pagehide", () => { if (timer) save({ keepalive: true }); });

  // -- statement language ------------------------------------------------------------------------------------
  function showLanguage(lang) {
    document.querySelectorAll(".statement-text").forEach((el) => { el.hidden = el.lang !== lang; });
    document.querySelectorAll("button.lang").forEach((b) => b.classList.toggle("active", b.dataset.lang === lang));
    try { localStorage.setItem("judge-lang", lang); } catch (e) { /* private mode: not remembered */ }
  }
  document.querySelectorAll("button.lang").forEach((b) => b.addEventListener("click", () => showLanguage(b.dataset.lang)));
  let remembered = null;
  try { remembered = localStorage.getItem("judge-lang"); } catch (e) { /* ignore */ }
  showLanguage(document.getElementById("statement-" + remembered) ? remembered : "en");

  // -- reset to the starter, after a confirmation -------------------------------------------------------------
  const confirmBar = document.getElementById("reset-confirm");
  document.getElementById("reset").addEventListener("click", () => { confirmBar.hidden = false; });
  document.getElementById("reset-no").addEventListener("click", () => { confirmBar.hidden = true; });
  document.getElementById("reset-yes").addEventListener("click", () => {
    confirmBar.hidden = true;
    editor.setValue(document.getElementById("starter").value);
    save();
  });

  // -- result and custom-input tabs ----------------------------------------------------------------------------
  function showTab(panel) {
    document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.dataset.panel === panel));
    document.querySelectorAll(".panel").forEach((p) => { p.hidden = p.id !== panel; });
  }
  document.querySelectorAll(".tab").forEach((t) => t.addEventListener("click", () => showTab(t.dataset.panel)));
  const caseKey = "judge-case-" + slug;
  try { caseInput.value = localStorage.getItem(caseKey) || ""; } catch (e) { /* private mode: not remembered */ }
  caseInput.addEventListener("input", () => {
    try { localStorage.setItem(caseKey, caseInput.value); } catch (e) { /* ignore */ }
  });

  // -- judging -----------------------------------------------------------------------------------------------
  function busy(on) {
    buttons.forEach((b) => { b.disabled = on; });
    stopButton.disabled = !on;
    if (!on) current = null;
  }
  function chip(text, verdict) {
    const el = document.createElement("span");
    el.className = "case " + verdict;
    el.textContent = text;
    el.title = verdict;
    return el;
  }
  function handle(event) {
    if (event.type === "start") {
      progress.replaceChildren(...event.cases.map((c, i) =>
        chip(`${i + 1} ${c.hidden ? "hidden" : c.case.replace(/^sample\//, "")}`, i === 0 ? "running" : "pending")));
      result.replaceChildren();
    } else if (event.type === "case") {
      const el = progress.children[event.index];
      if (el) { el.className = "case " + (event.verdict || "not_run"); el.title = event.verdict || "not run"; }
      const next = progress.children[event.index + 1];
      if (next) next.className = "case running";
    } else if (event.type === "done") {
      result.innerHTML = event.html;  // rendered by the judge from its JSON report, escaped there
      if (event.warning) result.prepend(Object.assign(document.createElement("p"), { className: "error", textContent: event.warning }));
      result.dataset.verdict = event.verdict;
      if (event.report.mode === "submit" && event.verdict === "accepted") {
        const status = document.getElementById("status");
        status.textContent = "solved";
        status.className = "status solved";
      }
    } else if (event.type === "error") {
      result.replaceChildren(Object.assign(document.createElement("p"), { className: "error", textContent: event.message }));
    } else if (event.type === "stopped") {
      Array.from(progress.children).forEach((el) => {
        if (/pending|running/.test(el.className)) { el.className = "case stopped"; el.title = "stopped"; }
      });
      result.replaceChildren(Object.assign(document.createElement("p"), { className: "stopped", textContent: event.message }));
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
      handle({ type: "error", message: progress.dataset.lost });
    };
  }
  async function judge(mode) {
    if (buttons[0].disabled) return;
    busy(true);
    showTab("result-pane");
    clearTimeout(timer);
    timer = null;
    progress.replaceChildren();
    delete result.dataset.verdict;
    delete result.dataset.state;
    result.replaceChildren(Object.assign(document.createElement("p"), { textContent: progress.dataset[mode] }));
    const body = { code: editor.getValue() };
    if (mode === "custom") body.case = caseInput.value;
    let reply;
    try {
      reply = await post(`/api/problems/${slug}/${mode}`, body);
    } catch (e) {
      busy(false);
      handle({ type: "error", message: progress.dataset.lost });
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
    result.replaceChildren(Object.assign(document.createElement("p"), { textContent: progress.dataset.stopping }));
    post(`/api/jobs/${current}/stop`, {}).catch(() => handle({ type: "error", message: progress.dataset.lost }));
  });
  if (document.body.dataset.running) follow(document.body.dataset.running);
})();
