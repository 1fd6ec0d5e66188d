/* Explain a card, offline: the same matching as crsearch/desk/explain.py `find`
 * (and crsearch/desk/abilities.py `read` for the readings of abilities).
 * The term table, the readings' patterns and the small hand-written tables
 * come from explain-terms.js (window.CRSEARCH_EXPLAIN, written by
 * `crsearch site build`), so nothing here is a second copy of the rules'
 * vocabulary or of the English of abilities: only the algorithm is.
 */
(function () {
  "use strict";
  var T = window.CRSEARCH_EXPLAIN;
  if (!T) return;
  var IRREGULAR = T.irregular;
  var VERB_NEXT = new Set(T.counter_verb_next), VERB_PREV = new Set(T.counter_verb_prev);
  var ZONE_PREV = new Set(T.exile_zone_prev), NOT_A_KIND = new Set(T.not_a_kind);
  var LAND_TYPES = new Set(T.land_types || []);
  var TYPE_WORDS = new Set(T.type_words || []), SUBTYPE_KINDS = new Set(T.subtype_kinds || []);
  var PREDICATES = new Set(T.predicates || []);
  // The patterns are written in the subset of regular expressions that Python
  // (re.M | re.A) and JavaScript ("gmu") read alike; see abilities.py.
  var READINGS = (T.readings || []).map(function (r) { return [r, new RegExp(r.pattern, "gmu")]; });
  var FACE_BREAK = T.face_break ? new RegExp(T.face_break, "gmu") : null;
  var TOKEN = /\{[^{}\s]{1,8}\}|[+\-\u2212]?[0-9X]+\/[+\-\u2212]?[0-9X]+|[\p{L}\p{N}]+(?:['\u2019][\p{L}\p{N}]+)*|[\u2014\u2013]/gu;
  var ALPHA = /^\p{L}+$/u;

  function lemma(word) {
    var w = word.toLowerCase().replace(/\u2019/g, "'");
    if (w.endsWith("'s")) w = w.slice(0, -2);
    var suffix = false;
    if (Object.prototype.hasOwnProperty.call(IRREGULAR, w)) {
      w = IRREGULAR[w];
    } else if (w.length > 3 && ALPHA.test(w)) {
      if ((w.endsWith("ies") || w.endsWith("ied")) && w.length > 4) w = w.slice(0, -3) + "y";
      else if (/(sses|ches|shes|xes|zes)$/.test(w)) w = w.slice(0, -2);
      else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
      else if (w.endsWith("ing") && w.length > 5) { w = w.slice(0, -3); suffix = true; }
      else if (w.endsWith("ed") && w.length > 4) { w = w.slice(0, -2); suffix = true; }
    }
    if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
    if (suffix && w.length > 3 && w[w.length - 1] === w[w.length - 2] &&
        "aeioulsz".indexOf(w[w.length - 1]) < 0) {
      w = w.slice(0, -1);
    }
    return w;
  }

  function tokens(text) {
    var out = [], m;
    TOKEN.lastIndex = 0;
    while ((m = TOKEN.exec(text)) !== null) {
      var t = m[0];
      var key = t[0] === "{" ? t.toUpperCase() : (/^\p{L}/u.test(t) ? lemma(t) : t);
      out.push([m.index, m.index + t.length, key]);
    }
    return out;
  }

  function sticky(source) { return new RegExp(source, "uy"); }
  var P_N = sticky("[ \\u00a0]+(?:[0-9]+|X)(?![\\p{L}\\p{N}_])");
  var P_COST = sticky("[ \\u00a0]*(?:\\{[^{}\\s]{1,8}\\})+");
  var P_DASH = sticky("[ \\u00a0]*[\\u2014\\u2013][ \\u00a0]*[^.:\\r\\n(]+");
  var P_WORDS = {
    f: sticky("[ \\u00a0]+from [^,.;:\\n(]+?(?:(?: and|,)(?: from)? [^,.;:\\n(]+?)*(?=$|[,.;:\\n(]| and [a-z]+ )"),
    o: sticky("[ \\u00a0]+(?:for|onto) [\\p{L}\\p{N}_\\u2019'-]+"),
    w: sticky("[ \\u00a0]+with [^{\\n.,(]+?(?= ?[{(]|$|[\\n.,])"),
    a: sticky("[ \\u00a0]+an? [\\p{L}\\p{N}_\\u2019'-]+(?: [\\p{L}\\p{N}_\\u2019'-]+)?(?=$|[,.;:\\n(])"),
    e: sticky("[ \\u00a0]+[^.\\r\\n(]+")
  };
  function at(re, text, pos) { re.lastIndex = pos; var m = re.exec(text); return m ? re.lastIndex : -1; }

  function params(text, end, shape) {
    var letters = "fowae", e;
    for (var k = 0; k < letters.length; k++) {
      if (shape.indexOf(letters[k]) >= 0) {
        e = at(P_WORDS[letters[k]], text, end);
        if (e >= 0) { end = e; break; }
      }
    }
    if (shape.indexOf("n") >= 0) { e = at(P_N, text, end); if (e >= 0) end = e; }
    if (shape === "b") { e = at(P_COST, text, end); return e >= 0 ? e : end; }
    if (shape.indexOf("c") >= 0 || shape.indexOf("d") >= 0) {
      e = at(P_COST, text, end);
      if (e >= 0) end = e;
      else {
        e = at(P_DASH, text, end);
        if (e >= 0) end = text.slice(0, e).replace(/\s+$/, "").length;
      }
    }
    return end;
  }

  function adjacent(text, toks) {
    for (var k = 0; k + 1 < toks.length; k++) {
      var gap = text.slice(toks[k][1], toks[k + 1][0]);
      if ([" ", "-", "\u00a0", "- ", " -"].indexOf(gap) < 0 &&
          !(gap === "" && "\u2014\u2013".indexOf(text[toks[k + 1][0]]) >= 0)) {
        if (!(gap.trim() === "" && gap.length <= 2 && gap.indexOf("\n") < 0)) return false;
      }
    }
    return true;
  }

  function base(id) { return id.split("#")[0]; }

  function term(text, start, end, m) {
    var id = base(m.id);
    return {span: [start, end], text: text.slice(start, end), term: m.term, id: id, kind: m.kind,
            definition: m.definition, source: base(m.source || id), url: T.urls[m.id] || T.urls[id] || ""};
  }

  function choose(ids, toks, i, n, text) {
    if (ids.length === 1 || n > 1) return ids[0];
    var word = toks[i][2], raw = text.slice(toks[i][0], toks[i][1]).toLowerCase();
    var prev = i > 0 ? toks[i - 1][2] : "", nxt = i + 1 < toks.length ? toks[i + 1][2] : "";
    var byKind = {};
    ids.slice().reverse().forEach(function (x) { byKind[T.meanings[x].kind] = x; });
    if (word === "counter") {
      var verb = raw === "countered" || raw === "countering" ||
        (raw === "counter" && (VERB_NEXT.has(nxt) || VERB_PREV.has(prev)));
      if (verb && byKind["keyword action"]) return byKind["keyword action"];
      return byKind.counter || ids[0];
    }
    if (word === "exil") {
      if ((ZONE_PREV.has(prev) || nxt === "zone") && raw === "exile" && byKind.zone) return byKind.zone;
      return byKind["keyword action"] || ids[0];
    }
    for (var k = 0; k < ids.length; k++) if (T.meanings[ids[k]].term.toLowerCase() === raw) return ids[k];
    return ids[0];
  }

  function counterKind(text, toks, i, start, id) {
    if (i === 0) return [start, id];
    var p = toks[i - 1], gap = text.slice(p[1], start);
    if (gap !== " " && gap !== "\u00a0") return [start, id];
    var ids;
    if (/^[+\-\u2212][0-9X]+\/[+\-\u2212][0-9X]+$/.test(p[2])) {
      ids = T.keys["+N/+N counter"];
      return [p[0], ids ? ids[0] : id];
    }
    if (NOT_A_KIND.has(p[2]) || !ALPHA.test(p[2])) return [start, id];
    var kw = T.keys[p[2]] || [];
    if (kw.some(function (x) { return T.meanings[x].kind === "keyword ability"; })) {
      ids = T.keys["KEYWORD counter"];
      return [p[0], ids ? ids[0] : id];
    }
    return [p[0], id];
  }

  function special(text, toks, i) {
    var word = text.slice(toks[i][0], toks[i][1]).toLowerCase();
    var kinds = [["walk", "landwalk"], ["cycling", "cycling"]];
    for (var k = 0; k < kinds.length; k++) {
      var suffix = kinds[k][0], id = T[kinds[k][1]];
      if (id && word.endsWith(suffix) && word.length > suffix.length) {
        var prefix = word.slice(0, -suffix.length);
        if (kinds[k][1] === "landwalk" && !LAND_TYPES.has(lemma(prefix)) &&
            prefix !== "land" && prefix !== "nonbasic land") continue;
        var m = T.meanings[id];
        var end = kinds[k][1] === "cycling" ? params(text, toks[i][1], m.params || "") : toks[i][1];
        return [term(text, toks[i][0], end, m), i + 1];
      }
    }
    return null;
  }

  function asACardWritesIt(text, toks, i, n, m) {
    if (m.kind === "supertype") {
      var nxt = i + n < toks.length ? toks[i + n][2] : "";
      var prev = i > 0 ? text.slice(toks[i - 1][0], toks[i - 1][1]).toLowerCase() : "";
      return TYPE_WORDS.has(nxt) || PREDICATES.has(prev);
    }
    if (SUBTYPE_KINDS.has(m.kind)) {
      var c = text[toks[i][0]];
      return c === c.toUpperCase() && c !== c.toLowerCase();
    }
    return true;
  }

  function asPrinted(surface, m, b) {
    var s = surface.toLowerCase().split(/\s+/).filter(Boolean).join(" ");
    return s === m.term.toLowerCase() || s === b.term.toLowerCase() || s.endsWith("cycling");
  }

  function words(text) {
    var toks = tokens(text), found = [], i = 0, maxWords = T.max_words || 6;
    while (i < toks.length) {
      var hit = null;
      for (var n = Math.min(maxWords, toks.length - i); n > 0; n--) {
        var span = toks.slice(i, i + n);
        if (n > 1 && !adjacent(text, span)) continue;
        var words = span.map(function (t) { return t[2]; });
        var ids = T.keys[words.join(" ")];
        if (n === 1) ids = T.keys["=" + text.slice(toks[i][0], toks[i][1]).toLowerCase()] || ids;
        if (ids && words[words.length - 1] === "\u2014") { hit = [n - 1, ids]; break; }
        if (ids) { hit = [n, ids]; break; }
      }
      var start = toks[i][0], word = toks[i][2];
      if (!hit) {
        var sp = special(text, toks, i);
        if (sp) { found.push(sp[0]); i = sp[1]; continue; }
        i += 1;
        continue;
      }
      n = hit[0];
      var end = toks[i + n - 1][1];
      var id = choose(hit[1], toks, i, n, text);
      var m = T.meanings[id];
      if (!asACardWritesIt(text, toks, i, n, m)) { i += 1; continue; }
      if (word === "counter" && n === 1 && m.kind === "counter") {
        var ck = counterKind(text, toks, i, start, id);
        start = ck[0]; id = ck[1]; m = T.meanings[id];
        if (found.length && found[found.length - 1].span[1] > start) found.pop();
      }
      var b = T.meanings[base(m.id)] || m;
      var shape = m.params || (/^70[12]\./.test(b.id) ? (b.params || "") : "");
      if (shape && asPrinted(text.slice(start, end), m, b)) {
        if (start > 0 && text[start - 1] !== "\n") shape = shape.replace("e", "");
        end = params(text, end, shape);
      }
      if (n === 1 && word === "die" && i > 0 && ["a", "sided", "the", "six", "twenty", "that"]
          .indexOf(text.slice(toks[i - 1][0], toks[i - 1][1]).toLowerCase()) >= 0) {
        i += 1;
        continue;
      }
      found.push(term(text, start, end, m));
      i += n;
      while (i < toks.length && toks[i][0] < end) i += 1;
    }
    return found;
  }

  function faces(text) {
    var out = [], start = 0, m;
    if (FACE_BREAK) {
      FACE_BREAK.lastIndex = 0;
      while ((m = FACE_BREAK.exec(text)) !== null) {
        out.push([start, m.index]);
        start = m.index + m[0].length;
      }
    }
    out.push([start, text.length]);
    return out;
  }

  function crosses(a, b) {
    return a[0] < b[1] && b[0] < a[1] &&
      !((a[0] <= b[0] && b[1] <= a[1]) || (b[0] <= a[0] && a[1] <= b[1]));
  }

  function aroundTerms(span, terms) {
    var start = span[0], end = span[1], widened = true;
    while (widened) {
      widened = false;
      for (var k = 0; k < terms.length; k++) {
        var ts = terms[k].span[0], te = terms[k].span[1];
        if (ts < start && start < te) return null;
        if (start <= ts && ts < end && end < te) { end = te; widened = true; }
      }
    }
    return [start, end];
  }

  function read(text, terms) {
    var found = [], dropped = new Set();
    faces(text).forEach(function (f) {
      var fs = f[0], fe = f[1];
      if (!terms.some(function (t) { return fs <= t.span[0] && t.span[0] < fe; })) return;
      var face = text.slice(fs, fe), taken = [];
      READINGS.forEach(function (pair) {
        var r = pair[0], re = pair[1], m;
        re.lastIndex = 0;
        while ((m = re.exec(face)) !== null) {
          if (m[0].length === 0) { re.lastIndex += 1; continue; }
          var end = m.index + m[0].length, start = end - m[1].length;
          if (start === end) continue;
          var span = aroundTerms([fs + start, fs + end], terms);
          if (span === null || taken.some(function (x) {
            return (x[2] === r.group && x[0] < span[1] && span[0] < x[1]) || crosses(span, x);
          })) continue;
          taken.push([span[0], span[1], r.group, r]);
        }
      });
      var conditions = taken.filter(function (x) { return x[2] === "trigger"; });
      taken.forEach(function (x) {
        var s = x[0], e = x[1], r = x[3];
        if (x[2] !== "trigger" && conditions.some(function (c) { return c[0] <= s && e <= c[1]; })) return;
        found.push({span: [s, e], text: text.slice(s, e), term: r.term, id: r.id, kind: r.kind,
                    definition: r.definition, source: r.id, url: T.urls[r.id] || ""});
        terms.forEach(function (t, k) {
          if (r.drop.length && s <= t.span[0] && t.span[1] <= e &&
              r.drop.indexOf(text.slice(t.span[0], t.span[1]).toLowerCase()) >= 0) dropped.add(k);
        });
      });
    });
    found.sort(function (a, b) { return a.span[0] - b.span[0] || b.span[1] - a.span[1]; });
    return [found, dropped];
  }

  function find(text) {
    var terms = words(text), got = read(text, terms), rows = [];
    terms.forEach(function (t, k) { if (!got[1].has(k)) rows.push([t.span[0], -t.span[1], 1, k, t]); });
    got[0].forEach(function (t, k) { rows.push([t.span[0], -t.span[1], 0, k, t]); });
    rows.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || a[3] - b[3]; });
    return rows.map(function (row) { return row[4]; });
  }

  window.crsearchExplain = find;

  var READING_KINDS = new Set(T.reading_kinds || []);

  // The text with its terms marked; a reading's span (which may hold terms)
  // is underlined instead, so terms inside it stay visible.
  function markUp(box, text, terms) {
    var stack = [[box, text.length]], pos = 0;
    function close() {
      var top = stack.pop();
      top[0].appendChild(document.createTextNode(text.slice(pos, top[1])));
      pos = top[1];
    }
    terms.forEach(function (t, k) {
      while (stack.length > 1 && stack[stack.length - 1][1] <= t.span[0]) close();
      var parent = stack[stack.length - 1][0];
      parent.appendChild(document.createTextNode(text.slice(pos, t.span[0])));
      pos = t.span[0];
      var el;
      if (READING_KINDS.has(t.kind)) {
        el = document.createElement("span");
        el.className = "reading";
        el.style.textDecoration = "underline";
      } else {
        el = document.createElement("mark");
      }
      el.title = t.term + " (" + t.id + ")";
      el.id = "term-mark-" + (k + 1);
      parent.appendChild(el);
      stack.push([el, t.span[1]]);
    });
    while (stack.length > 1) close();
    box.appendChild(document.createTextNode(text.slice(pos)));
  }

  function show(text) {
    var terms = find(text);
    var box = document.getElementById("explain-text");
    var list = document.getElementById("explain-terms");
    var none = document.getElementById("explain-none");
    box.textContent = "";
    list.textContent = "";
    markUp(box, text, terms);
    box.hidden = !text.trim();
    terms.forEach(function (t) {
      var li = document.createElement("li");
      var name = document.createElement("strong");
      name.textContent = t.text;
      li.appendChild(name);
      li.appendChild(document.createTextNode(" "));
      var ref = document.createElement(t.url ? "a" : "span");
      if (t.url) ref.href = t.url;
      ref.className = "term-id";
      ref.textContent = t.id.indexOf("glossary:") === 0 ? "Glossary: " + t.id.slice(9) : t.id;
      li.appendChild(ref);
      var kind = document.createElement("span");
      kind.className = "term-kind";
      kind.textContent = " " + t.kind;
      li.appendChild(kind);
      var def = document.createElement("p");
      def.textContent = t.definition;
      li.appendChild(def);
      list.appendChild(li);
    });
    none.hidden = terms.length > 0 || !text.trim();
  }

  function init() {
    var form = document.getElementById("explain-form");
    if (!form) return;
    var area = document.getElementById("card-text");
    var q = new URLSearchParams(window.location.search).get("text");
    if (q) { area.value = q; show(q); }
    form.addEventListener("submit", function (e) { e.preventDefault(); show(area.value); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
