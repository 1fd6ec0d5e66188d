/* crsearch site: "/" focuses search, rule-number jump, typo-tolerant term
   matching, Pagefind results, copy-permalink.  No external scripts. */
(function () {
  "use strict";
  var termsPromise = null;

  function loadTerms() {
    if (window.CRSEARCH_TERMS) return Promise.resolve(window.CRSEARCH_TERMS);
    if (!termsPromise) {
      termsPromise = new Promise(function (resolve) {
        var s = document.createElement("script");
        s.src = "terms.js";
        s.onload = function () { resolve(window.CRSEARCH_TERMS || null); };
        s.onerror = function () { resolve(null); };
        document.head.appendChild(s);
      });
    }
    return termsPromise;
  }

  /* A rule number as a judge types it: "702.19c", "CR 702.19 c", "rule 702.", "§7". */
  function parseNumber(q) {
    var s = q.trim().replace(/^["'\u201c\u201d\u2018\u2019]+|["'\u201c\u201d\u2018\u2019]+$/g, "").trim();
    s = s.replace(/^(?:(?:cr|rules?|sections?|\u00a7)\s*)+/i, "").trim().replace(/\.$/, "").trim();
    var m;
    if ((m = /^([1-9])$/.exec(s))) return m[1];
    if ((m = /^([1-9]\d\d)$/.exec(s))) return m[1];
    if ((m = /^([1-9]\d\d)\.0*([1-9]\d*)\s*([a-z]{0,2})$/i.exec(s))) return m[1] + "." + m[2] + m[3].toLowerCase();
    return null;
  }

  function idUrl(id) {
    if (/^[1-9]$/.test(id)) return "index.html#" + id;
    var ch = id.split(".")[0];
    return id.indexOf(".") < 0 ? ch + ".html" : ch + ".html#" + id;
  }

  function idExists(t, id) {
    if (!t) return false;
    var list = /^[1-9]$/.test(id) ? t.ids.s : id.indexOf(".") < 0 ? t.ids.c : t.ids.r;
    if (!t._sets) t._sets = {};
    var key = /^[1-9]$/.test(id) ? "s" : id.indexOf(".") < 0 ? "c" : "r";
    if (!t._sets[key]) { t._sets[key] = new Set(list); }
    return t._sets[key].has(id);
  }

  /* Nearest existing id above a missing one: 702.19z -> 702.19 -> 702. */
  function nearest(t, id) {
    var up = id;
    while (up) {
      if (/[a-z]$/.test(up)) up = up.replace(/[a-z]+$/, "");
      else if (up.indexOf(".") >= 0) up = up.split(".")[0];
      else if (up.length === 3) up = up[0];
      else up = "";
      if (up && idExists(t, up)) return up;
    }
    return null;
  }

  /* Optimal string alignment distance (Damerau-Levenshtein with adjacent swaps). */
  function distance(a, b, max) {
    if (Math.abs(a.length - b.length) > max) return max + 1;
    var prev2 = null, prev = [], cur, i, j;
    for (j = 0; j <= b.length; j++) prev.push(j);
    for (i = 1; i <= a.length; i++) {
      cur = [i];
      var best = i;
      for (j = 1; j <= b.length; j++) {
        var cost = a[i - 1] === b[j - 1] ? 0 : 1;
        var v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
        if (prev2 && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
        cur.push(v);
        if (v < best) best = v;
      }
      if (best > max) return max + 1;
      prev2 = prev; prev = cur;
    }
    return prev[b.length];
  }

  function fold(s) {
    return s.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
      .replace(/[\u2018\u2019']/g, "").replace(/[^a-z0-9]+/g, " ").trim();
  }

  /* Terms (keywords, chapter titles, glossary) closest to q, typos allowed. */
  function matchTerms(t, q, limit) {
    var f = fold(q);
    if (!t || f.length < 2) return [];
    var max = f.length <= 4 ? 1 : f.length <= 8 ? 2 : 3;
    var scored = [];
    t.terms.forEach(function (row) {
      var name = row[3] || (row[3] = fold(row[0]));
      var score = null;
      if (name === f) score = 0;
      else if (name.indexOf(f) === 0) score = 1;
      else if ((" " + name).indexOf(" " + f) >= 0) score = 2;
      else {
        var d = distance(f, name, max);
        if (d <= max) score = 3 + d;
        else if (f.indexOf(" ") < 0) {
          name.split(" ").forEach(function (w) {
            if (w.length >= 4) {
              var dw = distance(f, w, max);
              if (dw <= max && (score === null || 4 + dw < score)) score = 4 + dw;
            }
          });
        }
      }
      if (score !== null) scored.push([score, row[0].length, row]);
    });
    scored.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || (a[2][0] < b[2][0] ? -1 : 1); });
    var seen = {}, out = [];
    scored.forEach(function (s) {
      var key = s[2][1];
      if (!seen[key] && out.length < limit) { seen[key] = 1; out.push(s[2]); }
    });
    return out;
  }

  function label(row) { return row[2] === "glossary" ? "glossary" : row[2]; }

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text != null) e.textContent = text;
    return e;
  }

  /* "/" focuses the search box. */
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "/" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var a = document.activeElement;
    if (a && (a.tagName === "INPUT" || a.tagName === "TEXTAREA" || a.isContentEditable)) return;
    var box = document.getElementById("q2") || document.getElementById("q");
    if (box) { ev.preventDefault(); box.focus(); box.select(); }
  });

  /* Every search form: a rule number that exists jumps straight to it. */
  function wireForm(form) {
    var input = form.querySelector("input[name=q]");
    form.addEventListener("submit", function (ev) {
      var id = parseNumber(input.value);
      if (!id) return;
      ev.preventDefault();
      loadTerms().then(function (t) {
        if (idExists(t, id)) window.location.href = idUrl(id);
        else window.location.href = form.getAttribute("action") + "?q=" + encodeURIComponent(input.value);
      });
    });
    input.addEventListener("focus", loadTerms, { once: true });
    if (form.classList.contains("search")) suggestions(form, input);
  }

  /* A small drop-down under the header box: number jump and term matches. */
  function suggestions(form, input) {
    var list = el("ul", { "class": "suggest", id: "suggest", role: "listbox", hidden: "" });
    form.appendChild(list);
    input.setAttribute("aria-controls", "suggest");
    var active = -1;
    function close() { list.hidden = true; active = -1; }
    input.addEventListener("input", function () {
      var q = input.value;
      loadTerms().then(function (t) {
        list.textContent = "";
        if (!t || !q.trim()) { close(); return; }
        var rows = [];
        var id = parseNumber(q);
        if (id && idExists(t, id)) rows.push([id, idUrl(id), "rule"]);
        matchTerms(t, q, 7).forEach(function (r) { rows.push(r); });
        rows.forEach(function (r) {
          var li = el("li"), a = el("a", { href: r[1], role: "option" }, r[0]);
          a.appendChild(el("span", { "class": "sub" }, r[2] === "rule" ? "go to rule" : label(r)));
          li.appendChild(a); list.appendChild(li);
        });
        list.hidden = rows.length === 0; active = -1;
      });
    });
    input.addEventListener("keydown", function (ev) {
      var items = list.querySelectorAll("a");
      if (list.hidden || !items.length) return;
      if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
        ev.preventDefault();
        active = (active + (ev.key === "ArrowDown" ? 1 : -1) + items.length) % items.length;
        items.forEach(function (a, i) { a.setAttribute("aria-selected", i === active ? "true" : "false"); });
      } else if (ev.key === "Enter" && active >= 0) {
        ev.preventDefault(); window.location.href = items[active].getAttribute("href");
      } else if (ev.key === "Escape") { close(); }
    });
    document.addEventListener("click", function (ev) { if (!form.contains(ev.target)) close(); });
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

  /* search.html: number jump, term matches, then Pagefind's full-text hits. */
  function searchPage() {
    var results = document.getElementById("results");
    if (!results) return;
    var q = new URLSearchParams(location.search).get("q") || "";
    var box = document.getElementById("q2");
    box.value = q;
    if (!q.trim()) { box.focus(); return; }
    document.title = q + " \u00b7 " + document.title;
    loadTerms().then(function (t) {
      var id = parseNumber(q);
      if (id) {
        var g = el("div", { "class": "group" });
        if (idExists(t, id)) {
          var p = el("p", { "class": "jump" }); p.appendChild(el("a", { href: idUrl(id) }, "Go to " + id));
          g.appendChild(p);
        } else {
          var msg = el("p", null, "There is no " + id + " in the rules effective " + (t ? t.date : "") + ".");
          var up = nearest(t, id);
          if (up) { msg.appendChild(document.createTextNode(" Nearest: ")); msg.appendChild(el("a", { href: idUrl(up) }, up)); }
          g.appendChild(msg);
        }
        results.appendChild(g);
      }
      var terms = matchTerms(t, q, 8);
      if (terms.length) {
        var tg = el("section", { "class": "group terms-group", "aria-label": "Terms" });
        tg.appendChild(el("h2", null, "Terms and keywords"));
        var ol = el("ol");
        terms.forEach(function (r) {
          var li = el("li"), a = el("a", { href: r[1], "class": "hit-title" }, r[0]);
          li.appendChild(a); li.appendChild(document.createTextNode(" \u2014 " + label(r)));
          ol.appendChild(li);
        });
        tg.appendChild(ol); results.appendChild(tg);
      }
      fullText(q, results);
    });
  }

  function relative(u) {
    u = u.replace(/^\/+/, "");
    return u === "" || u[0] === "#" ? "index.html" + u : u;
  }

  function fullText(q, results) {
    var group = el("section", { "class": "group text-group", "aria-label": "Rules text" });
    group.appendChild(el("h2", null, "In the rules text"));
    var status = el("p", null, "Searching\u2026");
    group.appendChild(status); results.appendChild(group);
    if (location.protocol === "file:") { status.textContent = "Full-text search needs the site served over HTTP (crsearch site serve)."; return; }
    import(new URL("pagefind/pagefind.js", document.baseURI).href).then(function (pf) {
      return pf.search(q).then(function (res) {
        return Promise.all(res.results.slice(0, 12).map(function (r) { return r.data(); }));
      });
    }).then(function (pages) {
      status.remove();
      if (!pages.length) { group.appendChild(el("p", null, "No pages contain all of those words.")); return; }
      var ol = el("ol");
      pages.forEach(function (d) {
        var li = el("li");
        li.appendChild(el("a", { href: relative(d.url), "class": "hit-title" }, d.meta.title || d.url));
        (d.sub_results || []).slice(0, 4).forEach(function (s) {
          var sub = el("span", { "class": "hit-sub" });
          sub.appendChild(el("a", { href: relative(s.url) }, s.title));
          var ex = el("span", { "class": "excerpt" }); ex.innerHTML = s.excerpt; /* Pagefind escapes text, adds <mark> */
          sub.appendChild(ex); li.appendChild(sub);
        });
        ol.appendChild(li);
      });
      group.appendChild(ol);
    }).catch(function () { status.textContent = "The full-text index is not available."; });
  }

  function init() {
    document.querySelectorAll("form[role=search]").forEach(wireForm);
    permalinks();
    searchPage();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
  window.crsearch = { parseNumber: parseNumber, matchTerms: matchTerms, distance: distance, loadTerms: loadTerms };
})();
