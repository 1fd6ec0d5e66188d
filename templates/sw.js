/* crsearch service worker: the rules offline, in a few bundles.
   Written at build time: the shell (style, scripts, icons) with a content
   hash per file, and a few bundles named by their content's hash, each
   holding many files of the latest release (its pages but the rule pages,
   its search data).  Installing fetches the shell only, so the worker soon
   controls the pages and caches the ones read meanwhile; then the bundles
   come, two at a time, unpacked into the cache file by file, and the pages
   are told how far it got ("crsearch-offline" messages).  A rule page that
   was never fetched is its chapter's page, which app.js narrows to the rule.
   A rebuild gives a new VERSION and a new cache; what the new one has in
   common with the old one is copied, not fetched; the old cache stays
   while a page that was opened under it is still open.  URLs are relative
   to this file, so the site works under any sub-path. */
"use strict";
var VERSION = "__VERSION__";
var RELEASE = "__RELEASE__";
var SHELL = [/*SHELL*/];
var BUNDLES = [/*BUNDLES*/];
var BASE = new URL("./", self.location.href).href;
var PREFIX = "crsearch:" + BASE + ":";
var CACHE = PREFIX + VERSION;
var RUNTIME = PREFIX + "runtime:" + VERSION;
/* Markers kept in the cache beside the files: which bundles are in, and
   that everything is. */
var MARK = BASE + "__crsearch__/";
var READY = MARK + "ready";

function absolute(u) { return new URL(u, BASE).href; }
function ours(name) { return name.indexOf(PREFIX) === 0; }
function current(name) { return name === CACHE || name === RUNTIME; }

/* A page that loads search data or whose reader types says so (site.js,
   "crsearch-busy"): the precache waits meanwhile, so that on a slow network
   a search never queues behind it, but never more than LONGEST ms at a time. */
var LONGEST = 20000;
/* A page that has just registered this worker may be about to search: a
   second's grace for it to say so. */
var busyUntil = Date.now() + 1000;
var busyChannel;  // held for the worker's life: a collected channel stops listening
try {
  busyChannel = new BroadcastChannel("crsearch-busy");
  busyChannel.onmessage = function (ev) {
    var ms = ev.data && Number(ev.data.busy);
    if (ms > 0) busyUntil = Math.max(busyUntil, Date.now() + Math.min(ms, LONGEST));
  };
} catch (e) { /* no BroadcastChannel: precache at once */ }
function quiet() {
  var until = Date.now() + LONGEST;
  return new Promise(function (done) {
    (function wait() {
      var left = Math.min(busyUntil, until) - Date.now();
      if (left <= 0) done(); else setTimeout(wait, Math.min(left, 250));
    })();
  });
}

/* One dropped connection (a busy host, a phone changing networks) must not
   throw away the whole precache: a file is asked for again, after 0.5, 1.5
   and 4.5 s, unless the server said it does not have it. */
var RETRIES = [500, 1500, 4500];
async function fetchAgain(u, options) {
  for (var i = 0; ; i++) {
    var r = null, error = null;
    try { r = await fetch(u, options); } catch (e) { error = e; }
    if (r && r.ok) return r;
    var final = (r && r.status < 500) || i >= RETRIES.length;
    if (final) throw new Error("precache failed: " + u + " " + (r ? r.status : error));
    await new Promise(function (done) { setTimeout(done, RETRIES[i]); });
  }
}

/* The caches of earlier builds of this site, newest last. */
async function olderCaches() {
  return (await caches.keys()).filter(function (k) {
    return ours(k) && !current(k) && k.indexOf(PREFIX + "runtime:") !== 0;
  });
}

/* A file of an earlier build with the same content, if one is cached. */
async function reuse(url, hash) {
  var names = await olderCaches();
  for (var i = names.length - 1; i >= 0; i--) {
    var c = await caches.open(names[i]);
    var idx = await c.match(MARK + "hashes");
    if (!idx) continue;
    var known = await idx.json();
    if (known[url] === hash) {
      var hit = await c.match(absolute(url));
      if (hit) return hit;
    }
  }
  return null;
}

/* -- install: the shell ---------------------------------------------------- */

self.addEventListener("install", function (event) {
  event.waitUntil((async function () {
    var cache = await caches.open(CACHE);
    var hashes = {};
    for (var i = 0; i < SHELL.length; i++) {
      var url = SHELL[i][0], abs = absolute(url);
      hashes[url] = SHELL[i][1];
      if (await cache.match(abs)) continue;
      var hit = await reuse(url, SHELL[i][1]);
      if (!hit) {
        await quiet();
        hit = await fetchAgain(abs, { cache: "no-cache" });
      }
      await cache.put(abs, hit);
    }
    await cache.put(MARK + "hashes", new Response(JSON.stringify(hashes),
      { headers: { "Content-Type": "application/json" } }));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", function (event) {
  event.waitUntil((async function () {
    /* Caches two builds old or more have no open page left: gone.  The one
       just before this build stays until its pages have moved on. */
    var names = await olderCaches();
    var runtimes = (await caches.keys()).filter(function (k) {
      return k.indexOf(PREFIX + "runtime:") === 0 && k !== RUNTIME;
    });
    var keep = names[names.length - 1];
    await Promise.all(names.concat(runtimes).filter(function (k) {
      return k !== keep && k !== PREFIX + "runtime:" + (keep || "").slice(PREFIX.length);
    }).map(function (k) { return caches.delete(k); }));
    await self.clients.claim();
    precache();
  })());
});

/* -- the bundles, after activation ------------------------------------------ */

var state = { type: "crsearch-offline", release: RELEASE, version: VERSION,
              state: "saving", done: 0, total: 0, files: BUNDLES.length };
BUNDLES.forEach(function (b) { state.total += b[1]; });
var running = null;

async function tell() {
  var all = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  all.forEach(function (c) { c.postMessage(state); });
}

/* Every file of one bundle into the cache, then its marker. */
async function unpack(cache, name, response) {
  var data = await response.json();
  var files = data.files;
  for (var i = 0; i < files.length; i++) {
    await cache.put(absolute(files[i][0]), new Response(files[i][2],
      { headers: { "Content-Type": files[i][1] } }));
  }
  await cache.put(MARK + name, new Response(JSON.stringify(files.map(function (f) { return f[0]; })),
    { headers: { "Content-Type": "application/json" } }));
}

/* A bundle an earlier build had too (same name, same content): copied. */
async function copyBundle(cache, name) {
  var names = await olderCaches();
  for (var i = names.length - 1; i >= 0; i--) {
    var old = await caches.open(names[i]);
    var mark = await old.match(MARK + name);
    if (!mark) continue;
    var list = await mark.clone().json();
    var hits = await Promise.all(list.map(function (u) { return old.match(absolute(u)); }));
    if (hits.some(function (h) { return !h; })) continue;
    for (var k = 0; k < list.length; k++) await cache.put(absolute(list[k]), hits[k]);
    await cache.put(MARK + name, mark);
    return true;
  }
  return false;
}

/* The pages open now were fetched before this worker ran: cached too. */
async function keepOpenPages() {
  var runtime = await caches.open(RUNTIME);
  var cache = await caches.open(CACHE);
  var all = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (var i = 0; i < all.length; i++) {
    var k = keyOf(all[i].url);
    if (k.indexOf(BASE) !== 0 || await cache.match(k) || await runtime.match(k)) continue;
    try {
      var r = await fetch(k, { cache: "force-cache" });
      if (r.ok) await runtime.put(k, r);
    } catch (e) { /* offline already: nothing to keep */ }
  }
}

function precache() {
  if (running) return running;
  running = (async function () {
    var cache = await caches.open(CACHE);
    if (await cache.match(READY)) {
      state.state = "ready"; state.done = state.total;
      await tell();
      await cleanup();
      return;
    }
    await keepOpenPages();
    state.state = "saving"; state.done = 0;
    var todo = [];
    for (var i = 0; i < BUNDLES.length; i++) {
      var name = BUNDLES[i][0];
      if (await cache.match(MARK + name) || await copyBundle(cache, name)) state.done += BUNDLES[i][1];
      else todo.push(BUNDLES[i]);
    }
    await tell();
    var next = 0;
    async function worker() {
      while (next < todo.length) {
        var b = todo[next++];
        await quiet();
        /* Named by their content's hash: any cached copy is the right one. */
        await unpack(cache, b[0], await fetchAgain(absolute(b[0]), { cache: "default" }));
        state.done += b[1];
        await tell();
      }
    }
    await Promise.all([worker(), worker()]);
    await cache.put(READY, new Response(JSON.stringify({ release: RELEASE, version: VERSION }),
      { headers: { "Content-Type": "application/json" } }));
    state.state = "ready";
    await tell();
    await cleanup();
  })();
  running.catch(function (e) {
    state.state = "failed"; state.error = String(e && e.message || e);
    tell();
  }).then(function () { running = null; });
  return running;
}

/* Pages opened under this worker (a navigation it answered).  Caches of an
   earlier build are dropped once every open page is one of these. */
var moved = {};
async function cleanup() {
  if (!(await (await caches.open(CACHE)).match(READY))) return;
  var all = await self.clients.matchAll({ type: "window" });
  if (all.some(function (c) { return !moved[c.id]; })) return;
  var names = (await caches.keys()).filter(function (k) { return ours(k) && !current(k); });
  await Promise.all(names.map(function (k) { return caches.delete(k); }));
}

/* -- answering --------------------------------------------------------------- */

/* "…/" is "…/index.html"; queries (search.html?q=…) and hashes do not matter. */
function keyOf(url) {
  var u = new URL(url);
  u.hash = ""; u.search = "";
  if (u.pathname.slice(-1) === "/") u.pathname += "index.html";
  return u.href;
}

var HASHED = /\.[0-9a-f]{8,10}\.[a-z]+$/;
var RULE_PAGE = /^([1-9]\d\d)\.\d+[a-z]*\.html$/;

async function fromOlder(k) {
  var names = await olderCaches();
  for (var i = names.length - 1; i >= 0; i--) {
    var hit = await caches.match(k, { cacheName: names[i] })
      || await caches.match(k, { cacheName: PREFIX + "runtime:" + names[i].slice(PREFIX.length) });
    if (hit) return hit;
  }
  return null;
}

async function answer(event) {
  var req = event.request;
  var k = keyOf(req.url);
  var cache = await caches.open(CACHE);
  var hit = await cache.match(k);
  if (hit) return hit;
  /* A page of an earlier build, still open, asks for its own data files. */
  if (HASHED.test(k) && (hit = await fromOlder(k))) return hit;
  var runtime = await caches.open(RUNTIME);
  try {
    var resp = await fetch(req);
    if (resp.ok && resp.type === "basic") await runtime.put(k, resp.clone());
    return resp;
  } catch (err) {
    var old = await runtime.match(k) || await fromOlder(k);
    if (old) return old;
    if (req.mode === "navigate") {
      var m = RULE_PAGE.exec(k.slice(BASE.length));
      var chapter = m && await cache.match(absolute(m[1] + ".html"));
      if (chapter) return chapter;  /* app.js shows the rule */
      var nf = await cache.match(absolute("not-found.html"));
      if (nf) return nf;
    }
    throw err;
  }
}

self.addEventListener("fetch", function (event) {
  var req = event.request;
  if (req.method !== "GET" || req.url.indexOf(BASE) !== 0) return;
  if (req.mode === "navigate" && event.resultingClientId) {
    moved[event.resultingClientId] = true;
    event.waitUntil(new Promise(function (done) { setTimeout(done, 1000); }).then(cleanup));
  }
  event.respondWith(answer(event));
});

/* A page asks how far the offline copy is (and so keeps the worker awake
   while the bundles come). */
self.addEventListener("message", function (event) {
  if (event.data === "crsearch-offline") {
    if (event.source) event.source.postMessage(state);
    event.waitUntil(precache().catch(function () {}));
  } else if (event.data === "crsearch-version" && event.source) {
    event.source.postMessage({ version: VERSION, files: SHELL.length + BUNDLES.length });
  }
});
