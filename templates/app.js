/* crsearch site: the page around the rules.  Old-style anchors (#R70219c),
   the sticky header's height and current rule, the release switcher, and the
   service worker that keeps the site offline.  No external scripts. */
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

  /* After the page has loaded, so precaching the site never slows the first visit. */
  function registerWorker() {
    if (!("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) return;
    var go = function () {
      navigator.serviceWorker.register(root + "sw.js").catch(function () { /* offline use is optional */ });
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
    crumbsToEnd();
    stickyHeight();
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
