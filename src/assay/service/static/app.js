// Assay's page: plain JavaScript, no dependencies, every asset from this server.
// Data is only ever put into the page as text (textContent), never as HTML.
"use strict";
(function () {
  const csrf = document.querySelector('meta[name="assay-csrf"]').content;
  const tokensRequired = document.querySelector('meta[name="assay-tokens"]').content === "required";
  const form = document.getElementById("ask-form");
  const input = document.getElementById("question");
  const select = document.getElementById("database");
  const status = document.getElementById("status");
  const answers = document.getElementById("answers");
  const template = document.getElementById("answer-template");
  const tokenBox = document.getElementById("token-box");
  const tokenInput = document.getElementById("token");
  let counter = 0;

  const PLAIN = {
    "score.below_show": "the evidence is not strong enough to show it without a warning",
    "score.below_warn": "the evidence is too weak to show it",
    "chow.below_threshold": "the calibrated chance of being right is below what the cost of a wrong answer allows",
    "behaviour.ambiguous_metric": "a word in the question has more than one definition here",
    "behaviour.ambiguous_name": "a word in the question names more than one thing here",
    "behaviour.period_outside_coverage": "the period asked about is outside the data",
    "behaviour.value_not_in_domain": "a value asked about is not one the data records",
    "behaviour.retired_column": "the question needs a retired column",
    "behaviour.concept_missing": "the question asks for something the data does not define",
    "behaviour.follow_up_unclear": "the follow-up could not be put together with the previous question for certain",
    "intent.write": "the question asks to change data, and Assay only reads",
    "intent.injection": "the question carries instructions, and Assay does not follow them",
    "route.unconfirmed_fact": "the answer rests on a fact of the layer that nobody has confirmed yet (assay catalog accept confirms it)",
    "route.below_confirm": "the evidence for the answer is too weak to give it without a confirmation",
    "route.below_refuse": "the evidence for the answer is too weak to give it",
    "route.execution_failed": "the query could not be run",
    "route.forcing_pii": "the answer would show personal data of a protected kind",
  };

  // What /api/semantic said, once it has answered (it is refused until a token is entered when
  // the server requires one: entering the token loads it then, with no reload).
  let catalogue = null;

  if (tokensRequired) {
    tokenBox.hidden = false;
    tokenInput.value = sessionStorage.getItem("assay-token") || "";
    tokenInput.addEventListener("change", () => {
      sessionStorage.setItem("assay-token", tokenInput.value);
      if (!catalogue && tokenInput.value) loadSemantic();
    });
  }

  function headers() {
    const h = { "Content-Type": "application/json", "X-CSRF-Token": csrf };
    if (tokensRequired && tokenInput.value) h["Authorization"] = "Bearer " + tokenInput.value;
    return h;
  }

  async function call(method, path, body) {
    const response = await fetch(path, {
      method: method,
      headers: headers(),
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data;
    try { data = await response.json(); } catch (e) { data = { ok: false, error: { message: "The server's reply was not JSON." } }; }
    if (!response.ok || data.ok === false) {
      const err = data.error || {};
      throw new Error((err.message || "The request failed.") + (err.hint ? " " + err.hint : ""));
    }
    return data;
  }

  function el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }

  async function loadSemantic() {
    try {
      const data = await call("GET", "/api/semantic");
      if (catalogue) return;  // loaded meanwhile (a token entered while the page was loading)
      catalogue = data.databases;
      const keys = Object.keys(catalogue);
      for (const key of keys) {
        const option = el("option", key);
        option.value = key;
        select.appendChild(option);
      }
      const several = keys.length > 1;
      select.hidden = !several;
      document.getElementById("database-label").hidden = !several;
      select.addEventListener("change", showExamples);
      showExamples();
      status.textContent = "";
    } catch (e) {
      status.textContent = e.message;
    }
  }

  // A whole year the data covers (the latest), or null: an example asks only what can be
  // answered (a year outside the data is abstained on, and a layer without dates has none).
  function exampleYear(coverage) {
    if (!coverage || coverage.length < 2) return null;
    const start = String(coverage[0]).slice(0, 10), end = String(coverage[1]).slice(0, 10);
    const first = Number(start.slice(0, 4)) + (start.slice(5) === "01-01" ? 0 : 1);
    const last = Number(end.slice(0, 4)) - (end.slice(5) === "12-31" ? 0 : 1);
    return last >= first ? last : null;
  }

  // The examples of the database chosen (the first when there is one).
  function showExamples() {
    const key = select.hidden ? Object.keys(catalogue)[0] : select.value;
    const layer = catalogue[key];
    const examples = document.getElementById("examples");
    examples.replaceChildren();
    if (!layer) return;
    const year = exampleYear(layer.coverage);
    examples.appendChild(el("span", "You can ask about: "));
    for (const metric of layer.metrics.slice(0, 8)) {
      const b = el("button", metric.label);
      b.type = "button";
      const question = "What was the " + metric.label + (year === null ? "?" : " in " + year + "?");
      b.addEventListener("click", () => { input.value = question; input.focus(); });
      examples.appendChild(b);
    }
  }

  // ``database``: the database of the answer asked from (a follow-up, a choice), else the one
  // chosen in the list.
  async function ask(question, followUpOf, database) {
    if (!catalogue) await loadSemantic();  // a token entered, the list not yet loaded
    status.textContent = "Asking…";
    const body = { question: question };
    if (database) body.database = database;
    else if (!select.hidden && select.value) body.database = select.value;
    if (followUpOf) body.follow_up_of = followUpOf;
    try {
      const data = await call("POST", "/api/ask", body);
      status.textContent = "";
      const card = render(data, question);
      answers.prepend(card);
      card.focus();
    } catch (e) {
      status.textContent = "Error: " + e.message;
    }
  }

  function isNumber(v) { return typeof v === "number" && isFinite(v); }

  function render(data, typed) {
    counter += 1;
    const id = "a" + counter;
    const v = data.verdict;
    const p = v.provenance || {};
    const node = template.content.firstElementChild.cloneNode(true);
    node.id = id;
    node.dataset.verdict = v.id;
    const q = (sel) => node.querySelector('[data-role="' + sel + '"]');
    const badge = q("badge");
    badge.textContent = data.badge;
    badge.className = "badge badge-" + data.badge.replace(/\s+/g, "-");
    badge.setAttribute("aria-label", "Verdict: " + data.badge);
    q("asked").textContent = p.question || typed;

    if (data.follow_up) {
      const f = data.follow_up;
      const note = q("follow");
      note.hidden = false;
      let text = "Follow-up of “" + f.previous + "”. ";
      if (f.inherited.length) text += "Kept: " + f.inherited.join("; ") + ". ";
      if (f.replaced.length) text += "Changed: " + f.replaced.join("; ") + ". ";
      if (f.not_kept) text += "Nothing of it was kept: " + f.not_kept + ". ";
      if (f.unclear) text += "Not put together with it (asked back below). ";
      else text += "Asked as: “" + f.question + "”.";
      note.textContent = text;
    }
    if (data.reading) q("reading").textContent = data.reading;
    else q("reading-box").hidden = true;

    const result = v.result;
    const cited = new Set();
    const textBox = q("text");
    if (v.behaviour !== "answer") {
      textBox.textContent = p.message || "";
    } else if (v.action === "withhold") {
      // Fail closed: a withheld answer's text and numbers are never put on the page.
      textBox.textContent = "The answer is withheld: Assay could not vouch for it (the reasons are below).";
    } else {
      writeCited(textBox, v.text || "", p.citations || [], id, cited);
    }

    const reasons = q("reasons");
    const findings = v.findings || [];
    for (const code of v.reasons || []) {
      const finding = findings.find((f) => f.code === code);
      const words = finding ? finding.message : PLAIN[code];
      // A code with no words of its own is said once, not twice ("route.x (route.x)").
      const li = el("li", "Because: " + (words ? words + " (" + code + ")" : code));
      reasons.appendChild(li);
    }
    for (const f of findings) {
      if (f.kind === "note" || (v.reasons || []).includes(f.code)) continue;
      reasons.appendChild(el("li", f.message + " (" + f.code + ")", "note"));
    }

    const choices = q("choices");
    if (data.choices && data.choices.length) {
      choices.hidden = false;
      choices.appendChild(el("span", "Did you mean:"));
      for (const c of data.choices) {
        const b = el("button", c.label);
        b.type = "button";
        b.className = "choice";
        b.addEventListener("click", () => ask(c.question, null, data.database));
        choices.appendChild(b);
      }
    }

    if (result && v.behaviour === "answer" && v.action !== "withhold") {
      q("table").appendChild(table(result, id, cited));
      const chart = drawChart(result, p);
      if (chart) q("chart").appendChild(chart);
    }
    if (v.sql) q("sql").textContent = v.sql; else q("sql-box").hidden = true;
    const policy = data.policy || {};
    const decided = v.behaviour !== "answer" ? "the behaviour rules (before any query); gate policy " :
      (policy.kind === "chow" ? "Chow's rule on the calibrated probability: " : "the fixed thresholds: ");
    q("policy").textContent = "Decided by " + decided + (policy.name || "") + " · rule " + v.rule.name +
      " " + v.rule.version + " · verdict " + v.id;

    q("follow-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = q("follow-input").value.trim();
      if (text) ask(text, v.id, data.database);
    });
    feedbackForm(q("feedback"), v.id);
    return node;
  }

  function writeCited(box, text, citations, id, cited) {
    let cursor = 0;
    for (const c of citations) {
      const at = text.indexOf(c.text, cursor);
      if (at < 0) continue;
      box.appendChild(document.createTextNode(text.slice(cursor, at)));
      const a = el("a", c.text, "cite");
      const target = id + "-r" + c.row + "-c" + c.column;
      a.href = "#" + target;
      a.title = "row " + (c.row + 1) + ", column " + (c.column + 1);
      a.addEventListener("click", (event) => {
        event.preventDefault();
        const cell = document.getElementById(target);
        if (cell) { cell.classList.add("flash"); cell.focus(); setTimeout(() => cell.classList.remove("flash"), 1500); }
      });
      box.appendChild(a);
      cited.add(target);
      cursor = at + c.text.length;
    }
    box.appendChild(document.createTextNode(text.slice(cursor)));
  }

  function table(result, id, cited) {
    const t = el("table");
    const head = el("tr");
    for (const c of result.columns) { const th = el("th", c); th.scope = "col"; head.appendChild(th); }
    const thead = el("thead"); thead.appendChild(head); t.appendChild(thead);
    const tbody = el("tbody");
    result.rows.forEach((row, r) => {
      const tr = el("tr");
      row.forEach((value, c) => {
        const shown = value === null ? "—" : (isNumber(value) ? value.toLocaleString("en-US", { maximumFractionDigits: 2 }) : String(value).replace(/T00:00:00$/, ""));
        const td = el("td", shown);
        td.id = id + "-r" + r + "-c" + c;
        td.tabIndex = -1;
        if (isNumber(value)) td.classList.add("num");
        if (cited.has(td.id)) td.classList.add("cited");
        tr.appendChild(td);
      });
      tbody.appendChild(tr);
    });
    t.appendChild(tbody);
    if (result.truncated) {
      const cap = el("caption", "Showing " + result.rows.length + " of " + result.row_count + " rows");
      t.prepend(cap);
    }
    return t;
  }

  // A chart when people would rather look than read: a line over time, bars for a breakdown.
  function drawChart(result, p) {
    const rows = result.rows;
    if (result.columns.length !== 2 || rows.length < 2) return null;
    if (!rows.every((r) => isNumber(r[1]))) return null;
    const line = Boolean(p.grain);
    const NS = "http://www.w3.org/2000/svg";
    const W = 640, H = 260, L = 70, R = 10, T = 10, B = 50;
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    svg.setAttribute("role", "img");
    svg.setAttribute("class", line ? "chart-line" : "chart-bars");
    svg.setAttribute("aria-label", (line ? "Line chart" : "Bar chart") + " of " + result.columns[1] + " by " + result.columns[0]);
    const values = rows.map((r) => r[1]);
    const max = Math.max(0, ...values), min = Math.min(0, ...values);
    const span = max - min || 1;
    const y = (v) => T + (H - T - B) * (1 - (v - min) / span);
    const step = (W - L - R) / rows.length;
    const add = (tag, attrs, text) => {
      const n = document.createElementNS(NS, tag);
      for (const k in attrs) n.setAttribute(k, attrs[k]);
      if (text !== undefined) n.textContent = text;
      svg.appendChild(n);
      return n;
    };
    add("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), stroke: "#9aa4b1" });
    add("text", { x: L - 6, y: y(max) + 4, "text-anchor": "end" }, max.toLocaleString("en-US", { maximumFractionDigits: 0 }));
    const label = (v) => String(v).replace(/T00:00:00$/, "").slice(0, 10);
    if (line) {
      const pts = rows.map((r, i) => (L + step * (i + 0.5)) + "," + y(r[1])).join(" ");
      add("polyline", { points: pts, fill: "none", stroke: "#2a4d8f", "stroke-width": 2.5 });
      rows.forEach((r, i) => add("circle", { cx: L + step * (i + 0.5), cy: y(r[1]), r: 3, fill: "#2a4d8f" }, undefined).appendChild(document.createElementNS(NS, "title")).textContent = label(r[0]) + ": " + r[1]);
    } else {
      rows.forEach((r, i) => {
        const top = Math.min(y(r[1]), y(0)), h = Math.abs(y(r[1]) - y(0));
        const bar = add("rect", { x: L + step * i + step * 0.15, y: top, width: step * 0.7, height: h, fill: "#2a4d8f" });
        bar.appendChild(document.createElementNS(NS, "title")).textContent = label(r[0]) + ": " + r[1];
      });
    }
    const every = Math.ceil(rows.length / 8);
    rows.forEach((r, i) => {
      if (i % every === 0) add("text", { x: L + step * (i + 0.5), y: H - B + 16, "text-anchor": "middle" }, label(r[0]));
    });
    return svg;
  }

  function feedbackForm(box, verdictId) {
    let label = null;
    const buttons = box.querySelectorAll("button[data-label]");
    buttons.forEach((b) => b.addEventListener("click", () => {
      label = Number(b.dataset.label);
      buttons.forEach((o) => o.setAttribute("aria-pressed", String(o === b)));
    }));
    box.addEventListener("submit", async (event) => {
      event.preventDefault();
      const thanks = box.querySelector('[data-role="thanks"]');
      if (label === null) { thanks.textContent = "Choose right or wrong first."; return; }
      try {
        await call("POST", "/api/feedback", { verdict_id: verdictId, label: label, comment: box.querySelector('[data-role="comment"]').value });
        thanks.textContent = "Thank you: recorded.";
      } catch (e) {
        thanks.textContent = "Error: " + e.message;
      }
    });
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text) ask(text, null);
  });
  loadSemantic();
})();
