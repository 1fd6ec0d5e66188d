/* crsearch site: the page around the rules.  Old-style anchors (#R70219c),
   the sticky header's height and current rule, the release switcher, the
   service worker that keeps the site offline (and what it says about it),
   and rule pages made offline from their chapter's page.  No external
   scripts. */
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="crsearch-root"]');
  var root = meta ? meta.getAttribute("content") || "" : "";

  /* "R70219c", "r702.19c", "702-19c", "rule-702.19c", "CR702_19C" -> "702.19c".
     Yawgatog-style anchors have no dots: chapter (3 digits), rule, letters. */
  function ruleId(hash) {
    var h = hash.replace(/^(?:cr|rule|r)[-_.]?/i, "").toLowerCase();
    var m = /^([1-9]\d\d)(?:[-_.]?(\d+))?(?:[-_.]?([a-z]{1,2}))?\.?$/.exec(h);
    if (!m || (m[3] && !m[2])) return null;
    return m[1] + (m[2] ? "." + String(Number(m[2])) + (m[3] || "") : "");
  }

  function followAlias() {
    var raw = location.hash.slice(1);
    if (!raw) return;
    try { raw = decodeURIComponent(raw); } catch (e) { return; }
    var id = ruleId(raw);
    if (!id || id === raw) return;
    /* The article carries "R70219c" too, but the rule's own id is the one to keep. */
    if (document.getElementById(id)) { location.replace("#" + id); return; }
    if (document.getElementById(raw)) return;
    /* The rule is on its chapter's page (a link to the home page, say). */
    var chapter = id.split(".")[0];
    var here = location.pathname.split("/").pop();
    if (here !== chapter + ".html") location.replace(chapter + ".html#" + id);
  }

  /* The sticky header's height: anchored rules scroll to just below it. */
  function stickyHeight() {
    var top = document.querySelector("header.top");
    if (top) document.documentElement.style.setProperty("--sticky-h", top.offsetHeight + "px");
  }

  /* The header grows when a line is added to it (the offline sign) after
     the page has scrolled to a rule: the browser keeps the text where it was
     (scroll anchoring), so the rule would slip under the header; it moves
     down with the header instead. */
  function followHeader() {
    var top = document.querySelector("header.top");
    if (!top || !window.ResizeObserver) return;
    var last = top.offsetHeight;
    new ResizeObserver(function () {
      var h = top.offsetHeight;
      if (h === last) return;
      var delta = h - last;
      last = h;
      stickyHeight();
      if (window.scrollY > 0) window.scrollBy(0, -delta);
    }).observe(top);
  }

  /* On a chapter page the breadcrumb names the rule being read. */
  function currentRule() {
    var box = document.querySelector(".chapter[data-chapter]");
    var crumbs = document.querySelector("header .crumbs ol");
    if (!box || !crumbs) return;
    var heads = Array.prototype.slice.call(box.querySelectorAll("article.rule > h2.num"));
    if (!heads.length) return;
    var li = document.createElement("li");
    li.className = "crumb-rule";
    li.hidden = true;
    var a = document.createElement("a");
    li.appendChild(a);
    crumbs.appendChild(li);
    var shown = null, pending = false;
    function update() {
      pending = false;
      var line = (parseInt(getComputedStyle(document.documentElement).getPropertyValue("--sticky-h"), 10) || 0) + 8;
      var lo = 0, hi = heads.length - 1, found = -1;
      while (lo <= hi) {
        var mid = (lo + hi) >> 1;
        if (heads[mid].getBoundingClientRect().top <= line) { found = mid; lo = mid + 1; } else hi = mid - 1;
      }
      var h = found >= 0 ? heads[found] : null;
      if (h === shown) return;
      shown = h;
      li.hidden = !h;
      if (h) {
        var link = h.querySelector("a");
        a.href = link ? link.getAttribute("href") : "#" + h.id;
        var title = h.querySelector(".rule-title");
        a.textContent = h.id + (title ? " " + title.textContent : "");
      }
    }
    window.addEventListener("scroll", function () {
      if (!pending) { pending = true; requestAnimationFrame(update); }
    }, { passive: true });
    update();
  }

  /* Every page of a multi-release site can switch to the same page in another release. */
  function releaseSwitcher() {
    var box = document.querySelector(".release-switch");
    var dates = window.CRSEARCH_RELEASES;
    if (!box || !dates || dates.length < 2) return;
    var current = box.getAttribute("data-current");
    var page = location.pathname.split("/").pop() || "index.html";
    var hash = location.hash;
    var m = /^([1-9]\d\d)\.(\d+[a-z]*)\.html$/.exec(page);
    if (m) { hash = "#" + m[1] + "." + m[2]; page = m[1] + ".html"; }  /* rule pages: older releases have chapters */
    var label = document.createElement("label");
    label.textContent = "Release ";
    var select = document.createElement("select");
    select.setAttribute("aria-label", "Show this page in another release");
    dates.forEach(function (d, i) {
      var opt = document.createElement("option");
      opt.value = d;
      opt.textContent = d + (i === 0 ? " (latest)" : "");
      if (d === current) opt.selected = true;
      select.appendChild(opt);
    });
    select.addEventListener("change", function () {
      var d = select.value, folder = d === dates[0] ? "" : d + "/";
      var target = m && d === dates[0] ? location.pathname.split("/").pop() + location.hash : page + hash;
      if (page === "changes.html" && d === dates[dates.length - 1]) target = "index.html";
      location.href = root + folder + target;
    });
    label.appendChild(select);
    box.insertBefore(label, box.firstChild);
  }

  /* A rule page opened offline that was never fetched: the service worker
     answers with its chapter's page (sw.js), narrowed here to the rule and
     its subrules, with the rule page's breadcrumb, context and neighbours. */
  function ruleFromChapter() {
    var m = /^([1-9]\d\d)\.(\d+[a-z]*)\.html$/.exec(location.pathname.split("/").pop());
    var box = document.querySelector(".chapter[data-chapter]");
    if (!m || !box || box.getAttribute("data-chapter") !== m[1]) return;
    var id = m[1] + "." + m[2];
    var arts = Array.prototype.slice.call(box.querySelectorAll("article.rule"));
    var ids = arts.map(function (a) { var h = a.querySelector(".num"); return h ? h.id : ""; });
    var at = ids.indexOf(id);
    var main = document.getElementById("main");
    if (at < 0) {
      main.innerHTML = "";
      var h = document.createElement("h1");
      h.textContent = "Rule " + id + " is not in this release";
      main.appendChild(h);
      return;
    }
    var subrule = /[a-z]$/.test(id);
    var parentId = subrule ? id.replace(/[a-z]+$/, "") : null;
    var shown = [arts[at]];
    if (!subrule) {
      for (var i = at + 1; i < arts.length && new RegExp("^" + id.replace(/\./g, "\\.") + "[a-z]+$").test(ids[i]); i++) {
        shown.push(arts[i]);
      }
    }
    function numText(k) { var n = arts[k].querySelector(".num a"); return n ? n.textContent : ids[k]; }
    function titleOf(k) {
      var t = arts[k].querySelector(".rule-title");
      if (t) return t.textContent;
      var p = arts[k].querySelector("p.t");
      return p ? p.textContent.split(/\s+/).slice(0, 10).join(" ") : "";
    }
    function link(href, text) { var a = document.createElement("a"); a.href = href; a.textContent = text; return a; }
    var chapterTitle = box.querySelector("h1 .chapter-title");
    var chapterName = m[1] + ". " + (chapterTitle ? chapterTitle.textContent : "");

    var page = document.createElement("div");
    page.className = "rule-page";
    page.setAttribute("data-rule", id);
    var body = document.createElement("div");
    body.className = "rule-body";
    var head = shown[0].querySelector(".num");
    var h1 = document.createElement("h1");
    h1.className = head.className; h1.id = head.id; h1.innerHTML = head.innerHTML;
    head.parentNode.replaceChild(h1, head);
    shown[0].classList.add("main");
    body.appendChild(shown[0]);
    var context = document.createElement("p");
    context.className = "rule-context";
    var pk = parentId ? ids.indexOf(parentId) : -1;
    if (pk >= 0) {
      context.appendChild(document.createTextNode("Subrule of "));
      context.appendChild(link(parentId + ".html", numText(pk) + " " + titleOf(pk)));
      context.appendChild(document.createTextNode(" · "));
    }
    context.appendChild(link(m[1] + ".html#" + id, "Read in chapter " + m[1]));
    body.appendChild(context);
    shown.slice(1).forEach(function (a) { body.appendChild(a); });
    page.appendChild(body);
    var note = document.createElement("p");
    note.className = "offline-note";
    note.textContent = "Shown from the copy of chapter " + m[1] + " saved on this device; "
      + "the rule's history and the rules it cites are on its page online.";
    page.appendChild(note);
    var nav = document.createElement("nav");
    nav.className = "prevnext";
    nav.setAttribute("aria-label", "Rules");
    var before = at - 1, after = at + 1;
    if (before >= 0) {
      var prev = link(ids[before] + ".html", " " + ids[before]); prev.rel = "prev";
      var dp = document.createElement("span"); dp.className = "dir"; dp.textContent = "← Previous";
      prev.insertBefore(dp, prev.firstChild); nav.appendChild(prev);
    } else nav.appendChild(document.createElement("span"));
    if (after < arts.length) {
      var next = link(ids[after] + ".html", " " + ids[after]); next.rel = "next";
      var dn = document.createElement("span"); dn.className = "dir"; dn.textContent = "Next →";
      next.insertBefore(dn, next.firstChild); nav.appendChild(next);
    }
    page.appendChild(nav);
    main.innerHTML = "";
    main.appendChild(page);

    /* Breadcrumb: Contents › section › chapter › (the rule above) › this one. */
    var crumbs = document.querySelector("header .crumbs ol");
    if (crumbs && crumbs.lastElementChild) {
      var last = crumbs.lastElementChild;
      last.innerHTML = "";
      last.appendChild(link(m[1] + ".html", chapterName));
      function crumb(node) { var li = document.createElement("li"); li.appendChild(node); crumbs.appendChild(li); }
      if (pk >= 0) crumb(link(parentId + ".html", numText(pk) + " " + titleOf(pk)));
      var here = document.createElement("span");
      here.setAttribute("aria-current", "page");
      here.textContent = numText(at);
      crumb(here);
    }
    document.body.className = document.body.className.replace(/\bpage-chapter\b/, "page-rule");
    var date = document.querySelector('meta[name="crsearch-effective-date"]');
    document.title = (numText(at) + " " + titleOf(at)).trim() + " · Comprehensive Rules "
      + (date ? date.getAttribute("content") : "");
  }

  /* The offline copy of the latest release, as the service worker reports it:
     a progress bar while its bundles come, then "Ready offline". */
  function offlineStatus(worker) {
    var box = document.querySelector(".offline-status");
    if (!box) return;
    var bar = null;
    worker.addEventListener("message", function (ev) {
      var s = ev.data;
      if (!s || s.type !== "crsearch-offline") return;
      box.hidden = false;
      box.className = "offline-status " + s.state;
      if (s.state === "ready") {
        box.textContent = "Ready offline (release " + s.release + ")";
        box.title = "Every page and the search of this release work without a connection.";
        bar = null;
      } else if (s.state === "failed") {
        box.textContent = "Offline copy incomplete: it resumes on the next visit";
        bar = null;
      } else {
        var pct = s.total ? Math.floor(100 * s.done / s.total) : 0;
        if (!bar) {
          box.textContent = "";
          box.appendChild(document.createTextNode("Saving for offline use "));
          bar = document.createElement("progress");
          bar.max = 100;
          box.appendChild(bar);
          box.appendChild(document.createElement("span"));
        }
        bar.value = pct;
        bar.setAttribute("aria-label", "Saved for offline use");
        box.lastChild.textContent = " " + pct + "%";
      }
    });
    worker.startMessages();
    var ask = function () {
      worker.ready.then(function (reg) { if (reg.active) reg.active.postMessage("crsearch-offline"); });
    };
    worker.addEventListener("controllerchange", ask);
    ask();
  }

  /* After the page has loaded, so precaching the site never slows the first visit. */
  function registerWorker() {
    if (!("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) return;
    var go = function () {
      navigator.serviceWorker.register(root + "sw.js").then(function () {
        offlineStatus(navigator.serviceWorker);
      }).catch(function () { /* offline use is optional */ });
    };
    var later = function () {
      if (window.requestIdleCallback) window.requestIdleCallback(go, { timeout: 3000 });
      else setTimeout(go, 1000);
    };
    if (document.readyState === "complete") later();
    else window.addEventListener("load", later, { once: true });
  }

  /* On a phone the breadcrumb scrolls sideways: show its end, the page itself. */
  function crumbsToEnd() {
    var c = document.querySelector("header .crumbs");
    if (c && c.scrollWidth > c.clientWidth) c.scrollLeft = c.scrollWidth;
  }

  function init() {
    ruleFromChapter();
    crumbsToEnd();
    stickyHeight();
    followHeader();
    followAlias();
    currentRule();
    releaseSwitcher();
    registerWorker();
    window.addEventListener("resize", stickyHeight);
    window.addEventListener("hashchange", followAlias);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
  window.crsearchApp = { ruleId: ruleId };
})();
