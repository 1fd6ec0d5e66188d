/* crsearch site: the search page, the search box as an ARIA combobox, "/"
   to focus it, copy-permalink buttons.  No external scripts.

   The ranking is rank.js's (CrsearchRank, loaded before this file), over
   the data crsearch/site/searchdata.py writes into search/*.js: this file
   only fetches data files, runs the page and shows the results. */
(function () {
  "use strict";
  var DATA = window.CRSEARCH_DATA = window.CRSEARCH_DATA || {};
  var me = document.currentScript;
  /* The page names its metadata and word-file names (their names hold a
     hash of their content), relative to itself; the other data files sit
     beside them in the same search/ folder, which is the page's own or, in
     an older release of a site of every release, the one all releases
     share.  Results link relative to the page: every page of a release
     sits in its folder. */
  var META = me ? me.getAttribute("data-search") : null;
  var KEYS = me ? me.getAttribute("data-keys") : null;
  /* The search page's app.js, asked for after its first results. */
  var APP = me ? me.getAttribute("data-app") : null;
  function loadApp() {
    if (!APP) return;
    var s = document.createElement("script");
    s.src = APP;
    APP = null;
    document.head.appendChild(s);
  }
  var BASE = META ? META.slice(0, META.lastIndexOf("search/")) : "";
  /* Shared with search.html, which asks for a linked query's word files
     before this script has arrived. */
  var loading = window.CRSEARCH_LOADING = window.CRSEARCH_LOADING || {};

  /* The service worker precaches the site in the background; while a page
     loads data or its reader types, it waits (sw.js), so that a search on a
     slow network never queues behind the precache. */
  var channel = null;
  try { channel = new BroadcastChannel("crsearch-busy"); } catch (e) { channel = null; }
  function busy(ms) {
    if (channel) { try { channel.postMessage({ busy: ms }); } catch (e) { /* closed */ } }
  }

  /* Set while a search typed here is about to open the search page: the
     documents its ranking reads first are then fetched as prefetches, which
     wait in the cache for the search page: on a slow network their text
     arrives while the search page loads.  ``leaving`` is the ahead()
     that waits for them. */
  var leaving = null, left = false, prefetched = {};
  function prefetch(file) {
    if (prefetched[file]) return;
    prefetched[file] = true;
    var link = document.createElement("link");
    link.rel = "prefetch";
    link.href = BASE + file;
    if (leaving) leaving.asked(link);
    document.head.appendChild(link);
  }

  /* Load one data file (a <script>, so that file:// works too). */
  function load(name, file) {
    if (DATA[name]) return Promise.resolve(DATA[name]);
    if (left && !loading[name]) {
      /* Only the documents' text: a word file still missing is asked for
         by the search page at once, and twice would cost its bytes twice. */
      if (/^search\/d\./.test(file)) prefetch(file);
      else if (leaving) leaving.go();
      return new Promise(function () { /* the page is going away */ });
    }
    busy(2500);
    if (!loading[name]) {
      loading[name] = new Promise(function (resolve, reject) {
        var s = document.createElement("script");
        s.src = BASE + file;
        s.async = true;
        s.onload = function () { DATA[name] ? resolve(DATA[name]) : reject(new Error(file)); };
        s.onerror = function () { delete loading[name]; reject(new Error("cannot load " + file)); };
        document.head.appendChild(s);
      });
    }
    return loading[name];
  }

  var enginePromise = null;
  function engine() {
    if (!enginePromise) {
      enginePromise = META && KEYS && window.CrsearchRank ? Promise.all([load("meta", META.slice(BASE.length)), load("keys", KEYS.slice(BASE.length))]).then(function (got) {
        return new window.CrsearchRank.Engine(got[0], got[1], load);
      }) : Promise.reject(new Error("This site was built without search."));
      enginePromise.catch(function () { enginePromise = null; });
    }
    return enginePromise;
  }

  /* -- the page ----------------------------------------------------------------- */
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text != null) e.textContent = text;
    return e;
  }

  /* Text with <mark>s, built as nodes: the rules text is never parsed as HTML. */
  function marked(text, marks) {
    var frag = document.createDocumentFragment(), pos = 0;
    marks.forEach(function (m) {
      if (m[0] > pos) frag.appendChild(document.createTextNode(text.slice(pos, m[0])));
      frag.appendChild(el("mark", null, text.slice(m[0], m[1])));
      pos = m[1];
    });
    if (pos < text.length) frag.appendChild(document.createTextNode(text.slice(pos)));
    return frag;
  }

  function label(hit) {
    if (hit.kind === "glossary") return hit.title + " (glossary)";
    return hit.id + (hit.title ? " " + hit.title : "");
  }

  function resolve(url) { return url; }

  /* "/" focuses the search box. */
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "/" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var a = document.activeElement;
    if (a && (a.tagName === "INPUT" || a.tagName === "TEXTAREA" || a.isContentEditable)) return;
    var box = document.getElementById("q2") || document.getElementById("q");
    if (box) { ev.preventDefault(); box.focus(); box.select(); }
  });

  /* Before the search page opens: the documents the ranking of ``text``
     reads first, prefetched.  Resolves once they are in, or 300 ms after the
     first was asked for (a prefetch the page's navigation overtakes is
     cancelled: the head start lets it arrive first on a slow network), or
     when the ranking needs none or a word file. */
  function ahead(eng, text) {
    return new Promise(function (done) {
      var pending = 0, over = false, go = function () {
        if (over) return;
        over = true;
        leaving = null;
        done();
      };
      leaving = {
        go: go,
        asked: function (link) {
          if (!pending) setTimeout(go, 300);
          pending++;
          link.onload = link.onerror = function () { if (--pending === 0) go(); };
        },
      };
      left = true;
      setTimeout(function () { if (!pending) go(); }, 300);
      eng.search(text, 10).then(go, go);
    });
  }
  /* Back from the search page (the back-forward cache): load as before. */
  window.addEventListener("pageshow", function () { leaving = null; left = false; });

  /* A query that names one existing rule goes straight to it. */
  function jumpTarget(eng, text) {
    var q;
    try { q = eng.parse(text); } catch (e) { return Promise.resolve(null); }
    if (!q.specOnly || q.ids.length !== 1 || q.ids[0][0] !== q.ids[0][1] || !eng.idSet.has(q.ids[0][0])) return Promise.resolve(null);
    var id = q.ids[0][0];
    return eng.needDocs([id]).then(function () { return eng.docs[id] ? resolve(eng.docs[id].url) : null; });
  }

  var optionCount = 0;
  /* Every search form: rule-number jump, and (header box) the combobox. */
  function wireForm(form) {
    var input = form.querySelector("input[name=q]");
    var list = null, active = -1, timer = null, seq = 0;
    function searchUrl() { return form.getAttribute("action") + "?q=" + encodeURIComponent(input.value); }
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var value = input.value;
      if (!value.trim()) return;
      engine().then(function (eng) {
        return jumpTarget(eng, value).then(function (url) {
          return url || (location.protocol === "file:" ? null : ahead(eng, value).then(function () { return null; }));
        });
      }).then(null, function () { return null; })
        .then(function (url) { window.location.href = url || searchUrl(); });
    });
    input.addEventListener("focus", function () { engine().catch(function () {}); }, { once: true });
    input.addEventListener("input", function () {
      var value = input.value;
      busy(3000);
      if (value.trim()) engine().then(function (eng) { eng.prefetch(value); }, function () {});
    });
    if (!form.classList.contains("search")) return;

    /* The ARIA 1.2 combobox: input role=combobox controls a listbox. */
    list = el("ul", { "class": "suggest", id: "suggest", role: "listbox", "aria-label": "Suggestions", hidden: "" });
    form.appendChild(list);
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    input.setAttribute("aria-controls", "suggest");
    function options() { return list.querySelectorAll("[role=option]"); }
    function close() {
      list.hidden = true; active = -1;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
    }
    function select(i) {
      var opts = options();
      active = i;
      opts.forEach(function (o, n) { o.setAttribute("aria-selected", n === i ? "true" : "false"); });
      if (i >= 0) { input.setAttribute("aria-activedescendant", opts[i].id); opts[i].scrollIntoView({ block: "nearest" }); }
      else input.removeAttribute("aria-activedescendant");
    }
    function show(hits) {
      list.textContent = "";
      hits.forEach(function (h) {
        var li = el("li", { role: "option", id: "opt-" + (++optionCount), "aria-selected": "false", "data-href": resolve(h.url) });
        li.appendChild(el("span", { "class": "opt-id" }, h.kind === "glossary" ? "Glossary" : h.id));
        li.appendChild(document.createTextNode(" "));
        li.appendChild(el("span", { "class": "opt-title" }, h.kind === "glossary" ? h.title : (h.title || "")));
        if (h.snippet && h.snippet !== h.title) li.appendChild(el("span", { "class": "opt-snip" }, h.snippet));
        li.addEventListener("mousedown", function (ev) { ev.preventDefault(); });
        li.addEventListener("click", function () { window.location.href = li.getAttribute("data-href"); });
        list.appendChild(li);
      });
      active = -1;
      input.removeAttribute("aria-activedescendant");
      list.hidden = hits.length === 0;
      input.setAttribute("aria-expanded", hits.length ? "true" : "false");
    }
    input.addEventListener("input", function () {
      clearTimeout(timer);
      var value = input.value, mine = ++seq;
      if (!value.trim()) { close(); list.textContent = ""; return; }
      timer = setTimeout(function () {
        engine().then(function (eng) { return eng.search(value, 7); }).then(function (res) {
          if (mine === seq) show(res.error ? [] : res.results);
        }, function () { if (mine === seq) close(); });
      }, 250);
    });
    input.addEventListener("keydown", function (ev) {
      var opts = options();
      if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
        if (!opts.length) return;
        ev.preventDefault();
        if (list.hidden) { list.hidden = false; input.setAttribute("aria-expanded", "true"); }
        var n = opts.length, i = active < 0 ? (ev.key === "ArrowDown" ? 0 : n - 1) : (active + (ev.key === "ArrowDown" ? 1 : -1) + n) % n;
        select(i);
      } else if (ev.key === "Enter" && !list.hidden && active >= 0) {
        ev.preventDefault();
        window.location.href = opts[active].getAttribute("data-href");
      } else if (ev.key === "Escape") {
        ev.preventDefault(); /* a search input would clear itself: keep the query */
        close();
      }
    });
    input.addEventListener("blur", function () { setTimeout(close, 150); });
  }

  /* Copy-permalink buttons beside every rule number and glossary term. */
  function permalinks() {
    var heads = document.querySelectorAll(".rule > .num, .term > h2");
    heads.forEach(function (h) {
      var b = el("button", { type: "button", "class": "copy", "aria-label": "Copy link to " + h.id, title: "Copy link" }, "\u00b6");
      h.appendChild(b);
    });
    document.addEventListener("click", function (ev) {
      var b = ev.target.closest && ev.target.closest("button.copy");
      if (!b) return;
      var h = b.parentElement, url = location.href.split("#")[0] + "#" + h.id;
      var done = function () { b.classList.add("done"); b.textContent = "copied"; setTimeout(function () { b.classList.remove("done"); b.textContent = "\u00b6"; }, 1500); };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).then(done, function () { history.replaceState(null, "", "#" + h.id); done(); });
      else { history.replaceState(null, "", "#" + h.id); done(); }
    });
  }

  /* search.html?q=...: the results, best first, as links inside #results. */
  function searchPage() {
    var results = document.getElementById("results");
    if (!results) return;
    var q = new URLSearchParams(location.search).get("q") || "";
    var box = document.getElementById("q2");
    box.value = q;
    if (!q.trim()) { loadApp(); box.focus(); return; }
    document.title = q + " \u00b7 " + document.title;
    var status = el("p", { "class": "status" }, "Searching\u2026");
    results.setAttribute("aria-busy", "true");
    results.appendChild(status);
    function render(res) {
      setTimeout(loadApp, 0);
      results.textContent = "";
      if (res.error) {
        var msg = el("p", { "class": "error" }, res.error);
        if (res.near) {
          msg.appendChild(document.createTextNode(" Nearest: "));
          msg.appendChild(el("a", { href: "search.html?q=" + encodeURIComponent(res.near) }, res.near));
        }
        results.appendChild(msg);
        return;
      }
      if (res.suggestion) {
        var p = el("p", { "class": "did-you-mean" }, "Showing results for ");
        p.appendChild(el("strong", null, res.suggestion));
        p.appendChild(document.createTextNode(" (you typed \u201c" + q + "\u201d)."));
        results.appendChild(p);
      }
      if (!res.results.length) { results.appendChild(el("p", null, "Nothing found.")); return; }
      var ol = el("ol", { "class": "hits" });
      res.results.forEach(function (h) {
        var li = el("li", { "class": "hit hit-" + h.kind, "data-id": h.id });
        li.appendChild(el("a", { href: resolve(h.url), "class": "hit-title" }, label(h)));
        if (h.parent) li.appendChild(el("span", { "class": "hit-parent" }, h.parent));
        var ex = el("span", { "class": "excerpt" });
        ex.appendChild(marked(h.snippet, h.highlights));
        li.appendChild(ex);
        ol.appendChild(li);
      });
      results.appendChild(ol);
    }
    var done = false;
    engine().then(function (eng) {
      return eng.search(q, 10, function (early) { if (!done) render(early); });
    }).then(function (res) {
      done = true;
      render(res);
    }).catch(function (e) {
      done = true;
      results.textContent = "";
      results.appendChild(el("p", { "class": "error" }, e && e.message ? e.message : "Search is not available."));
    }).then(function () { results.removeAttribute("aria-busy"); loadApp(); });
  }

  function init() {
    document.querySelectorAll("form[role=search]").forEach(wireForm);
    permalinks();
    searchPage();
    if (!document.getElementById("results")) loadApp();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
  window.crsearch = { engine: engine };
})();
