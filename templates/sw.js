/* crsearch service worker: the rules offline.
   The precache list is written at build time with a content hash per file; a
   rebuild gives a new VERSION, and only files whose hash changed are fetched
   again.  URLs are relative to this file, so the site works under a sub-path. */
"use strict";
var VERSION = "__VERSION__";
var PRECACHE = [/*PRECACHE*/];
var BASE = new URL("./", self.location.href).href;
var PREFIX = "crsearch:" + BASE + ":";
var CACHE = PREFIX + VERSION;
var RUNTIME = PREFIX + "runtime";
var INDEX = BASE + "__precache-index__";

function absolute(u) { return new URL(u, BASE).href; }

/* A page that loads search data or whose reader types says so (site.js,
   "crsearch-busy"): the precache waits meanwhile, so that on a slow network
   a search never queues behind it, but never more than LONGEST ms at a time. */
var LONGEST = 20000;
var HASHED = /\.[0-9a-f]{10}\.js$/;
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
   throw away the whole install: a file is asked for again, after 0.5, 1.5
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

self.addEventListener("install", function (event) {
  event.waitUntil((async function () {
    var cache = await caches.open(CACHE);
    var hashes = {};
    PRECACHE.forEach(function (e) { hashes[e[0]] = e[1]; });
    /* Files unchanged since an earlier version come from its cache. */
    var reuse = null, known = {};
    var names = (await caches.keys()).filter(function (k) {
      return k.indexOf(PREFIX) === 0 && k !== CACHE && k !== RUNTIME;
    });
    for (var i = 0; i < names.length && !reuse; i++) {
      var c = await caches.open(names[i]);
      var idx = await c.match(INDEX);
      if (idx) { known = await idx.json(); reuse = c; }
    }
    var todo = [];
    for (var k = 0; k < PRECACHE.length; k++) {
      var url = PRECACHE[k][0], abs = absolute(url);
      if (reuse && known[url] === PRECACHE[k][1]) {
        var hit = await reuse.match(abs);
        if (hit) { await cache.put(abs, hit); continue; }
      }
      todo.push(abs);
    }
    /* A few at a time, leaving connections to the pages being read, and
       none while a page is busy. */
    var next = 0;
    async function worker() {
      while (next < todo.length) {
        await quiet();
        var u = todo[next++];
        /* A file named by its content's hash the page may have loaded
           already: the HTTP cache's copy is the right one. */
        await cache.put(u, await fetchAgain(u, { cache: HASHED.test(u) ? "default" : "no-cache" }));
      }
    }
    await Promise.all([worker(), worker(), worker(), worker()]);
    await cache.put(INDEX, new Response(JSON.stringify(hashes),
      { headers: { "Content-Type": "application/json" } }));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", function (event) {
  event.waitUntil((async function () {
    var names = await caches.keys();
    await Promise.all(names.filter(function (k) {
      return k.indexOf(PREFIX) === 0 && k !== CACHE && k !== RUNTIME;
    }).map(function (k) { return caches.delete(k); }));
    await self.clients.claim();
  })());
});

/* "…/" is "…/index.html"; queries (search.html?q=…) and hashes do not matter. */
function key(request) {
  var u = new URL(request.url);
  u.hash = ""; u.search = "";
  if (u.pathname.slice(-1) === "/") u.pathname += "index.html";
  return u.href;
}

self.addEventListener("fetch", function (event) {
  var req = event.request;
  if (req.method !== "GET" || req.url.indexOf(BASE) !== 0) return;
  event.respondWith((async function () {
    var k = key(req);
    var cache = await caches.open(CACHE);
    var hit = await cache.match(k);
    if (hit) return hit;
    var runtime = await caches.open(RUNTIME);
    try {
      var resp = await fetch(req);
      if (resp.ok && resp.type === "basic") await runtime.put(k, resp.clone());
      return resp;
    } catch (err) {
      var old = await runtime.match(k);
      if (old) return old;
      if (req.mode === "navigate") {
        var nf = await cache.match(absolute("not-found.html"));
        if (nf) return nf;
      }
      throw err;
    }
  })());
});

self.addEventListener("message", function (event) {
  if (event.data === "crsearch-version" && event.source) {
    event.source.postMessage({ version: VERSION, files: PRECACHE.length });
  }
});
