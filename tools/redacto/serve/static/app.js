// Redacto review page. Talks only to the server that served it (the CSP allows nothing
// else). Document text is only ever put into the page with textContent, never as HTML.
"use strict";

const base = location.pathname.replace(/\/+$/, "");
const $ = (id) => document.getElementById(id);
const state = { job: null, kind: "redact", source: null, page: null, review: null, words: new Map(), reviewing: false };
const ACCEPT = { redact: ".png,.jpg,.jpeg,.webp,.pdf,.txt,.md", proofread: ".png,.jpg,.jpeg,.webp,.pdf" };

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

async function api(path, options = {}) {
  const response = await fetch(base + path, { credentials: "same-origin", ...options });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

function notice(text) { $("notice").textContent = text || ""; }

// -- uploading ---------------------------------------------------------------------------

function chosenTask() { return document.querySelector('input[name="task"]:checked').value; }

async function upload(file) {
  notice("Uploading " + file.name + "…");
  try {
    const body = await api(chosenTask() === "proofread" ? "/api/proofread" : "/api/jobs", {
      method: "POST",
      headers: { "X-File-Name": encodeURIComponent(file.name), "Content-Type": "application/octet-stream" },
      body: file,
    });
    notice("");
    attach(body.id);
  } catch (error) {
    notice("Not accepted: " + error.message);
  }
}

for (const radio of document.querySelectorAll('input[name="task"]')) {
  radio.addEventListener("change", () => { $("file").accept = ACCEPT[chosenTask()]; });
}
$("file").addEventListener("change", (event) => {
  const file = event.target.files[0];
  if (file) upload(file);
  event.target.value = "";
});
document.addEventListener("dragover", (event) => { event.preventDefault(); $("drop").classList.add("over"); });
document.addEventListener("dragleave", () => $("drop").classList.remove("over"));
document.addEventListener("drop", (event) => {
  event.preventDefault();
  $("drop").classList.remove("over");
  const file = event.dataTransfer.files[0];
  if (file) upload(file);
});

// -- following a job ---------------------------------------------------------------------

function reset() {
  state.page = null; state.review = null; state.words.clear(); state.reviewing = false; state.kind = "redact";
  $("pages").replaceChildren(); $("pages").classList.remove("reviewing", "approved", "proofreading");
  $("proofread").hidden = true; $("mistakes").replaceChildren(); $("not-located").replaceChildren();
  $("proofread-verdict").textContent = ""; document.querySelector('#steps li[data-step="5"]').hidden = true;
  $("text").hidden = true; $("text").replaceChildren(); $("selection").hidden = true;
  $("review").hidden = true; $("result").hidden = true; $("failure").hidden = true;
  $("queue").hidden = true; $("count").textContent = "";
  for (const li of document.querySelectorAll("#steps li")) { li.className = ""; li.querySelector("span").textContent = ""; }
}

function attach(id) {
  if (state.source) state.source.close();
  reset();
  state.job = id;
  history.replaceState(null, "", "#job=" + id);
  $("drop").hidden = true;
  const source = new EventSource(base + "/api/jobs/" + id + "/events");
  state.source = source;
  const on = (name, handler) => source.addEventListener(name, (event) => handler(JSON.parse(event.data)));
  on("queued", (data) => {
    $("job-title").textContent = data.name;
    if (data.kind === "proofread") startProofread();
    $("queue").hidden = false;
    $("queue").textContent = data.place === 1 ? "Waiting: next in line for the model." : "Waiting: place " + data.place + " in line for the model.";
  });
  on("started", () => { $("queue").hidden = true; notice("Reading the input…"); });
  on("page", showPage);
  on("step", showStep);
  on("review", showReview);
  on("delta", (delta) => { if (state.review && state.review.edits === delta.base) showReview(applyDelta(state.review, delta)); });
  on("approved", showApproved);
  on("discarded", () => { stopReviewing(); $("failure").hidden = false; $("failure").textContent = "Discarded: nothing was written."; });
  on("failed", showFailure);
  on("stage", showStage);
  on("mistake", showMistake);
  on("proofread", showProofread);
  on("end", () => source.close());
  source.onerror = () => { if (source.readyState === EventSource.CLOSED) refreshJobs(); };
  refreshJobs();
}

function showPage(page) {
  state.page = page;
  notice("");
  if (page.mode === "text") { drawText(); return; }
  const holder = $("pages");
  for (const info of page.pages) {
    const frame = el("div", null, "page");
    frame.dataset.page = info.number;
    const img = el("img");
    img.alt = "page " + (info.number + 1);
    img.src = base + "/api/jobs/" + state.job + "/page/" + info.number + ".png";
    img.addEventListener("error", () => frame.replaceChildren(el("p", "This page is no longer kept.", "hint")));
    frame.append(img);
    holder.append(frame);
  }
  const frames = holder.querySelectorAll(".page");
  for (const word of page.words) {
    const info = page.pages[word.page];
    const node = el("div", null, "word");
    const [x0, y0, x1, y1] = word.box;
    node.style.left = (100 * x0 / info.width) + "%";
    node.style.top = (100 * y0 / info.height) + "%";
    node.style.width = (100 * (x1 - x0) / info.width) + "%";
    node.style.height = (100 * (y1 - y0) / info.height) + "%";
    node.dataset.index = word.i;
    node.addEventListener("click", () => toggleWord(word.i));
    frames[word.page].append(node);
    state.words.set(word.i, { node, text: word.t });
  }
}

function showStep(step) {
  notice("");
  for (const li of document.querySelectorAll("#steps li")) {
    const number = Number(li.dataset.step);
    if (number < step.number && !li.classList.contains("done")) li.className = "done";
  }
  const li = document.querySelector('#steps li[data-step="' + step.number + '"]');
  li.className = step.phase === "end" ? "done" : "running";
  li.querySelector("span").textContent = step.line;
  if (step.index !== null && state.words.has(step.index)) {
    const word = state.words.get(step.index).node;
    if (!word.classList.contains("redacted")) {
      word.classList.add("redacted", "live");
      const count = document.querySelectorAll(".word.redacted").length;
      $("count").textContent = count + (state.kind === "proofread" ? " word(s) hidden from the proofreader so far" : " boxes so far");
    }
  }
}

function drawText() {
  const pre = $("text");
  pre.hidden = false;
  pre.replaceChildren();
  const text = state.page.text;
  const marks = state.review ? state.review.marks : [];
  const checks = state.review ? state.review.to_check.filter((word) => !word.hidden) : [];
  let at = 0;
  const plain = (start, end) => { const span = el("span", text.slice(start, end)); span.dataset.start = start; pre.append(span); };
  // Readable text, with each word no reader could explain outlined (its own span, so a
  // selection's offsets still count from dataset.start).
  const piece = (start, end) => {
    let from = start;
    for (const word of checks) {
      if (word.start < from || word.end > end) continue;
      if (word.start > from) plain(from, word.start);
      const span = el("span", text.slice(word.start, word.end), "to-check");
      span.dataset.start = word.start;
      span.title = "No reader could explain this word (" + word.kind + "): check it";
      pre.append(span);
      from = word.end;
    }
    if (from < end) plain(from, end);
  };
  for (const mark of marks) {
    if (mark.start > at) piece(at, mark.start);
    const node = el("mark", text.slice(mark.start, mark.end), mark.source);
    node.dataset.start = mark.start;
    node.title = mark.placeholder + " (" + mark.source + ") — click to unredact";
    node.addEventListener("click", () => edit({ action: "remove", start: mark.start, end: mark.end }));
    pre.append(node);
    at = mark.end;
  }
  if (at < text.length) piece(at, text.length);
}

function showReview(review) {
  state.review = review;
  state.reviewing = true;
  notice("");
  for (const li of document.querySelectorAll("#steps li")) li.className = "done";
  $("review").hidden = false;
  $("verdict").textContent = review.status + " · " + review.category + (review.document_type ? " · " + review.document_type : "") + " · " + review.rounds + " round(s)";
  $("verdict").className = review.status;
  fill($("reasons"), review.reasons.map((reason) => el("li", reason)));
  $("check").hidden = !review.to_check.length;
  fill($("to-check"), review.to_check.map((word) => {
    const li = el("li", word.value + " ");
    li.append(el("span", word.kind + (word.hidden ? ", redacted now" : ""), "src"));
    if (word.hidden) li.classList.add("hidden");
    li.addEventListener("mouseenter", () => flashCheck(word, true));
    li.addEventListener("mouseleave", () => flashCheck(word, false));
    return li;
  }));
  fill($("validator"), review.validator_missed.map((item) => el("li", item)), "nothing");
  fill($("unplaced"), review.not_located.map((item) => {
    const li = el("li", item.label + ": " + item.value + " ");
    const button = el("button", "dismiss");
    button.type = "button";
    button.title = "Box it by hand if it is there, then dismiss it";
    button.addEventListener("click", () => edit({ action: "dismiss", position: item.position }));
    li.append(button);
    return li;
  }), "nothing");
  const select = $("label");
  const chosen = select.value;
  fill(select, review.labels.map((label) => { const option = el("option", label); option.value = label; return option; }));
  if (review.labels.includes(chosen)) select.value = chosen;
  if (state.page && state.page.mode === "text") {
    $("how").textContent = "Select text to redact it; click a black mark to unredact it." +
      (review.to_check.length ? " Purple dashes: words no reader could explain — check them first." : "");
    drawText();
    fill($("found"), review.marks.map((mark) => found(mark.placeholder, state.page.text.slice(mark.start, mark.end), mark.source)), "nothing");
  } else {
    $("how").textContent = "Click a word to add or remove its box. Orange: named by the validator; blue: added by you." +
      (review.to_check.length ? " Purple dashes: words no reader could explain — check them first." : "");
    $("pages").classList.add("reviewing");
    const boxed = new Map(review.boxes.map((box) => [box.index, box]));
    const checks = new Map(review.to_check.map((word) => [word.index, word]));
    for (const [index, word] of state.words) {
      const box = boxed.get(index);
      word.node.classList.remove("live", "validate", "validate-rules", "validate-ner", "reviewer", "rule", "ner", "detect", "lexicon", "to-check");
      const check = checks.get(index);
      if (check && !box) word.node.classList.add("to-check");
      word.node.classList.toggle("redacted", box !== undefined);
      if (box) { word.node.classList.add(box.source); word.node.title = box.placeholder + " (" + box.source + ")"; }
      else word.node.title = check ? "No reader could explain this word (" + check.kind + "): check it" : "";
    }
    fill($("found"), review.boxes.map((box) => {
      const li = found(box.placeholder, state.words.has(box.index) ? state.words.get(box.index).text : "", box.source);
      li.addEventListener("mouseenter", () => flash(box.index, true));
      li.addEventListener("mouseleave", () => flash(box.index, false));
      return li;
    }), "nothing");
  }
  $("count").textContent = review.count_shown + " redacted" + (review.edits ? " · " + review.edits + " edit(s) by you" : "");
  $("approve").disabled = false;
  $("discard").disabled = false;
}

// A reviewer's edit arrives as what changed since the last view (the server's
// redacto/serve/deltas.py): fields to set, and lists or strings spliced as [at, remove, insert]
// (string offsets in UTF-16 code units, which is what slice counts). An edit this page made
// itself has already been shown from the POST's answer; its delta then no longer applies.
function applyDelta(review, delta) {
  const next = { ...review, ...delta.set };
  for (const [key, [at, remove, insert]] of Object.entries(delta.splice)) {
    const before = review[key];
    next[key] = typeof before === "string"
      ? before.slice(0, at) + insert + before.slice(at + remove)
      : [...before.slice(0, at), ...insert, ...before.slice(at + remove)];
  }
  return next;
}

function found(placeholder, text, source) {
  const li = el("li", placeholder + " " + text + " ");
  li.append(el("span", source, "src"));
  return li;
}

function flashCheck(word, on) {
  if (word.index !== null) { flash(word.index, on); return; }
  const span = document.querySelector('#text .to-check[data-start="' + word.start + '"]');
  if (span) span.classList.toggle("flash", on);
}

function flash(index, on) {
  if (state.words.has(index)) state.words.get(index).node.classList.toggle("flash", on);
}

function fill(list, items, empty) {
  list.replaceChildren(...items);
  if (!items.length && empty) list.append(el("li", empty, "src"));
}

function stopReviewing() {
  state.reviewing = false;
  $("pages").classList.remove("reviewing");
  $("review").hidden = true;
  $("selection").hidden = true;
}

function showApproved(result) {
  stopReviewing();
  // The page now shows what was written: the burned image, without the overlay.
  $("pages").classList.add("approved");
  for (const img of document.querySelectorAll(".page img")) img.src = img.src.split("?")[0] + "?approved";
  $("result").hidden = false;
  fill($("downloads"), result.files.map((file) => downloadItem(file)));
  notice("Approved: the outputs are written.");
  refreshJobs();
}

function downloadItem(file) {
  const li = el("li");
  const link = el("a", file.name);
  link.href = base + "/api/jobs/" + state.job + "/files/" + encodeURIComponent(file.name);
  link.download = file.name;
  li.append(link, el("span", " " + Math.max(1, Math.round(file.bytes / 1024)) + " KB", "src"));
  if (file.name === "report.json") {
    li.append(el("span", " — holds every value it hid, in clear: keep it, do not send it with the redacted file", "warn"));
  }
  return li;
}

function showFailure(data) {
  stopReviewing();
  $("failure").hidden = false;
  $("failure").textContent = data.message;
  if (data.files && data.files.length) { $("result").hidden = false; fill($("downloads"), data.files.map(downloadItem)); }
  for (const li of document.querySelectorAll("#steps li.running")) li.className = "";
  refreshJobs();
}

// -- proofreading ------------------------------------------------------------------------
// The detector hides the identifiers first (its words outlined, not blacked out: the page is
// the user's own), then each mistake arrives as its own event the moment the proofreader's
// line is parsed and placed: boxes in pixels of its page image, or "not located".

function startProofread() {
  state.kind = "proofread";
  $("pages").classList.add("proofreading");
  document.querySelector('#steps li[data-step="5"]').hidden = false;
}

function showStage(stage) {
  notice(stage.line);
  if (!stage.proofreading) return;
  for (const li of document.querySelectorAll("#steps li")) li.className = li.dataset.step === "5" ? "running" : "done";
  document.querySelector('#steps li[data-step="5"] span').textContent = stage.line;
}

function showMistake(mistake) {
  $("proofread").hidden = false;
  const said = mistake.error_text + " → " + mistake.correction + (mistake.description ? " — " + mistake.description : "");
  const li = el("li");
  li.append(el("span", mistake.error_text), " → ", el("span", mistake.correction, "fix"));
  if (mistake.description) li.append(el("span", " " + mistake.description, "src"));
  if (mistake.located) {
    const frame = document.querySelectorAll("#pages .page")[mistake.page];
    const info = state.page.pages[mistake.page];
    for (const [x0, y0, x1, y1] of mistake.boxes) {
      const box = el("div", null, "mistake live");
      box.dataset.n = mistake.n;
      box.title = said;
      box.style.left = (100 * x0 / info.width) + "%";
      box.style.top = (100 * y0 / info.height) + "%";
      box.style.width = (100 * (x1 - x0) / info.width) + "%";
      box.style.height = (100 * (y1 - y0) / info.height) + "%";
      frame.append(box);
    }
    li.value = mistake.n;
    li.dataset.n = mistake.n;
    li.addEventListener("mouseenter", () => flashMistake(mistake.n, true));
    li.addEventListener("mouseleave", () => flashMistake(mistake.n, false));
    $("mistakes").append(li);
  } else {
    $("not-located").append(li);
  }
  const shown = $("mistakes").children.length + $("not-located").children.length;
  document.querySelector('#steps li[data-step="5"] span').textContent = shown + " mistake(s) so far";
}

function flashMistake(n, on) {
  for (const box of document.querySelectorAll('.mistake[data-n="' + n + '"]')) box.classList.toggle("flash", on);
}

function showProofread(end) {
  $("proofread").hidden = false;
  for (const box of document.querySelectorAll(".mistake.live")) box.classList.remove("live");
  for (const li of document.querySelectorAll("#steps li")) li.className = li.dataset.step === "5" && !end.complete ? "" : "done";
  document.querySelector('#steps li[data-step="5"] span').textContent = end.mistakes + " mistake(s)";
  const who = end.proofreader === "llm" ? "Proofread by the upstream model" : "Spelling checked by " + end.proofreader;
  $("proofread-verdict").textContent = who + " · " + end.mistakes + " mistake(s): " + end.located + " on the page, " + (end.mistakes - end.located) + " not located";
  for (const list of [$("mistakes"), $("not-located")]) if (!list.children.length) list.append(el("li", "none", "src"));
  $("count").textContent = end.values_replaced + " value(s) hidden from the proofreader, " + end.values_sent + " sent" +
    (end.dropped_touching_placeholder ? " · " + end.dropped_touching_placeholder + " answer(s) about a hidden value dropped" : "");
  if (!end.complete) {
    $("failure").hidden = false;
    $("failure").textContent = "Incomplete: " + end.error + " — the mistakes placed so far are shown and written.";
  }
  notice(end.complete ? "Proofread: the annotated PDF and mistakes.json are ready." : "");
  $("result").hidden = !end.files.length;
  fill($("downloads"), end.files.map(downloadItem));
  refreshJobs();
}

// -- editing -----------------------------------------------------------------------------

async function edit(request) {
  if (!state.reviewing) return;
  try {
    showReview(await api("/api/jobs/" + state.job + "/edit", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ label: $("label").value, ...request }),
    }));
  } catch (error) {
    notice(error.message);
  }
}

function toggleWord(index) { if (state.reviewing) edit({ action: "toggle", index }); }

function selectedRange() {
  const selection = window.getSelection();
  if (!selection.rangeCount || selection.isCollapsed) return null;
  const range = selection.getRangeAt(0);
  const offset = (node, within) => {
    const holder = node.nodeType === Node.TEXT_NODE ? node.parentElement : node;
    if (!holder || !$("text").contains(holder) || holder.dataset.start === undefined) return null;
    return Number(holder.dataset.start) + within;
  };
  const start = offset(range.startContainer, range.startOffset);
  const end = offset(range.endContainer, range.endOffset);
  return start === null || end === null || end <= start ? null : { start, end };
}

document.addEventListener("selectionchange", () => {
  $("selection").hidden = !(state.reviewing && state.page && state.page.mode === "text" && selectedRange());
});
$("redact-selection").addEventListener("click", () => {
  const range = selectedRange();
  if (range) edit({ action: "add", start: range.start, end: range.end });
  window.getSelection().removeAllRanges();
});

$("approve").addEventListener("click", async () => {
  $("approve").disabled = true;
  try { await api("/api/jobs/" + state.job + "/approve", { method: "POST" }); } catch (error) { notice(error.message); $("approve").disabled = false; }
});
$("discard").addEventListener("click", async () => {
  try { await api("/api/jobs/" + state.job + "/discard", { method: "POST" }); } catch (error) { notice(error.message); }
});

// -- the job list, and re-attaching after a reload ----------------------------------------

async function refreshJobs() {
  let jobs = [];
  try {
    const listing = await api("/api/jobs");
    jobs = listing.jobs;
    $("model").textContent = listing.model;
  } catch (error) { notice(error.message); return jobs; }
  fill($("jobs"), jobs.slice().reverse().map((job) => {
    const what = job.kind === "proofread" && job.state !== "proofread" ? "proofread, " : "";
    const li = el("li", job.name + " — " + what + job.state + (job.place ? " (place " + job.place + ")" : ""));
    if (job.id === state.job) li.className = "current";
    li.addEventListener("click", () => attach(job.id));
    return li;
  }), "none yet");
  return jobs;
}

async function start() {
  const wanted = new URLSearchParams(location.hash.slice(1)).get("job");
  const jobs = await refreshJobs();
  const known = jobs.find((job) => job.id === wanted);
  const live = jobs.filter((job) => ["running", "review", "queued"].includes(job.state));
  const pick = known || live[0];
  if (pick) attach(pick.id);
}

start();
