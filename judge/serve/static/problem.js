// The problem page: the editor (saved as you type), Run / Submit, and live progress from server-sent events.
"use strict";
(function () {
  const token = document.querySelector('meta[name="judge-token"]').content;
  const slug = document.body.dataset.slug;
  const saved = document.getElementById("saved");
  const buttons = [document.getElementById("run"), document.getElementById("submit")];
  const progress = document.getElementById("progress");
  const result = document.getElementById("result");
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

  // -- judging -----------------------------------------------------------------------------------------------
  function busy(on) { buttons.forEach((b) => { b.disabled = on; }); }
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
    }
  }
  function follow(job) {
    busy(true);
    const source = new EventSource(`/api/jobs/${job}/events`);
    source.onmessage = (message) => {
      const event = JSON.parse(message.data);
      handle(event);
      if (event.type === "done" || event.type === "error") { source.close(); busy(false); }
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
    clearTimeout(timer);
    timer = null;
    progress.replaceChildren();
    delete result.dataset.verdict;
    result.replaceChildren(Object.assign(document.createElement("p"), { textContent: progress.dataset[mode] }));
    let reply;
    try {
      reply = await post(`/api/problems/${slug}/${mode}`, { code: editor.getValue() });
    } catch (e) {
      busy(false);
      handle({ type: "error", message: progress.dataset.lost });
      return;
    }
    const body = await reply.json();
    showSaved("saved");
    if (reply.ok || reply.status === 409) follow(body.job);
    else { busy(false); handle({ type: "error", message: body.error }); }
  }
  buttons[0].addEventListener("click", () => judge("run"));
  buttons[1].addEventListener("click", () => judge("submit"));
  if (document.body.dataset.running) follow(document.body.dataset.running);
})();
