// The node's web page: signs in with a token or a one-time link, then shows
// a store's activity, sleep, workouts, sources, live changes, peers and
// access log, calling the API with the user's token only.

import { API, APIFailure } from "./api.js";
import { barChart, rangeChart, routeMap } from "./charts.js";
import { el, formatNumber, formatTime, show } from "./dom.js";
import { Feed } from "./feed.js";

const api = new API();
const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
const state = { owner: false, tokenless: false, session: false, screen: "activity", feed: null, loaded: new Set() };
// How each chart on the page was made, to draw it again at a new width.
const chartMakers = new WeakMap();
const $ = (id) => document.getElementById(id);

const ACTIVITY = [
  { panel: "panel-steps", type: "stepCount", options: "sum", unit: "count", key: "sum", label: "steps", total: true },
  { panel: "panel-energy", type: "activeEnergyBurned", options: "sum", unit: "kcal", key: "sum", label: "kcal", total: true },
  { panel: "panel-heart", type: "heartRate", options: "average,min,max", unit: "count/min", key: "average", label: "bpm" },
];
const SLEEP_STAGES = { 0: "In bed", 1: "Asleep", 2: "Awake", 3: "Core", 4: "Deep", 5: "REM" };
const ASLEEP = new Set([1, 3, 4, 5]);
const ACTIVITIES = {
  13: "Cycling", 16: "Elliptical", 20: "Functional strength", 24: "Hiking", 35: "Rowing", 37: "Running",
  46: "Swimming", 50: "Strength training", 52: "Walking", 57: "Yoga", 63: "HIIT", 3000: "Other",
};

// ---- dates -------------------------------------------------------------

function isoDay(date) {
  return date.toISOString().slice(0, 10);
}

function addDays(day, count) {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + count);
  return isoDay(date);
}

/// The day an instant falls on in the page's time zone, "YYYY-MM-DD".
function localDay(iso) {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })
    .format(new Date(iso));
}

function range() {
  return { from: $("from").value, to: $("to").value };
}

function days() {
  const { from, to } = range();
  const list = [];
  for (let day = from; day <= to && list.length < 400; day = addDays(day, 1)) list.push(day);
  return list;
}

// ---- panels ------------------------------------------------------------

function panelBody(id) {
  return document.querySelector(`#${id} .body`);
}

/// A chart as wide as `body` in CSS pixels (so its text has the same size
/// on every chart), drawn again when the window's width changes.
function chartIn(body, make) {
  const chart = make(body.clientWidth);
  chartMakers.set(chart, make);
  return chart;
}

let resizeTimer = null;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    for (const chart of document.querySelectorAll("svg.chart")) {
      const make = chartMakers.get(chart);
      if (!make || !chart.parentNode) continue;
      const next = make(chart.parentNode.clientWidth);
      chartMakers.set(next, make);
      chart.replaceWith(next);
    }
  }, 150);
});

/// What an empty answer means: for an app's token, a type it may not read
/// answers exactly as a type without data (AUTH-4), so the page says both.
function emptyNote() {
  if (state.owner) return el("p", { class: "muted empty", text: "No data in this range." });
  return el("p", {
    class: "not-shared empty",
    text: "Nothing to show: no data in this range, or not shared with this token.",
  });
}

function failureNote(error, ownerOnly) {
  if (error instanceof APIFailure && (error.status === 403 || (error.status === 404 && ownerOnly))) {
    return el("p", { class: "not-shared", "data-status": error.status, text: `Not shared with this token. ${ownerOnly || ""}` });
  }
  const text = error instanceof APIFailure ? `${error.status} ${error.code || ""}: ${error.message}` : String(error.message || error);
  return el("p", { class: "message", text: `Could not load: ${text}` });
}

/// Runs `load` for a panel, showing its failure in the panel.
async function guarded(id, load, ownerOnly) {
  const body = panelBody(id);
  try {
    await load(body);
  } catch (error) {
    if (error instanceof APIFailure && error.status === 401) return;
    show(body, failureNote(error, ownerOnly));
  }
}

function statisticsParameters(spec) {
  const { from, to } = range();
  return {
    type: spec.type, options: spec.options, interval: "1d", from, to, tz: timeZone, unit: spec.unit,
    sources: $("source").value,
  };
}

async function loadActivity() {
  await Promise.all(ACTIVITY.map((spec) => guarded(spec.panel, async (body) => {
    show(body, el("p", { class: "muted", text: "Loading…" }));
    const answer = await api.get("statistics", statisticsParameters(spec));
    const buckets = answer.statistics;
    const values = buckets.map((bucket) => bucket[spec.key]).filter((value) => typeof value === "number");
    if (!values.length) {
      show(body, emptyNote());
      return;
    }
    let summary;
    if (spec.total) {
      const total = values.reduce((sum, value) => sum + value, 0);
      summary = el("p", { class: "summary" },
        el("strong", { text: formatNumber(total, 0) }), ` ${spec.label} in ${buckets.length} days · `,
        `${formatNumber(total / values.length, 0)} a day with data`);
    } else {
      const low = Math.min(...buckets.filter((b) => typeof b.min === "number").map((b) => b.min));
      const high = Math.max(...buckets.filter((b) => typeof b.max === "number").map((b) => b.max));
      summary = el("p", { class: "summary" },
        el("strong", { text: formatNumber(values.reduce((s, v) => s + v, 0) / values.length, 0) }),
        ` ${spec.label} average of daily averages · range ${formatNumber(low, 0)}–${formatNumber(high, 0)}`);
    }
    const chart = chartIn(body, (width) => {
      const drawn = spec.total
        ? barChart(buckets, spec.key, answer.unit, timeZone, width)
        : rangeChart(buckets, answer.unit, timeZone, width);
      drawn.setAttribute("data-type", spec.type);
      return drawn;
    });
    show(body, summary, chart);
  })));
}

async function loadSleep() {
  await guarded("panel-sleep", async (body) => {
    const { from, to } = range();
    const answer = await api.get("samples", {
      type: "sleepAnalysis", start: from, end: addDays(to, 1), tz: timeZone, limit: 2000,
    });
    const samples = answer.samples;
    if (!samples.length) {
      show(body, emptyNote());
      return;
    }
    const hours = new Map(days().map((day) => [day, 0]));
    for (const sample of samples) {
      if (!ASLEEP.has(sample.value)) continue;
      const day = localDay(sample.endDate);
      if (!hours.has(day)) continue;
      hours.set(day, hours.get(day) + (Date.parse(sample.endDate) - Date.parse(sample.startDate)) / 3600000);
    }
    const buckets = [...hours].map(([day, value]) => ({ startDate: `${day}T12:00:00Z`, hours: value || undefined }));
    const chart = chartIn(body, (width) => {
      const drawn = barChart(buckets, "hours", "h", "UTC", width);
      drawn.setAttribute("data-type", "sleepAnalysis");
      return drawn;
    });
    const rows = samples.map((sample) => el("tr", { "data-uuid": sample.uuid },
      el("td", { text: formatTime(sample.startDate) }),
      el("td", { text: formatTime(sample.endDate) }),
      el("td", { text: SLEEP_STAGES[sample.value] ?? String(sample.value) }),
      el("td", { class: "number", text: formatNumber((Date.parse(sample.endDate) - Date.parse(sample.startDate)) / 3600000, 1) }),
      el("td", { text: sourceName(sample) })));
    show(body,
      el("p", { class: "summary", text: "Hours asleep, by the day each sample ends" }),
      chart,
      el("table", {}, el("thead", {}, el("tr", {}, ...["Start", "End", "Stage", "Hours", "Source"].map((h) =>
        el("th", { text: h, class: h === "Hours" ? "number" : null })))), el("tbody", {}, ...rows)));
  });
}

function sourceName(sample) {
  const source = sample.sourceRevision && sample.sourceRevision.source;
  return source ? source.name : "";
}

function quantityText(quantity) {
  return quantity ? `${formatNumber(quantity.value, 1)} ${quantity.unit}` : "";
}

async function loadWorkouts() {
  await guarded("panel-workouts", async (body) => {
    const { from, to } = range();
    const answer = await api.get("samples", {
      type: "workout", start: from, end: addDays(to, 1), tz: timeZone, sort: "-startDate", limit: 500,
    });
    if (!answer.samples.length) {
      show(body, emptyNote());
      return;
    }
    const rows = answer.samples.map((workout) => {
      const row = el("tr", { class: "selectable", "data-uuid": workout.uuid, tabindex: 0 },
        el("td", { text: formatTime(workout.startDate) }),
        el("td", { text: ACTIVITIES[workout.workoutActivityType] ?? `Type ${workout.workoutActivityType}` }),
        el("td", { class: "number", text: formatNumber((workout.duration || 0) / 60, 0) }),
        el("td", { class: "number", text: quantityText(workout.totalEnergyBurned) }),
        el("td", { class: "number", text: quantityText(workout.totalDistance) }),
        el("td", { text: sourceName(workout) }));
      const choose = () => {
        for (const other of body.querySelectorAll("tr.selected")) other.classList.remove("selected");
        row.classList.add("selected");
        loadRoute(workout);
      };
      row.addEventListener("click", choose);
      row.addEventListener("keydown", (event) => { if (event.key === "Enter") choose(); });
      return row;
    });
    show(body, el("table", {},
      el("thead", {}, el("tr", {}, ...["Start", "Activity", "Minutes", "Energy", "Distance", "Source"].map((h) =>
        el("th", { text: h, class: ["Minutes", "Energy", "Distance"].includes(h) ? "number" : null })))),
      el("tbody", {}, ...rows)));
  });
}

async function loadRoute(workout) {
  const body = panelBody("panel-route");
  show(body, el("p", { class: "muted", text: "Loading the route…" }));
  try {
    const collection = await api.get(`workouts/${encodeURIComponent(workout.uuid)}/routes`, { format: "geojson" });
    const points = (collection.features || []).reduce((n, f) => n + ((f.geometry && f.geometry.coordinates) || []).length, 0);
    if (!points) {
      show(body, el("p", { class: "muted", "data-workout": workout.uuid, text: "This workout has no route." }));
      return;
    }
    const map = routeMap(collection);
    map.setAttribute("data-workout", workout.uuid);
    show(body, el("p", { class: "summary", text: `${collection.features.length} route(s), ${points} locations` }), map);
  } catch (error) {
    if (error instanceof APIFailure && error.status === 404) {
      show(body, el("p", { class: "muted", "data-workout": workout.uuid, text: "No route this token may read." }));
    } else if (!(error instanceof APIFailure && error.status === 401)) {
      show(body, failureNote(error));
    }
  }
}

const SOURCE_TYPES = [
  { type: "stepCount", label: "Steps", key: "sum" },
  { type: "activeEnergyBurned", label: "Active energy", key: "sum" },
  { type: "heartRate", label: "Heart rate", key: "average" },
  { type: "sleepAnalysis", label: "Sleep" },
  { type: "workout", label: "Workouts" },
];

async function fillSourceFilter() {
  const select = $("source");
  const seen = new Map();
  for (const spec of ACTIVITY) {
    try {
      const answer = await api.get("sources", { type: spec.type });
      for (const source of answer.sources) seen.set(source.bundleIdentifier, source.name);
    } catch (error) {
      if (error instanceof APIFailure && error.status === 401) return;
    }
  }
  const chosen = select.value;
  show(select, el("option", { value: "", text: "All sources, merged" }),
    ...[...seen].map(([bundle, name]) => el("option", { value: bundle, text: `${name} (${bundle})` })));
  select.value = seen.has(chosen) ? chosen : "";
}

async function loadSources() {
  await guarded("panel-sources", async (body) => {
    const { from, to } = range();
    const sections = [];
    for (const spec of SOURCE_TYPES) {
      const answer = await api.get("sources", { type: spec.type });
      let merged = null;
      const perSource = new Map();
      if (spec.key && answer.sources.length) {
        const options = spec.key === "sum" ? "sum" : "average";
        const statistics = await api.get("statistics", {
          type: spec.type, options, interval: "1d", from, to, tz: timeZone, separateBySource: true,
        });
        const values = statistics.statistics.map((bucket) => bucket[spec.key]).filter((v) => typeof v === "number");
        if (values.length) merged = spec.key === "sum" ? values.reduce((s, v) => s + v, 0) : values.reduce((s, v) => s + v, 0) / values.length;
        for (const bucket of statistics.statistics) {
          for (const source of bucket.sources || []) {
            const value = source[spec.key];
            if (typeof value !== "number") continue;
            const held = perSource.get(source.bundleIdentifier) || [];
            held.push(value);
            perSource.set(source.bundleIdentifier, held);
          }
        }
      }
      const combine = (list) => (spec.key === "sum" ? list.reduce((s, v) => s + v, 0) : list.reduce((s, v) => s + v, 0) / list.length);
      // The owner's order (PUT /v1/source-priority): listed sources first,
      // in that order, then the others.
      const priority = answer.priority || [];
      const rank = (source) => {
        const index = priority.indexOf(source.bundleIdentifier);
        return index < 0 ? priority.length + 1 : index + 1;
      };
      const ordered = [...answer.sources].sort((a, b) => rank(a) - rank(b)
        || a.bundleIdentifier.localeCompare(b.bundleIdentifier));
      const rows = ordered.map((source) => el("tr", { "data-bundle": source.bundleIdentifier,
        "data-rank": priority.includes(source.bundleIdentifier) ? String(rank(source)) : "" },
        el("td", { class: "number", text: priority.includes(source.bundleIdentifier) ? String(rank(source)) : "–" }),
        el("td", { text: source.name }),
        el("td", { text: source.bundleIdentifier }),
        el("td", { class: "number", text: perSource.has(source.bundleIdentifier) ? formatNumber(combine(perSource.get(source.bundleIdentifier)), 1) : "" })));
      if (merged !== null) {
        rows.push(el("tr", { class: "merged" }, el("td", {}), el("td", { text: "Merged" }),
          el("td", { class: "muted", text: spec.key === "sum" ? "overlaps counted once, by source priority" : "every source's readings" }),
          el("td", { class: "number", text: formatNumber(merged, 1) })));
      }
      sections.push(el("h3", { text: spec.label }));
      sections.push(answer.sources.length
        ? el("table", { "data-type": spec.type }, el("thead", {}, el("tr", {},
          el("th", { class: "number", text: "Priority" }), el("th", { text: "Source" }), el("th", { text: "Bundle identifier" }),
          el("th", { class: "number", text: spec.key ? `In range (${spec.key === "sum" ? "total" : "average"})` : "" }))),
        el("tbody", {}, ...rows))
        : emptyNote());
    }
    show(body, el("p", { class: "muted", text: "When sources overlap, merged sums count each stretch of time once, from the highest-priority source: samples entered by hand first, then the sources in the owner's order (Priority), then the others, newest first (ST-22..24)." }), ...sections);
  });
}

function describeChange(change) {
  if (change.deleted) return { kind: "deleted", uuid: change.deleted.uuid, what: "", detail: "" };
  if (change.activitySummary) return { kind: "summary", uuid: "", what: "Activity summary", detail: change.activitySummary.date };
  const sample = change.added;
  const type = (sample.type || "").replace(/^HK(Quantity|Category|Correlation|Workout)?TypeIdentifier/, "");
  let detail = "";
  if (sample.quantity) detail = quantityText(sample.quantity);
  else if (sample.kind === "categorySample") detail = `value ${sample.value}`;
  else if (sample.kind === "workout") detail = ACTIVITIES[sample.workoutActivityType] ?? "";
  return { kind: "added", uuid: sample.uuid, what: type || sample.kind, detail, when: sample.startDate };
}

function startFeed() {
  const body = panelBody("panel-feed");
  const status = el("p", { class: "summary" }, el("span", { class: "status" }), el("span", { text: "Connecting…" }));
  const counts = el("p", { class: "muted" });
  const list = el("ol", { class: "feed", "aria-live": "polite" });
  show(body, status, counts, list);
  // The feed starts at the store's head (since=now): it shows what happens
  // from the moment the screen opens, never a replay of the log.
  let live = 0;
  counts.textContent = "No change since the page connected.";
  const feed = new Feed(api, (change) => {
    live += 1;
    counts.textContent = `${formatNumber(live)} ${live === 1 ? "change" : "changes"} since the page connected.`;
    const item = describeChange(change);
    const row = el("li", { class: `new ${item.kind}`, "data-uuid": item.uuid, "data-kind": item.kind },
      el("span", { class: "kind", text: item.kind }),
      el("span", { text: item.what }),
      el("span", { text: item.detail }),
      el("span", { class: "muted", text: item.when ? formatTime(item.when) : "" }));
    list.prepend(row);
    while (list.children.length > 200) list.lastChild.remove();
  }, (phase, error) => {
    const dot = status.firstChild;
    dot.className = `status ${phase === "live" ? "live" : phase === "retrying" || phase === "stopped" ? "down" : ""}`;
    const words = {
      "catching-up": "Finding the store's head…",
      live: "Live: new changes appear here as they are committed.",
      retrying: `Disconnected (${error ? error.message : ""}); reconnecting…`,
      stopped: error ? `Stopped: ${error.message}` : "Stopped.",
    };
    status.lastChild.textContent = words[phase] || phase;
    $("panel-feed").setAttribute("data-phase", phase);
  });
  state.feed = feed;
  feed.start();
}

/// "Not shared" for a panel the token may not read, said without asking
/// the API (which would answer 403).
function notShared(id, why) {
  show(panelBody(id), el("p", { class: "not-shared", text: `Not shared with this token. ${why}` }));
}

async function loadPeers() {
  const ownerOnly = api.multiStore ? "The node's administrator sees a store's peers." : "Only the owner's token sees the peers.";
  if (!state.owner || api.multiStore) {
    notShared("panel-peers", ownerOnly);
    return;
  }
  await guarded("panel-peers", async (body) => {
    const answer = await api.get("peers");
    const peers = answer.peers || [];
    if (!peers.length) {
      show(body, el("p", { class: "muted", text: "This store replicates with no peer." }));
      return;
    }
    const rows = peers.map((peer) => {
      const status = peer.status || peer;
      return el("tr", {},
        el("td", { text: peer.url || peer.peer || "" }),
        el("td", { text: status.state || "" }),
        el("td", { text: status.lastSuccess ? formatTime(status.lastSuccess) : "never" }),
        el("td", { class: "number", text: formatNumber(status.lagEntries || 0) }),
        el("td", { class: "number", text: formatNumber(status.consecutiveFailures || 0) }),
        el("td", { text: status.lastError || "" }));
    });
    show(body, el("table", {}, el("thead", {}, el("tr", {}, ...["Peer", "State", "Last success", "Lag (entries)", "Failures", "Last error"]
      .map((h) => el("th", { text: h, class: ["Lag (entries)", "Failures"].includes(h) ? "number" : null })))),
    el("tbody", {}, ...rows)));
  }, ownerOnly);
}

async function loadAccessLog(after = null) {
  if (!state.owner) {
    notShared("panel-access", "Only the store's owner reads its access log.");
    return;
  }
  await guarded("panel-access", async (body) => {
    const answer = await api.get("access-log", { limit: 50, after });
    const rows = answer.entries.map((entry) => el("tr", {},
      el("td", { text: formatTime(entry.time) }),
      el("td", { text: entry.principal }),
      el("td", { text: entry.action + (entry.phase ? ` (${entry.phase})` : "") }),
      el("td", { text: (entry.types || []).map((t) => t.replace(/^HK\w*?TypeIdentifier/, "")).join(", ") }),
      el("td", { text: entry.from ? `${entry.from.slice(0, 10)} – ${(entry.to || "").slice(0, 10)}` : "" }),
      el("td", { class: "number", text: formatNumber(entry.count || 0) })));
    const table = el("table", {}, el("thead", {}, el("tr", {}, ...["Time", "Who", "What", "Types", "Range", "Count"]
      .map((h) => el("th", { text: h, class: h === "Count" ? "number" : null })))), el("tbody", {}, ...rows));
    const more = answer.next ? el("button", { type: "button", text: "Older entries" }) : null;
    if (more) more.addEventListener("click", () => loadAccessLog(answer.next));
    show(body, el("p", { class: "muted", text: "Every read of this store's health data: who, what, when and how many — never a value." }),
      rows.length ? table : el("p", { class: "muted", text: "No reads recorded yet." }), more);
  }, "Only the store's owner reads its access log.");
}

// ---- screens -----------------------------------------------------------

const LOADERS = {
  activity: loadActivity, sleep: loadSleep, workouts: loadWorkouts, sources: loadSources,
  feed: async () => { if (!state.feed) startFeed(); }, peers: loadPeers, access: () => loadAccessLog(),
};

function showScreen(name) {
  if (!LOADERS[name]) name = "activity";
  state.screen = name;
  for (const section of document.querySelectorAll("main section")) section.hidden = section.dataset.screen !== name;
  for (const tab of document.querySelectorAll(".tabs button")) {
    if (tab.dataset.screen === name) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
  }
  // The range changes these screens; the source, the activity charts only.
  const ranged = ["activity", "sleep", "workouts", "sources"].includes(name);
  document.querySelector(".controls").classList.toggle("inactive", !ranged);
  $("from").disabled = !ranged;
  $("to").disabled = !ranged;
  $("source").disabled = name !== "activity";
  document.body.dataset.screen = name;
  LOADERS[name]();
}

function initialRange() {
  const query = new URLSearchParams(location.search);
  const valid = (day) => /^\d{4}-\d{2}-\d{2}$/.test(day || "");
  const to = valid(query.get("to")) ? query.get("to") : isoDay(new Date());
  const from = valid(query.get("from")) ? query.get("from") : addDays(to, -13);
  $("from").value = from;
  $("to").value = to;
}

let wired = false;

function wire() {
  if (wired) return;
  wired = true;
  for (const tab of document.querySelectorAll(".tabs button")) {
    tab.addEventListener("click", () => showScreen(tab.dataset.screen));
  }
  for (const id of ["from", "to", "source"]) {
    $(id).addEventListener("change", () => {
      if ($("from").value && $("to").value && $("from").value <= $("to").value) showScreen(state.screen);
    });
  }
  $("sign-out").addEventListener("click", signOut);
}

async function enter() {
  $("sign-in").hidden = true;
  $("app").hidden = false;
  $("sign-out").hidden = state.tokenless;
  const who = state.tokenless ? "owner (this node takes no tokens)" : state.owner ? "owner" : "an app's token";
  $("who").textContent = `${api.multiStore ? `store ${api.store} · ` : ""}signed in as ${who}`;
  document.body.dataset.role = state.owner ? "owner" : "app";
  $("tz").textContent = `Days in ${timeZone}`;
  initialRange();
  wire();
  await fillSourceFilter();
  showScreen(state.screen);
  document.body.dataset.ready = "true";
}

// ---- signing in --------------------------------------------------------

function askForSignIn(message = "") {
  if (state.feed) state.feed.stop();
  state.feed = null;
  $("app").hidden = true;
  $("sign-out").hidden = true;
  $("who").textContent = "";
  $("sign-in").hidden = false;
  $("store-label").hidden = !api.multiStore;
  $("sign-in-message").textContent = message;
  document.body.dataset.ready = "sign-in";
}

async function signOut() {
  if (state.session) {
    try {
      await api.request("DELETE", "/v1/sign-in", {}, undefined, { signsOut: false });
    } catch {
      // Signing out of an expired session changes nothing.
    }
  }
  api.remember(null, null);
  state.session = false;
  sessionStorage.removeItem("anchorage.session");
  askForSignIn("Signed out.");
}

/// Whether the token reaches the store, and whom it acts as
/// (GET /v1/authorization): the page asks nothing it would be refused.
async function check() {
  const who = await api.get("authorization", {}, { signsOut: false });
  state.owner = who.principal === "owner";
}

async function signInWith(token, store) {
  api.remember(token, store);
  try {
    await check();
  } catch (error) {
    api.remember(null, null);
    if (error instanceof APIFailure && (error.status === 401 || error.status === 404)) {
      askForSignIn(api.multiStore ? "This token does not reach that store." : "This token is not valid.");
      return;
    }
    askForSignIn(`The node did not answer: ${error.message}`);
    return;
  }
  await enter();
}

async function boot() {
  api.onSignedOut = () => {
    api.remember(null, null);
    askForSignIn("Your session ended: sign in again.");
  };
  // The node's kind and whether it takes tokens, before anyone signs in.
  let tokens = true;
  try {
    const node = await (await fetch("/web/node.json")).json();
    api.multiStore = node.kind !== "single";
    tokens = node.tokens !== false;
  } catch {
    api.multiStore = false;
  }
  $("sign-in-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const token = $("token-input").value.trim();
    const store = $("store-input").value.trim();
    $("token-input").value = "";
    if (!token || (api.multiStore && !store)) {
      $("sign-in-message").textContent = api.multiStore ? "Give the store and a token of it." : "Give a token.";
      return;
    }
    state.session = false;
    signInWith(token, store);
  });

  const fragment = location.hash.startsWith("#sign-in=") ? location.hash.slice("#sign-in=".length) : null;
  if (fragment !== null) {
    // The code leaves the address bar and the history at once.
    history.replaceState(null, "", location.pathname + location.search);
    try {
      const token = await api.exchange(decodeURIComponent(fragment));
      state.session = true;
      sessionStorage.setItem("anchorage.session", "1");
      await signInWith(token, null);
    } catch (error) {
      askForSignIn(error instanceof APIFailure && error.status === 401
        ? "This sign-in link was used already or has expired: sign in with a token."
        : `Signing in failed: ${error.message}`);
    }
    return;
  }
  if (api.token) {
    state.session = sessionStorage.getItem("anchorage.session") === "1";
    await signInWith(api.token, api.store);
    return;
  }
  if (!tokens) {
    // A node without tokens (loopback only) answers every request as the owner.
    try {
      await check();
      state.tokenless = true;
      await enter();
      return;
    } catch (error) {
      askForSignIn(`The node did not answer: ${error.message}`);
      return;
    }
  }
  askForSignIn();
}

// A sign-in link opened in a tab that shows the page already.
window.addEventListener("hashchange", () => {
  if (location.hash.startsWith("#sign-in=")) location.reload();
});

boot().catch((error) => askForSignIn(`The page could not start: ${error.message}`));
