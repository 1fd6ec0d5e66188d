/* crsearch's ranking, for the site's pages and for node: the one place in
   JavaScript where a query is read and ranked.

   It runs the stages of crsearch/search/engine.py with the embeddings off
   (Engine.search: query.py reads the query, exact.py places rule numbers,
   titles and keywords together, lexical.py retrieves and scores, boosts.py
   adds the topics and cards, fusion.subrules_first, present.py) and
   rules/numbers.py's rule numbers, over the data that
   crsearch/site/searchdata.py exports at build time: every word's stem
   (this file never stems), the folding and wording tables, every knob of
   RankingConfig, the BM25F scores, the judges' topics and the rules-famous
   cards carried into the release.  No table and no weight is written here.

   Pure: no DOM, no window, no document.  Data files are read through the
   ``load(name, file)`` function given to ``new Engine(...)``, which returns
   a promise of the file's data (the pages add a <script>, node reads the
   file).  Loaded as a classic script after text.js (its words and data
   files) it defines ``CrsearchRank``; under node, ``require`` returns the
   same object.  tools/site_parity.py checks that it ranks every bench
   query as the CLI does. */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module && module.exports) module.exports = factory(require("./text.js"));
  else root.CrsearchRank = factory(root.CrsearchText);
}(typeof globalThis !== "undefined" ? globalThis : this, function (T) {
  "use strict";

  /* The data's shape this file reads (searchdata.FORMAT). */
  const FORMAT = 6;
  const GLOSSARY = "glossary:";

  const { Text, own, isAlpha, firstLetters, cardParts, shardKey, WORD_RE, CARD_TOKEN } = T;

  /* What errors.BadInput is in the CLI: a query that cannot be searched. */
  class BadInput extends Error {}

  /* -- Python's strings ----------------------------------------------------- */
  /* str.isspace(): what str.strip() and str.split() take away. */
  const PY_SPACE = "\t\n\u000b\u000c\r\u001c\u001d\u001e\u001f \u0085\u00a0\u1680\u2000\u2001\u2002" +
    "\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";
  function stripChars(s, chars) {
    let a = 0, b = s.length;
    while (a < b && chars.indexOf(s[a]) >= 0) a++;
    while (b > a && chars.indexOf(s[b - 1]) >= 0) b--;
    return s.slice(a, b);
  }
  function pyStrip(s) { return stripChars(s, PY_SPACE); }
  function pyRstrip(s) {
    let b = s.length;
    while (b > 0 && PY_SPACE.indexOf(s[b - 1]) >= 0) b--;
    return s.slice(0, b);
  }
  function pySplit(s) {
    const out = [];
    let cur = "";
    for (const c of s) {
      if (PY_SPACE.indexOf(c) >= 0) { if (cur) out.push(cur); cur = ""; } else cur += c;
    }
    if (cur) out.push(cur);
    return out;
  }
  function joinSplit(s) { return pySplit(s).join(" "); }
  /* Python's \w (str patterns): letters, numbers, the underscore. */
  const W = "\\p{L}\\p{N}_";
  function pairs(ws) {
    const out = new Set();
    for (let i = 1; i < ws.length; i++) out.add(ws[i - 1] + " " + ws[i]);
    return out;
  }
  function isUpperPy(s) {
    /* str.isupper(): some cased character, none lowercase. */
    let cased = false;
    for (const c of s) {
      if (c.toLowerCase() !== c.toUpperCase()) {
        cased = true;
        if (c !== c.toUpperCase() || c.toLowerCase() === c) return false;
      }
    }
    return cased;
  }
  function startsUpper(s) { return /^\p{Lu}/u.test(s); }

  /* -- numbers.py: rule numbers --------------------------------------------- */
  const LETTERS = "abcdefghijkmnpqrstuvwxyz";
  const DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212";
  const QUOTES = "\"'`\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u00ab\u00bb";
  const ASCII_SPACE = "[ \\t\\n\\r\\f\\v]";
  const PREFIX = new RegExp(`^(?:(?:cr|rules?|sections?|\u00a7)${ASCII_SPACE}*)+`, "i");
  /* "702.19.c" as some pages print it: a dot before the letters is allowed. */
  const LOOSE = new RegExp(`^([0-9]+)(?:\\.([0-9]+))?(?:\\.?${ASCII_SPACE}*([a-z]+))?$`, "i");
  /* A decimal comma ("702,19c"); three digits after it and no letter is a
     list of chapters ("110,111"). */
  const DECIMAL_COMMA = new RegExp(
    `([1-9][0-9]{2}),(?=[0-9]{1,2}(?:[.${ASCII_SPACE.slice(1, -1)}]*[a-z]{1,2})?$|[0-9]{3,4}[.${ASCII_SPACE.slice(1, -1)}]*[a-z])`, "i");
  /* Yawgatog's anchors: "R70219c" is 702.19c; a pasted link keeps its "#". */
  const YAWGATOG = /^(?:\S*#)?R([1-9][0-9]{2})([0-9]{0,4})([a-z]{0,2})$/i;
  const CANONICAL = /^(?:([1-9])|([1-9][0-9]{2})(?:\.([1-9][0-9]{0,3})([a-km-np-z]{1,2})?)?)$/;

  const BRACKETS = "()[]{}";
  /* numbers._unwrap: without whitespace, quotes and brackets around it
     ("(702.19c)", "702.19c)"). */
  function unwrap(text) { return pyStrip(stripChars(stripChars(pyStrip(text), QUOTES + BRACKETS + " \t"), QUOTES)); }
  function show(text) { return JSON.stringify(text.length <= 40 ? text : text.slice(0, 40) + "\u2026"); }
  function letterIndex(letters) {
    let n = 0;
    for (const c of letters) n = n * 24 + LETTERS.indexOf(c) + 1;
    return n - 1;
  }
  function letterReason(letters) {
    const bad = Array.from(letters).filter((c) => LETTERS.indexOf(c) < 0);
    return bad.every((c) => c === "l" || c === "o")
      ? "subrule letters skip 'l' and 'o', which the CR never uses"
      : "only lowercase letters a-z (without l and o) are subrule letters";
  }

  /* numbers.normalize: one forgivingly written id in canonical form. */
  function normalizeId(text) {
    let s = unwrap(text);
    const prefix = PREFIX.exec(s);
    if (prefix) s = unwrap(s.slice(prefix[0].length));
    if (s.endsWith(".")) s = pyRstrip(s.slice(0, -1));
    const yawgatog = YAWGATOG.exec(s);
    if (yawgatog) s = yawgatog[1] + (yawgatog[2] ? "." + yawgatog[2] : "") + yawgatog[3];
    s = s.replace(DECIMAL_COMMA, "$1.");
    const bad = (why) => new BadInput(`${show(text)} is not a rule number: ${why}`);
    if (!s) throw bad(prefix ? "it has no number" : "it is empty");
    const m = LOOSE.exec(s);
    if (!m) throw bad("expected a number such as 7, 702, 702.19 or 702.19c");
    const head = m[1], rule = m[2];
    let letters = m[3];
    if (head.length === 1) {
      if (head === "0") throw bad("sections run from 1 to 9");
      if (rule !== undefined || letters) throw bad("a rule number starts with a three-digit chapter, as in 702.19");
      return head;
    }
    if (head.length !== 3 || head[0] === "0") throw bad("chapters have three digits (100-999) and sections one (1-9)");
    if (rule === undefined) {
      if (letters) throw bad("subrule letters follow a rule number, as in 702.19c");
      return head;
    }
    const number = rule.replace(/^0+/, "");
    if (!number) throw bad("rule numbers start at 1");
    if (number.length > 4) throw bad("rule numbers have at most 4 digits");
    if (!letters) return `${head}.${number}`;
    letters = letters.toLowerCase();
    if (Array.from(letters).some((c) => LETTERS.indexOf(c) < 0)) throw bad(letterReason(letters));
    if (letters.length > 2) throw bad("subrules have at most 2 letters");
    return `${head}.${number}${letters}`;
  }

  /* numbers._key: [0|1, section|chapter, rule|-1, letters|-1], or null. */
  function idKey(id) {
    const m = CANONICAL.exec(id);
    if (!m) return null;
    if (m[1]) return [0, +m[1], -1, -1];
    return [1, +m[2], m[3] ? +m[3] : -1, m[4] ? letterIndex(m[4]) : -1];
  }
  function checkedKey(id) {
    const k = idKey(id);
    if (!k) throw new BadInput(`${JSON.stringify(id)} is not a canonical rule id`);
    return k;
  }
  function cmpKey(a, b) {
    for (let i = 0; i < 4; i++) if (a[i] !== b[i]) return a[i] - b[i];
    return 0;
  }
  function depth(k) { return k[0] === 0 ? 1 : k[2] < 0 ? 2 : k[3] < 0 ? 3 : 4; }
  function idKind(id) {
    if (id.startsWith(GLOSSARY)) return "glossary";
    return ["", "section", "chapter", "rule", "subrule"][depth(checkedKey(id))];
  }
  function parentId(id) {
    const d = depth(checkedKey(id));
    if (d === 1) return null;
    if (d === 2) return id[0];
    if (d === 3) return id.split(".")[0];
    return id.replace(/[a-z]+$/, "");
  }
  function ancestors(id) {
    const out = [];
    if (id.startsWith(GLOSSARY)) return out;
    for (let up = parentId(id); up !== null; up = parentId(up)) out.push(up);
    return out;
  }
  function contains(outer, inner) { return outer === inner || ancestors(inner).indexOf(outer) >= 0; }
  function isKeywordId(id) {
    const head = id.split(".")[0];
    return (head === "701" || head === "702") && id.indexOf(".") >= 0;
  }

  /* numbers._range_end: "d" after 510.1c is 510.1d, "8" after 119.7 is 119.8. */
  function rangeEnd(start, raw) {
    const skey = checkedKey(start), d = depth(skey);
    raw = pyStrip(raw).replace(DECIMAL_COMMA, "$1."); /* "702.19c-702,19e" */
    let end;
    if (isAlpha(raw)) {
      if (d !== 4) throw new BadInput(`range end ${raw} is letters, but ${start} has none`);
      end = normalizeId(start.replace(/[a-z]+$/, "") + raw);
    } else if (raw.indexOf(".") < 0 && d >= 3) {
      if (!/^\p{Nd}/u.test(raw) || (d === 4 && /^\p{Nd}+$/u.test(raw))) {
        throw new BadInput(`range end ${raw} is ambiguous after ${start}`);
      }
      end = normalizeId(start.split(".")[0] + "." + raw);
    } else end = normalizeId(raw);
    const ekey = checkedKey(end);
    if ((skey[0] === 0) !== (ekey[0] === 0)) throw new BadInput(`range ${start}\u2013${end} mixes a section with a chapter or rule`);
    if (cmpKey(ekey, skey) < 0) throw new BadInput(`range ${start}\u2013${end} ends before it starts`);
    return end;
  }

  const SPEC_TOKEN = new RegExp(
    `(${ASCII_SPACE}+)|([1-9][0-9]{2},[0-9]{1,2}(?![0-9])[A-Za-z0-9_.]*|[0-9][A-Za-z0-9_.]*|R[1-9][0-9]{2}[A-Za-z0-9_]*)|([${DASHES}]|\\b(?:to|through|thru)\\b)` +
    "|([,;&]|\\b(?:and|or)\\b)|(\\b(?:rules?|sections?|cr|see)\\b|cr(?=[0-9])|\u00a7)|(\\b[a-z]+\\b)", "iy");

  /* numbers.parse_spec: one id, a range or a list ("510.1c-d", "702.19c, 702.20"),
     as [start, end] pairs. */
  function parseSpec(text) {
    let single;
    try {
      const one = normalizeId(text);
      return [[one, one]];
    } catch (e) {
      if (!(e instanceof BadInput)) throw e;
      single = e;
    }
    let s = unwrap(text);
    if (s.endsWith(".")) s = s.slice(0, -1);
    try {
      return parseList(s, text);
    } catch (e) {
      if (!(e instanceof BadInput)) throw e;
      if (!Array.from(DASHES + ",;& \t").some((c) => s.indexOf(c) >= 0)) throw single;
      throw e;
    }
  }
  function parseList(s, text) {
    const bad = (why) => new BadInput(`${JSON.stringify(text)} is not a rule number, range or list: ${why}`);
    const spans = [];
    let open = false, glued = false, pos = 0;
    while (pos < s.length) {
      SPEC_TOKEN.lastIndex = pos;
      const m = SPEC_TOKEN.exec(s);
      if (!m) throw bad(`unexpected ${JSON.stringify(s.slice(pos))}`);
      pos = SPEC_TOKEN.lastIndex;
      const tok = m[0];
      if (m[1] !== undefined) continue;
      if (m[3] !== undefined || m[4] !== undefined || m[5] !== undefined) {
        if (open) throw bad(`the range before ${JSON.stringify(tok)} has no end`);
        if (m[3] !== undefined) {
          const last = spans[spans.length - 1];
          if (!last || last[0] !== last[1]) throw bad(`${JSON.stringify(tok)} does not follow a single rule number`);
          open = true;
        }
        glued = false;
        continue;
      }
      const last = spans.length ? spans[spans.length - 1][1] : null;
      if (open) {
        const start = spans[spans.length - 1][0];
        spans[spans.length - 1] = [start, rangeEnd(start, tok.replace(/\.+$/, ""))];
        open = false;
      } else if (m[6] !== undefined) {
        const d = last ? depth(checkedKey(last)) : 0;
        if (d === 3 && glued && last) {
          const id = normalizeId(last + tok);
          spans[spans.length - 1] = [id, id];
        } else if (d === 4 && last) {
          let id;
          try { id = normalizeId(last.replace(/[a-z]+$/, "") + tok); } catch (e) {
            if (e instanceof BadInput) throw bad(`unexpected ${JSON.stringify(tok)}`);
            throw e;
          }
          spans.push([id, id]);
        } else throw bad(`unexpected ${JSON.stringify(tok)}`);
      } else {
        const id = normalizeId(tok);
        spans.push([id, id]);
      }
      glued = true;
    }
    if (open) throw bad("the range has no end");
    if (!spans.length) throw bad("it names no rule");
    return spans;
  }

  /* numbers.expand: the ids of ``existing`` (in order) that a span covers. */
  function expand(span, existing, existingSet) {
    const skey = checkedKey(span[0]), ekey = checkedKey(span[1]);
    if (span[0] === span[1]) return existingSet.has(span[0]) ? [span[0]] : [];
    if ((skey[0] === 0) !== (ekey[0] === 0)) throw new BadInput(`range ${span[0]}\u2013${span[1]} mixes a section with a chapter or rule`);
    if (cmpKey(ekey, skey) < 0) throw new BadInput(`range ${span[0]}\u2013${span[1]} ends before it starts`);
    const d = Math.max(depth(skey), depth(ekey)), found = [];
    existing.forEach((id) => {
      const k = idKey(id);
      if (k && cmpKey(skey, k) <= 0 && cmpKey(k, ekey) <= 0 && depth(k) <= d) found.push([k, id]);
    });
    found.sort((a, b) => cmpKey(a[0], b[0]));
    return found.map((x) => x[1]);
  }

  /* numbers.find_references: the cross-references in running text, as
     [start, end, printed, spans]. */
  const REF_HEAD = new RegExp(
    "(\\b(?:(?:sub)?rules?|sections?)[ \\t\u00a0]+|\\bCR[ \\t\u00a0]*|\u00a7[ \\t\u00a0]*)(?=[0-9])" +
    "|\\b[Ss]ee[ \\t\u00a0]+()(?=[1-9][0-9]{2}\\b)" +
    "|(?<![A-Za-z0-9_.$/])()(?=[1-9][0-9]{2}\\.[1-9]|[1-9][0-9]{2},[1-9][0-9]?[a-z])" +
    "|(?<![A-Za-z0-9_/#])(R)(?=[1-9][0-9]{3,6}[a-z]{0,2}\\b)", "gi");
  /* "702.19.c" and "702,19c" (a decimal comma, only with letters) are 702.19c. */
  const REF_ID = /[0-9]+(?:\.[0-9]+(?:\.(?=[a-z]{1,2}\b))?|,[1-9][0-9]?(?=[a-z]))?(?:[a-z]+)?(?![A-Za-z0-9_]|\.[0-9])/y;
  const REF_RANGE_END = new RegExp(
    `(?:[ ]?[${DASHES}][ ]?|\\?)([0-9]+(?:\\.[0-9]+)?[a-z]*|[a-z]+)(?![A-Za-z0-9_]|\\.[0-9])`, "y");
  const REF_SEP = new RegExp(
    "(?:,[ ]*[\u201c\"][^\u201c\u201d\"\\r\\n]{1,80}(?:,[\u201d\"]|[\u201d\"],)[ ]*" +
    "|[ ]*,[ ]*|[ ]+(?=(?:and|or)[ ]))(?:(?:and|or)[ ]+)?", "y");
  const REF_TITLE_NEXT = /,[ ]*[\u201c"]/y;
  const REF_SIBLING = /[b-km-np-z](?![A-Za-z0-9_'\u2019-]|\.[A-Za-z0-9_])/y;
  function at(re, text, pos) { re.lastIndex = pos; return re.exec(text); }

  function refItem(text, pos, prev, head) {
    const m = at(REF_ID, text, pos);
    if (head === "yaw") {
      /* Yawgatog's anchor, "R70219c": one id, never a list or range. */
      if (!m) return null;
      let id;
      try { id = normalizeId("R" + m[0]); } catch (e) {
        if (e instanceof BadInput) return null;
        throw e;
      }
      return id ? [pos + m[0].length, [id, id]] : null;
    }
    if (!m) {
      const s = at(REF_SIBLING, text, pos);
      if (!s || prev === null || depth(checkedKey(prev)) !== 4) return null;
      const id = prev.replace(/[a-z]+$/, "") + s[0];
      if (cmpKey(checkedKey(id), checkedKey(prev)) <= 0) return null;
      return [pos + s[0].length, [id, id]];
    }
    let start;
    try { start = normalizeId(m[0]); } catch (e) {
      if (e instanceof BadInput) return null;
      throw e;
    }
    const d = depth(checkedKey(start)), after = pos + m[0].length;
    if (d <= 2 && !at(REF_TITLE_NEXT, text, after)) {
      const vouched = prev === null ? (d === 1 ? head.startsWith("section") : head !== "see")
        : depth(checkedKey(prev)) === d && (d === 2 || head === "sections");
      if (!vouched) return null;
    }
    let end = start, stop = after;
    const r = at(REF_RANGE_END, text, stop);
    if (r) {
      try {
        end = rangeEnd(start, r[1]);
        stop = stop + r[0].length;
      } catch (e) {
        if (!(e instanceof BadInput)) throw e;
      }
    }
    return [stop, [start, end]];
  }

  function findReferences(text) {
    const found = [];
    let pos = 0;
    for (;;) {
      REF_HEAD.lastIndex = pos;
      const h = REF_HEAD.exec(text);
      if (!h) return found;
      const hEnd = h.index + h[0].length;
      let head;
      if (h[1] !== undefined) {
        const word = pyStrip(h[1]).toLowerCase();
        head = word.startsWith("section") ? word : "rule";
      } else if (h[4] !== undefined) head = "yaw";
      else head = h[2] !== undefined ? "see" : "bare";
      const item = refItem(text, hEnd, null, head);
      if (!item) { pos = Math.max(hEnd, h.index + 1); continue; }
      let stop = item[0];
      const spans = [item[1]];
      while (head !== "yaw") {
        const sep = at(REF_SEP, text, stop);
        if (!sep) break;
        const next = refItem(text, stop + sep[0].length, spans[spans.length - 1][1], head);
        if (!next) break;
        stop = next[0];
        spans.push(next[1]);
      }
      const start = h[1] !== undefined || h[4] !== undefined ? h.index : hEnd;
      found.push([start, stop, text.slice(start, stop), spans]);
      pos = stop;
    }
  }

  /* -- query.py: what was typed ----------------------------------------------- */
  const FILTER = new RegExp(`(?<![${W}:])([A-Za-z]+):([^\\s"\u201c\u201d()]*)`, "gu");
  const PHRASE = /"([^"]*)"|\u201c([^\u201c\u201d]*)\u201d/g;
  const OPERATORS = new Set(["AND", "OR", "NOT", "ANDNOT", "ANDMAYBE", "TO"]);
  const LOST_NUMBER = new RegExp(`(?<![${W}])(?=[${W}])(?:rules?|section)\\s*(?=[,.;:)\u2013\u2014-])`, "iu");
  const KIND_ALIASES = { rules: "rule", subrules: "subrule", chapters: "chapter", sections: "section",
    term: "glossary", terms: "glossary", definition: "glossary" };
  const KINDS = ["rule", "subrule", "chapter", "section", "glossary"];
  const CAP_TOKEN = new RegExp(`[A-Z][${W}'\u2019-]*|[${W}'\u2019-]+|[.?!:;,()"]`, "gu");
  const TYPED_CAP = new RegExp(`(?<![${W}])[A-Z][${W}']*`, "gu");
  const SENTENCE_MARK = /[.;:]\s+[\p{L}\p{N}_]/u;

  /* query.clean: control characters, lone surrogates and other unprintables
     out, whitespace collapsed. */
  function clean(text) {
    return joinSplit(text.replace(/[\p{Cc}\p{Cs}\p{Co}\p{Cn}\p{Zs}\u200b\ufeff\u2028\u2029]/gu, " "));
  }
  function looksNumeric(text) {
    let s = pyStrip(text).toLowerCase();
    s = s.replace(/^(?:cr|rules?|sections?|\u00a7)\s*/u, "");
    return /^[0-9][0-9.]*[a-z]{0,3}\.?$/.test(s);
  }
  function filterValue(name, value) {
    if (name === "kind") {
      let v = value.toLowerCase();
      v = own(KIND_ALIASES, v) ? KIND_ALIASES[v] : v;
      if (KINDS.indexOf(v) < 0) throw new BadInput(`kind:${value} is not a kind; use one of ${KINDS.join(", ")}`);
      return v;
    }
    let id = "";
    try { id = normalizeId(value); } catch (e) {
      if (!(e instanceof BadInput)) throw e;
    }
    const want = name === "section" ? "section" : "chapter";
    if (!id || idKind(id) !== want) {
      throw new BadInput(`${name}:${value} is not a ${want} number (as in ${name === "section" ? "section:7" : "chapter:702"})`);
    }
    return id;
  }

  /* suggest.edit_distance: typing mistakes between ``a`` and ``b`` (letters
     added, dropped, changed or swapped with a neighbour); counting stops
     past ``most``. */
  function editDistance(a, b, most) {
    if (Math.abs(a.length - b.length) > most) return most + 1;
    let prev2 = [], prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const cur = [i].concat(new Array(b.length).fill(0));
      for (let j = 1; j <= b.length; j++) {
        const cost = a[i - 1] === b[j - 1] ? 0 : 1;
        cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j], prev2[j - 2] + 1);
      }
      if (Math.min(...cur) > most) return most + 1;
      prev2 = prev;
      prev = cur;
    }
    return prev[b.length];
  }
  /* suggest.close_enough: one mistake in a word of up to five letters, two in a longer one. */
  function closeEnough(typed, known) { return editDistance(typed, known, 2) <= (typed.length <= 5 ? 1 : 2); }

  /* difflib.SequenceMatcher(None, a, b).ratio() (no junk: words are short). */
  function ratio(a, b) {
    const b2j = new Map();
    for (let j = 0; j < b.length; j++) {
      if (!b2j.has(b[j])) b2j.set(b[j], []);
      b2j.get(b[j]).push(j);
    }
    let matched = 0;
    const queue = [[0, a.length, 0, b.length]];
    while (queue.length) {
      const [alo, ahi, blo, bhi] = queue.pop();
      let besti = alo, bestj = blo, size = 0, j2len = new Map();
      for (let i = alo; i < ahi; i++) {
        const next = new Map(), js = b2j.get(a[i]) || [];
        for (const j of js) {
          if (j < blo) continue;
          if (j >= bhi) break;
          const k = (j2len.get(j - 1) || 0) + 1;
          next.set(j, k);
          if (k > size) { besti = i - k + 1; bestj = j - k + 1; size = k; }
        }
        j2len = next;
      }
      if (size) {
        matched += size;
        if (alo < besti && blo < bestj) queue.push([alo, besti, blo, bestj]);
        if (besti + size < ahi && bestj + size < bhi) queue.push([besti + size, ahi, bestj + size, bhi]);
      }
    }
    const total = a.length + b.length;
    return total ? 2 * matched / total : 1;
  }

  /* -- the engine ----------------------------------------------------------- */
  /* Python's sum() of a list, left to right (the order is part of the result). */
  function sum(xs) { let s = 0; for (const x of xs) s += x; return s; }

  function unpackIds(packed) {
    const out = [];
    let chapter = "";
    packed.forEach((s) => {
      if (s[0] === ":") out.push("glossary" + s);
      else if (s[0] === ".") out.push(chapter + s);
      else { chapter = s.split(".")[0]; out.push(s); }
    });
    return out;
  }

  const EMPTY = new Set();
  /* How many results the search page shows before the rest are ranked. */
  const FIRST = 3;

  /* The engine of one release: ``meta`` and ``keys`` are the search data's
     two first files, ``load(name, file)`` reads any other ("search/..."). */
  class Engine {
    constructor(meta, keys, load) {
      if (meta.format !== FORMAT) throw new Error(`search data of format ${meta.format}, not ${FORMAT}: rebuild the site`);
      this.m = meta;
      this.keys = keys;
      this.load = load;
      /* RankingConfig, as exported: every weight of the ranking. */
      this.c = meta.config;
      this.text = new Text(keys.fold, keys.stop_words);
      this.stop = this.text.stop;
      this.questionWords = new Set(keys.question_words);
      this.jargon = keys.jargon;
      const t = meta.tables;
      this.slang = keys.slang;
      this.filler = new Set(t.filler_words);
      this.firstPerson = new Set(t.first_person);
      const q = meta.question;
      this.questionStart = new Set(q.question_start);
      this.clauseStart = new RegExp(q.clause_start, "gu");
      this.clauseAsk = new Set(q.clause_ask);
      this.clauseAskNext = new Set(q.clause_ask_next);
      this.clauseVerb = new Set(q.clause_verb);
      this.clauseSubject = new Set(q.clause_subject);
      this.slangAlways = !!q.slang_always;
      this.notNames = new Set(q.not_names);
      this.connectors = new Set(q.connectors);
      this.negationPrefixes = q.negation_prefixes;
      this.situationStems = new Set(q.situation_stems);
      this.maxTerms = q.max_terms;
      this.maxChars = q.max_chars;
      this.correction = q.correction;
      this.titleRules = new Set(meta.title_rules);
      this.ids = unpackIds(meta.ids);
      /* The glossary's ids, when they end the index, are its terms' (searchdata.pack_ids). */
      if (this.ids.length < meta.n) meta.glossary.forEach((g) => this.ids.push(GLOSSARY + g[0]));
      this.num = new Map();
      this.ids.forEach((id, i) => this.num.set(id, i));
      /* Index.ids: sections, chapters and rules (not the glossary). */
      this.ruleIds = this.ids.filter((i) => !i.startsWith(GLOSSARY));
      this.idSet = new Set(this.ruleIds);
      this.keywords = meta.keywords;
      this.chapters = meta.chapters;
      this.glossary = {};
      meta.glossary.forEach((g) => {
        const e = { id: GLOSSARY + g[0], names: g[1] || [this.text.normTitle(g[0])], targets: g[2], see: g[3] };
        e.names.forEach((name) => { if (!own(this.glossary, name)) this.glossary[name] = e; });
      });
      this.titleWords = new Set();
      Object.keys(meta.keywords).concat(Object.keys(this.glossary)).forEach((title) => {
        title.split(" ").forEach((w) => this.titleWords.add(w));
      });
      this.shardKeys = new Set(Object.keys(keys.shards));
      this.loadedShards = new Set();
      this.words = Object.assign({}, meta.words); // word -> [count, stem or 0, alternatives?]
      this.forms = {};      // other forms of the words -> stem
      this.postings = {};   // stem -> [df, docnums, scores, present, passage scores]
      this.blockStems = {}; // word -> stem, for the words of loaded 701/702 documents
      this.df = {};         // stem -> df, for the stems of loaded 701/702 documents
      this.docs = {};       // id -> stored fields
      this.cueData = { cues: [], seen: new Set() };
      this.cardData = { index: {}, rules: {}, plain: new Set(), longest: 1 };
      /* Throw when a stem is asked for before its file is loaded (the
         parity run sets it: a missing load would rank differently). */
      this.strict = false;
    }

    /* -- words and stems ---------------------------------------------------- */
    /* A word's stem, as exported: the browser never stems.  A word neither
       the release nor its tables use, in no form of theirs, keeps its own
       spelling (it finds nothing, as its stem does in the CLI). */
    stem(w) {
      const e = this.words[w];
      if (e) return e[1] || w;
      if (own(this.forms, w)) return this.forms[w];
      if (own(this.blockStems, w)) return this.blockStems[w];
      if (this.strict) {
        const k = shardKey(w, this.shardKeys);
        if (k !== null && !this.loadedShards.has(k)) throw new Error(`the word file of ${JSON.stringify(w)} is not loaded`);
      }
      return w;
    }
    /* Index.stems: folded, stop words out, stemmed. */
    stems(text) { return this.text.words(text).filter((w) => !this.stop.has(w)).map((w) => this.stem(w)); }
    inVocab(w) {
      const e = this.words[w];
      if (this.strict && !e && !this.questionWords.has(w) && !this.stop.has(w)) this.stem(w);
      return !!(e && e[0] > 0);
    }
    posting(s) {
      const p = this.postings[s];
      if (!p && this.strict) this.stem(s);
      return p;
    }
    docFrequency(s) {
      if (own(this.df, s) && !this.postings[s]) return this.df[s];
      const p = this.posting(s);
      return p ? p[0] : 0;
    }
    idf(s) { return Math.log(this.n() / (this.docFrequency(s) + 1)) + 1; }
    n() { return this.m.n; }
    /* The documents whose text or title has stem ``s`` (what coverage counts). */
    present(s) {
      const p = this.posting(s);
      if (!p) return EMPTY;
      if (!p._has) {
        const set = new Set();
        let d = 0;
        p[3].forEach((x) => { d += x; set.add(d); });
        p._has = set;
      }
      return p._has;
    }
    /* BM25F scores of stem ``s`` by document number, over the boosted fields
       (a typed query) or over text and name unboosted (a passage, a phrase). */
    scores(s, passage) {
      const p = this.posting(s);
      if (!p) return new Map();
      const key = passage ? "_passage" : "_typed";
      if (!p[key]) {
        const scale = this.m.scale, m = new Map();
        let values = p[2];
        if (passage) {
          values = p[2].slice();
          for (let j = 0; j < p[4].length; j += 2) values[p[4][j]] = p[4][j + 1];
        }
        let d = 0;
        for (let i = 0; i < p[1].length; i++) {
          d += p[1][i];
          if (!passage || values[i]) m.set(d, values[i] / scale);
        }
        p[key] = m;
      }
      return p[key];
    }

    /* -- data on demand ------------------------------------------------------ */
    file(name, file) { return this.load(name, "search/" + file); }
    /* The word files of ``words``; ``stems``: the words are stems (their
       postings are wanted, unless another word's file brought them). */
    need(words, stems) {
      const keys = new Set();
      words.forEach((w) => {
        if (!w || (!stems && this.stop.has(w))) return;
        if (stems && this.postings[w]) return;
        const k = shardKey(w, this.shardKeys);
        if (k !== null && !this.loadedShards.has(k)) keys.add(k);
      });
      return Promise.all(Array.from(keys).map((k) => this.file("w-" + k, this.keys.shards[k]).then((d) => {
        if (this.loadedShards.has(k)) return;
        this.loadedShards.add(k);
        Object.keys(d.w).forEach((w) => { this.words[w] = d.w[w]; });
        Object.keys(d.p).forEach((s) => { if (!this.postings[s]) this.postings[s] = d.p[s]; });
        Object.keys(d.f).forEach((s) => { d.f[s].split(" ").forEach((f) => { this.forms[f] = s; }); });
      })));
    }
    blockOf(num) {
      const b = this.m.blocks;
      let lo = 0, hi = b.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (b[mid][0] <= num) lo = mid; else hi = mid - 1;
      }
      return lo;
    }
    /* The stored fields of ``ids``. */
    needDocs(ids) {
      const blocks = new Set();
      ids.forEach((id) => { if (!this.docs[id] && this.num.has(id)) blocks.add(this.blockOf(this.num.get(id))); });
      return Promise.all(Array.from(blocks).map((b) => this.file("d." + this.m.blocks[b][1], `d.${this.m.blocks[b][1]}.js`).then((d) => {
        d.docs.forEach((r) => {
          if (!this.docs[r[0]]) this.docs[r[0]] = { id: r[0], kind: r[1], title: r[2], text: r[3], parent: r[4], url: r[5] };
        });
        Object.keys(d.stems).forEach((w) => { this.blockStems[w] = d.stems[w]; });
        Object.keys(d.df).forEach((s) => { this.df[s] = d.df[s]; });
      })));
    }
    /* The judges' topics and the cards are split by first letter
       (searchdata.by_letter): stemming keeps a word's first letter. */
    loadParts(kind, letters, merge) {
      const files = this.keys[kind];
      return Promise.all(letters.filter((l) => own(files, l)).map((l) => this.file(`${kind}-${l}`, files[l]).then(merge)));
    }
    loadTopics(words) {
      /* "=": the whole-query cues ("=bounce", topics.whole_stem). */
      const letters = firstLetters(words.filter((w) => !this.stop.has(w)).concat(["", "="]));
      const t = this.cueData;
      return this.loadParts("topics", letters, (d) => {
        if (t.seen.has(d)) return;
        t.seen.add(d);
        d.cues.forEach((c) => t.cues.push([c[0], c[1].split(" ").filter(Boolean), d.rules[c[2]]]));
        t.cues.sort((a, b) => a[0] - b[0]);
      });
    }
    loadCards(text) {
      const c = this.cardData;
      const letters = cardParts((text.match(CARD_TOKEN) || []).map((t) => this.text.fold(t)));
      return this.loadParts("cards", letters, (d) => {
        Object.keys(d.index).forEach((k) => { c.index[k] = d.index[k]; });
        Object.keys(d.rules).forEach((n) => { c.rules[n] = d.rules[n]; });
        d.plain.forEach((w) => c.plain.add(w));
        c.longest = Math.max(c.longest, d.longest);
      });
    }
    /* While a query is typed: the files its words will need. */
    prefetch(text) {
      const folded = this.text.fold(text), ws = folded.match(WORD_RE) || [];
      const complete = /[\s"'.,;:!?)]$/.test(folded) ? ws : ws.slice(0, -1), want = [];
      const take = (w) => {
        if (this.stop.has(w)) return;
        want.push(w);
        if (own(this.jargon, w)) want.push(...this.text.words(this.jargon[w]));
      };
      complete.forEach(take);
      const last = complete.length < ws.length ? ws[ws.length - 1] : null;
      const whole = last && last.length >= 2 && !Array.from(this.shardKeys).some((k) => k.length > last.length && k.startsWith(last));
      if (whole) take(last);
      /* Slang ("trample over") stands for words of other files. */
      this.slangIn(whole ? ws : complete).forEach((s) => this.text.words(s[1]).forEach(take));
      const quiet = () => {};
      if (ws.length) this.loadTopics(ws.concat(want)).catch(quiet);
      if (this.isQuestion(text, ws, false)) this.loadCards(text).catch(quiet);
      return this.need(want.filter((w) => !this.questionWords.has(w))).then(() => {
        const more = [];
        want.forEach((w) => {
          if (!this.inVocab(w) && w.length >= 4 && isAlpha(w)) this.loadLetters([w]).catch(quiet);
          more.push(this.stem(w));
          this.alternatives(w).forEach((alt) => more.push(...alt));
        });
        return this.need(more, true);
      }).catch(quiet);
    }
    /* The words of the release by first letter, with their counts (what
       typo correction compares a word with), and the words it leaves
       alone: in the same file, or (an older release of a site of several)
       in a "k" file every older release shares (keys.kept). */
    loadLetters(ws) {
      const got = this.loadedLetters = this.loadedLetters || {};
      const kept = this.keys.kept || {};
      return Promise.all(firstLetters(ws).filter((l) => own(this.keys.letters, l)).map((l) => Promise.all([
        this.file("v-" + l, this.keys.letters[l]),
        own(kept, l) ? this.file("k-" + l, kept[l]) : Promise.resolve(null),
      ]).then(([data, k]) => { got[l] = { v: data.v, k: new Set(k || data.k) }; })));
    }

    /* -- query.parse ------------------------------------------------------------ */
    parse(raw) {
      if (typeof raw !== "string") throw new BadInput("the query must be text");
      let text = clean(raw), truncated = false;
      if (text.length > this.maxChars) {
        const cut = text.lastIndexOf(" ", this.maxChars - 1);
        text = text.slice(0, cut > Math.floor(this.maxChars / 2) ? cut : this.maxChars);
        truncated = true;
      }
      if (!text) throw new BadInput("the query is empty: type a rule number, a keyword, a term or a question");
      const q = { raw, text, ids: [], specOnly: false, badNumber: null, badReason: "", filters: {}, phrases: [],
        words: [], passage: false, truncated, question: false, names: [], slang: [] };
      text = text.replace(FILTER, (all, name, value) => {
        name = name.toLowerCase();
        value = stripChars(value, ".,;");
        if (name !== "section" && name !== "chapter" && name !== "kind") return all;
        q.filters[name] = filterValue(name, value);
        return " ";
      });
      const bare = pyStrip(stripChars(pyStrip(text), "()[]{}"));
      if (bare && /[0-9]/.test(bare)) {
        try {
          q.ids = parseSpec(bare);
          q.specOnly = true;
          q.text = bare;
          return q;
        } catch (e) {
          if (!(e instanceof BadInput)) throw e;
          if (looksNumeric(bare)) {
            q.badNumber = bare;
            q.text = bare;
            q.badReason = e.message;
            return q;
          }
        }
      }
      if (/[0-9]/.test(text)) {
        const pieces = [];
        let last = 0;
        findReferences(text).forEach(([start, end, , spans]) => {
          q.ids.push(...spans);
          pieces.push(text.slice(last, start));
          last = end;
        });
        pieces.push(text.slice(last));
        text = pieces.join(" ");
      }
      let m;
      PHRASE.lastIndex = 0;
      while ((m = PHRASE.exec(text))) {
        const phrase = this.text.words(m[1] !== undefined ? m[1] : m[2]).join(" ");
        if (phrase && q.phrases.indexOf(phrase) < 0) q.phrases.push(phrase);
      }
      q.text = joinSplit(text);
      const folded = this.text.fold(text);
      q.words = this.text.words(folded).filter((w) => !this.isLoneOperator(w, text));
      if (!q.ids.length && q.words.length <= 6) {
        const expanded = [];
        q.words.forEach((w) => { if (own(this.jargon, w)) expanded.push(...this.text.words(this.jargon[w])); else expanded.push(w); });
        q.words = expanded;
      }
      const lost = LOST_NUMBER.test(text);
      q.question = this.isQuestion(text, q.words, lost);
      if (q.question) {
        q.names = this.cardNames(text);
        const drop = new Set();
        q.names.forEach((n) => this.text.words(n).forEach((w) => drop.add(w)));
        q.words = q.words.filter((w) => !drop.has(w));
        if (!this.slangAlways) q.slang = this.slangIn(q.words);
      }
      q.passage = !q.question && (q.words.length >= 9 || lost || (q.words.length >= 6 && SENTENCE_MARK.test(text)));
      /* Typed words, question or not ("fizzle", "sac"): a pasted passage has no slang. */
      if (this.slangAlways && !q.passage) q.slang = this.slangIn(q.words);
      if (!q.words.length && !q.ids.length && !Object.keys(q.filters).length) {
        throw new BadInput(`the query ${JSON.stringify(raw.slice(0, 60))} has nothing to search for: type a rule number, ` +
          "a keyword, a term or a question");
      }
      return q;
    }
    isLoneOperator(w, text) {
      const up = w.toUpperCase();
      return OPERATORS.has(up) && new RegExp(`(?<![${W}])${up}(?![${W}])`, "u").test(text);
    }
    /* query.is_question: "?", "I"/"my"/"me", or (unless the text lost a
       rule number, as pasted web text does) a question word first or a
       clause with a question's shape. */
    isQuestion(text, ws, lost) {
      if (!ws.length) return false;
      return text.indexOf("?") >= 0 || ws.some((w) => this.firstPerson.has(w)) ||
        (!lost && (this.questionStart.has(ws[0]) || this.asks(text)));
    }
    /* query.asks: a clause starting with an asking pair ("..., what is",
       "..., does it"). */
    asks(text) {
      this.clauseStart.lastIndex = 0;
      for (const m of text.matchAll(this.clauseStart)) {
        const first = m[1].toLowerCase(), second = m[2].toLowerCase();
        if (this.clauseAsk.has(first) && this.clauseAskNext.has(second)) return true;
        if (this.clauseVerb.has(first) && this.clauseSubject.has(second)) return true;
      }
      return false;
    }
    /* query.card_names: runs of capitalised words ("Xenagos, God of Revels"),
       a lone one not first in its sentence, or one with a possessive. */
    cardNames(text) {
      const tokens = text.match(CAP_TOKEN) || [], names = [];
      let run = [], runCaps = 0, startOfSentence = true, runStartsSentence = false;
      const cap = (t) => {
        const core = t.split("'")[0].split("\u2019")[0];
        return startsUpper(t) && core.length > 1 && !isUpperPy(core) && !this.notNames.has(core.toLowerCase());
      };
      const flush = () => {
        while (run.length && !cap(run[run.length - 1])) run.pop();
        if (run.length) {
          const possessive = /(?:'s|\u2019s|s')$/.test(run[run.length - 1]);
          if (runCaps >= 2 || !runStartsSentence || possessive) names.push(run.join(" ").split(" ,").join(","));
        }
        run = [];
        runCaps = 0;
      };
      tokens.forEach((t) => {
        if (cap(t)) {
          if (!run.length) runStartsSentence = startOfSentence;
          run.push(t);
          runCaps++;
          startOfSentence = false;
        } else if (run.length && (this.connectors.has(t.toLowerCase()) || t === ",")) {
          run.push(t);
        } else {
          flush();
          if ([".", "?", "!", ":", ";", "(", ")", "\""].indexOf(t) >= 0) startOfSentence = true;
          else if (t !== ",") startOfSentence = false;
        }
      });
      flush();
      return names;
    }
    /* query.slang_in: slang phrases (vocab.SLANG), longest first. */
    slangIn(ws) {
      const found = [], seen = new Set(), n = ws.length;
      let i = 0;
      while (i < n) {
        let hit = false;
        for (let size = 4; size >= 1; size--) {
          const key = ws.slice(i, i + size).join(" ");
          if (i + size <= n && own(this.slang, key)) {
            if (!seen.has(key)) { seen.add(key); found.push([key, this.slang[key]]); }
            i += size;
            hit = true;
            break;
          }
        }
        if (!hit) i += 1;
      }
      return found;
    }
    slangWords(q) {
      const out = [];
      q.slang.forEach((p) => out.push(...this.text.words(p[1])));
      return out;
    }
    /* ParsedQuery.terms: distinct content words, for a question without
       filler and with the slang's rules wording. */
    terms(q) {
      const out = [];
      q.words.concat(this.slangWords(q)).forEach((w) => {
        if (!this.stop.has(w) && out.indexOf(w) < 0 && (q.passage || !this.questionWords.has(w))
            && !(q.question && this.filler.has(w))) out.push(w);
      });
      return out.slice(0, this.maxTerms);
    }
    /* engine.is_long_question */
    isLongQuestion(q) { return q.question && this.terms(q).length >= this.c.semantic_min_terms; }
    /* query.alternatives, as stems: the site exports them for the words of
       the release and its tables; for any other word they come from its
       forms with and without a negation prefix ("unmorph" -> "morph"). */
    alternatives(w) {
      const e = this.words[w];
      if (e) return e[2] || [];
      const out = [];
      this.negationPrefixes.forEach((p) => {
        if (w.startsWith(p) && this.inVocab(w.slice(p.length))) out.push([this.stem(w.slice(p.length))]);
        else if (this.inVocab(p + w)) out.push([this.stem(p + w)]);
      });
      return out;
    }
    /* The words alternatives() reads for a term the release never uses. */
    otherForms(ws) {
      const out = [];
      ws.forEach((w) => {
        if (this.words[w]) return;
        this.negationPrefixes.forEach((p) => {
          if (w.startsWith(p)) out.push(w.slice(p.length));
          out.push(p + w);
        });
      });
      return out;
    }
    /* Reader._keep_titles: a "name" that is a rules title ("First Strike")
       goes back into the words. */
    keepTitles(q) {
      const back = q.names.filter((n) => {
        const t = this.text.normTitle(n);
        return own(this.keywords, t) || own(this.glossary, t);
      });
      if (!back.length) return;
      q.names = q.names.filter((n) => back.indexOf(n) < 0);
      back.forEach((n) => { q.words = q.words.concat(this.text.words(n)); });
    }
    /* query.correct: words the release never uses replaced by close ones
       (the letter files must be loaded: ``correct`` loads them). */
    correct(q) {
      const keep = new Set();
      if (q.question) (q.text.match(TYPED_CAP) || []).forEach((t) => keep.add(this.text.fold(t)));
      const todo = q.words.filter((w) => !(this.inVocab(w) || !isAlpha(w) || w.length < 4 || this.stop.has(w) || keep.has(w)));
      if (!todo.length) return Promise.resolve(null);
      return this.loadLetters(todo).then(() => {
        const byLetter = {};
        const lists = firstLetters(todo).map((l) => this.letterData(l));
        firstLetters(todo).forEach((l, i) => { byLetter[l] = lists[i]; });
        const k = this.correction;
        const pools = todo.map((w) => byLetter[w[0]].filter((r) => Math.abs(r[0].length - w.length) <= k.near));
        const all = pools.some((p) => !p.length) ? this.loadLetters(Object.keys(this.keys.letters)) : Promise.resolve();
        return all.then(() => {
          const every = pools.some((p) => !p.length)
            ? [].concat(...Object.keys(this.keys.letters).map((l) => this.letterData(l))) : [];
          const best = new Map();
          todo.forEach((w, i) => {
            const pool = pools[i].length ? pools[i] : every.filter((r) => Math.abs(r[0].length - w.length) <= k.far);
            let top = null;
            pool.forEach((r) => {
              const x = ratio(r[0], w);
              if (x < k.cutoff || !closeEnough(w, r[0])) return;
              const score = x + (this.titleWords.has(r[0]) ? k.title : 0.0) + Math.min(r[1], k.count_cap) / k.count_scale;
              if (!top || score > top[0] || (score === top[0] && r[0] > top[1])) top = [score, r[0]];
            });
            /* Words of the tables, of card names and English words stay ("k"). */
            if (top && top[1] !== w && !this.kept(w)) best.set(w, top[1]);
          });
          if (!best.size) return null;
          return q.words.map((w) => best.get(w) || w).join(" ");
        });
      });
    }
    letterData(l) { return (this.loadedLetters && this.loadedLetters[l] && this.loadedLetters[l].v) || []; }
    kept(w) {
      const got = this.loadedLetters && this.loadedLetters[w[0]];
      return !!got && got.k.has(w);
    }

    /* -- the search (Engine.search) ---------------------------------------------- */
    /* The ranked results of ``text``: {query, release, results, suggestion,
       error, near}.  ``partial`` (optional) gets the first sure results
       (rule numbers, titles) before the full text is ranked. */
    async search(text, limit, partial) {
      limit = limit || 10;
      const q = this.parse(text);
      if (q.names.length) this.keepTitles(q);
      const result = { query: text, release: this.m.date, results: [], suggestion: null, error: null, near: null };
      if (q.badNumber) {
        result.error = q.badReason;
        return result;
      }
      const ranked = new Map();
      const add = (id, score) => { if (!ranked.has(id) && this.passes(id, q.filters)) ranked.set(id, score); };
      const show = (items) => this.hits(items.slice(0, limit), q);
      /* 1. Rule numbers (in a pasted passage they are citations, not the
         rule asked for). */
      const c = this.c;
      let top = c.number_tier;
      for (const span of q.passage ? [] : q.ids) {
        let members = expand(span, this.ruleIds, this.idSet);
        const k = idKind(span[0]);
        if (span[0] === span[1] && members.length && (k === "rule" || k === "chapter") && q.specOnly) {
          members = k === "rule" ? this.children(span[0])
            : [span[0]].concat(this.ruleIds.filter((i) => i.startsWith(span[0] + ".") && idKind(i) === "rule"));
        }
        members.forEach((id) => { add(id, top); top -= c.tier_step; });
      }
      if (q.specOnly) {
        if (!ranked.size && !Object.keys(q.filters).length) {
          const gone = q.ids.find((sp) => !expand(sp, this.ruleIds, this.idSet).length);
          const missing = gone ? gone[0] : q.ids[0][0];
          result.error = `There is no ${idKind(missing)} ${missing} in the ${this.m.date} rules.`;
          result.near = this.nearest(missing);
          result.missing = missing;
          /* An older release of a site of several: where that rule was then
             (searchdata's "then" file, as Rules.number_then tells the CLI). */
          const single = q.ids.find((sp) => sp[0] === sp[1] && !this.idSet.has(sp[0]));
          const then = this.m.then && single ? await this.file("then", this.m.then) : null;
          if (then && own(then, single[0])) {
            const [id, title] = then[single[0]];
            result.error = result.error.slice(0, -1) + `; it was ${id} then${title ? ` (${title})` : ""}.`;
            result.near = id;
          }
          return result;
        }
        result.results = await show(Array.from(ranked.entries()));
        return result;
      }
      /* The words first (their counts say which to correct), then their stems. */
      await this.need(this.readWords(q.words, q.passage));
      const suggestion = q.passage ? null : await this.correct(q);
      if (suggestion) {
        result.suggestion = suggestion;
        q.words = suggestion.split(" ");
      }
      const phraseWords = [].concat(...q.phrases.map((p) => p.split(" ")));
      await this.need(this.readWords(q.words.concat(phraseWords, this.slangWords(q)), q.passage));
      await this.need(this.otherForms(this.terms(q)));
      const more = [];
      this.terms(q).forEach((w) => {
        more.push(...this.stems(w));
        this.alternatives(w).forEach((alt) => more.push(...alt));
      });
      q.phrases.forEach((p) => more.push(...this.stems(p)));
      await Promise.all([this.need(more, true),
        q.passage ? null : this.loadTopics(q.words.concat(this.slangWords(q))),
        q.question ? this.loadCards(q.text) : null]);
      /* Famous cards named together may be a topic ("humility opalescence"). */
      const named = q.question ? this.cardsIn(q.text) : [];
      if (named.length >= 2) {
        const nameWords = [].concat(...named.map(([n]) => this.text.words(n)));
        await Promise.all([this.loadTopics(nameWords), this.need(this.readWords(nameWords, false))]);
      }

      /* 2. Exact titles (the whole query, or quoted titles in a passage). */
      let titles = this.titleMatches(q), cited = [], early = Promise.resolve();
      if (q.passage) {
        q.ids.forEach((span) => cited.push(...expand(span, this.ruleIds, this.idSet)));
        if (q.words.length - sum(q.phrases.map((p) => p.split(" ").length)) <= c.fragment_words) {
          /* A short fragment is mostly the title: the titled rule comes first. */
          cited = titles.concat(cited);
          titles = [];
          cited.forEach((id, n) => add(id, c.title_tier - n * c.tier_step));
          cited = [];
        }
      } else {
        top = c.title_tier;
        titles.forEach((id) => { add(id, top); top -= c.tier_step; });
        if (partial && ranked.size) {
          early = show(Array.from(ranked.entries())).then((h) => {
            partial({ query: text, release: result.release, results: h, suggestion: result.suggestion, error: null });
          });
        }
        /* 2b. Two keywords or more: the rules where they meet (in a long
           question, one more piece of evidence, like a topic). */
        const together = q.phrases.length ? [] : await this.interaction(q);
        if (this.isLongQuestion(q)) q.together = together;
        else {
          top = c.interaction_tier;
          together.forEach((id) => { add(id, top); top -= c.tier_step; });
        }
      }

      /* 3. Full text. */
      const merge = (full, into) => full.forEach((hit, n) => {
        into(hit[0], hit[1]);
        /* A title quoted in a passage names a rule whose number the page lost. */
        if (n === 0 && q.passage) titles.concat(cited).forEach((t) => into(t, hit[1] - c.quoted_title_step));
      });
      if (q.words.length || q.phrases.length) {
        if (partial && limit > FIRST) {
          /* The first few places need fewer documents: shown first. */
          const full = await this.fullText(q, FIRST + ranked.size);
          const copy = new Map(ranked);
          merge(full, (id, score) => { if (!copy.has(id) && this.passes(id, q.filters)) copy.set(id, score); });
          await early;
          const h = await this.hits(Array.from(copy.entries()).slice(0, FIRST), q);
          partial({ query: text, release: result.release, results: h, suggestion: result.suggestion, error: null });
        }
        merge(await this.fullText(q, limit + ranked.size), add);
      } else if (Object.keys(q.filters).length && !ranked.size) {
        const pool = q.filters.kind === "glossary" ? this.ids.filter((i) => i.startsWith(GLOSSARY)) : this.ruleIds;
        pool.filter((i) => this.passes(i, q.filters)).slice(0, limit).forEach((i) => add(i, 0.0));
      }
      await early;
      result.results = await show(Array.from(ranked.entries()));
      return result;
    }
    /* The words whose files a query's reading needs: question words only
       in a pasted passage (their entries come with the metadata), and a
       possessive's word without its "'s" (the topics read it). */
    readWords(ws, passage) {
      const out = [];
      ws.forEach((w) => {
        if (!passage && this.questionWords.has(w)) return;
        out.push(w);
        if (w.endsWith("'s")) out.push(w.slice(0, -2));
      });
      return out;
    }
    passes(id, f) {
      if (!f || !Object.keys(f).length) return true;
      const isG = id.startsWith(GLOSSARY), k = isG ? "glossary" : idKind(id);
      if (f.kind && f.kind !== k) return false;
      if (f.section && (isG || id[0] !== f.section)) return false;
      return !(f.chapter && (isG || k === "section" || id.split(".")[0] !== f.chapter));
    }
    /* The nearest existing id above a missing one: 702.19z -> 702.19 -> 702. */
    nearest(id) {
      let up = id;
      while (up) {
        try { up = parentId(up); } catch (e) { return null; }
        if (up && this.idSet.has(up)) return up;
      }
      return null;
    }
    /* Index.children: ``id`` and the rules under it, in order. */
    children(id) { return this.ruleIds.filter((i) => i === id || (i.startsWith(id) && contains(id, i))); }
    /* exact.title_matches */
    titleMatches(q) {
      const out = [], wanted = [];
      if (q.words.length && !q.passage) wanted.push([q.words.join(" "), true]);
      if (q.passage) q.phrases.forEach((p) => wanted.push([p, false]));
      wanted.forEach(([title, typed]) => {
        for (const c of titleVariants(this.text.normTitle(title))) {
          if (own(this.keywords, c)) out.push(...(typed ? this.children(this.keywords[c]) : [this.keywords[c]]));
          const g = typed && own(this.glossary, c) ? this.glossary[c] : null;
          if (g) { out.push(g.id); out.push(...this.glossaryTargets(g, 0)); }
          if (own(this.chapters, c)) out.push(this.chapters[c]);
          if (out.length) break;
        }
      });
      return Array.from(new Set(out));
    }
    glossaryTargets(g, d) {
      let out = g.targets.filter((t) => this.idSet.has(t));
      if (g.see && d < 2 && own(this.glossary, g.see)) {
        const target = this.glossary[g.see];
        out = [target.id].concat(this.glossaryTargets(target, d + 1));
      }
      return out;
    }
    /* Keyword rules whose names occur in the query's words, in order. */
    keywordsNamed(q) {
      const found = [], ws = q.words;
      let i = 0;
      while (i < ws.length) {
        let hit = false;
        for (let n = 3; n >= 1; n--) {
          if (i + n > ws.length) continue;
          const key = ws.slice(i, i + n).join(" ");
          if (own(this.keywords, key) && !this.stop.has(key)) {
            if (found.indexOf(this.keywords[key]) < 0) found.push(this.keywords[key]);
            i += n;
            hit = true;
            break;
          }
        }
        if (!hit) i += 1;
      }
      return found.filter(isKeywordId);
    }
    /* Index.doc_words: a document's words and their stems. */
    docWords(doc) {
      if (!doc._words) {
        const tw = this.text.words(doc.text || "").concat(this.text.words(doc.title || ""));
        const st = new Set();
        tw.forEach((w) => { if (!this.stop.has(w)) st.add(this.lenientStem(w)); });
        doc._words = tw;
        doc._stems = st;
      }
      return doc;
    }
    lenientStem(w) {
      const strict = this.strict;
      this.strict = false;
      try { return this.stem(w); } finally { this.strict = strict; }
    }
    /* exact.keywords_together: for "deathtouch trample", each keyword's
       subrules that speak of the other keyword, or share its rarest words,
       best first. */
    interaction(q) {
      const named = this.keywordsNamed(q);
      if (named.length < 2) return Promise.resolve([]);
      const all = [];
      named.forEach((k) => all.push(...this.children(k)));
      return this.needDocs(all).then(() => {
        const texts = {}, vocab = {}, names = {};
        named.forEach((k) => {
          texts[k] = this.children(k).filter((i) => i !== k).map((i) => [i, this.docs[i]]);
          const v = new Set();
          texts[k].forEach((r) => { if (r[1]) this.docWords(r[1])._stems.forEach((s) => v.add(s)); });
          vocab[k] = v;
          const title = (this.docs[k] || {}).title || "";
          names[k] = new Set(this.text.words(title).filter((w) => !this.stop.has(w)).map((w) => this.lenientStem(w)));
        });
        const scored = [];
        named.forEach((k) => {
          const others = named.filter((o) => o !== k);
          texts[k].forEach(([id, doc]) => {
            if (!doc) return;
            const stems = this.docWords(doc)._stems;
            let s = 0.0;
            others.forEach((o) => {
              if (names[o].size && Array.from(names[o]).every((x) => stems.has(x))) s += this.c.interaction_name;
              s += sum(Array.from(stems).filter((t) => vocab[o].has(t) && !names[k].has(t)).map((t) => this.idf(t)));
            });
            scored.push([s, id]);
          });
        });
        scored.sort((a, b) => b[0] - a[0]);
        return scored.slice(0, this.c.interaction_top).filter((x) => x[0] > 0).map((x) => x[1]);
      });
    }

    /* Engine._full_text (lexical.retrieve and score, boosts.lift): BM25F
       candidates re-ranked by how much of the query's wording they have,
       its topics and cards.  Only the candidates that can still reach the
       first ``need`` places get their text loaded; the ranking of those
       places is the CLI's either way. */
    fullText(q, need) {
      const c = this.c, stems = [], alts = new Map();
      const push = (s) => { if (stems.indexOf(s) < 0) stems.push(s); };
      const terms = this.terms(q);
      terms.forEach((w) => this.stems(w).forEach(push));
      if (!q.passage) {
        terms.forEach((w) => {
          const ws = this.stems(w);
          if (ws.length !== 1) return;
          this.alternatives(w).forEach((alt) => {
            const a = new Set(alt);
            if (a.size && !a.has(ws[0])) {
              if (!alts.has(ws[0])) alts.set(ws[0], []);
              alts.get(ws[0]).push(a);
              a.forEach(push);
            }
          });
        });
      }
      const phraseStems = q.phrases.map((p) => this.stems(p));
      phraseStems.forEach((ps) => ps.forEach(push));
      if (!stems.length) return Promise.resolve([]);
      const n = this.n(), df = new Map();
      stems.forEach((s) => df.set(s, this.docFrequency(s)));
      let pick;
      if (q.passage) {
        /* A passage is found by its rarest words. */
        pick = stems.filter((s) => df.get(s)).sort((a, b) => df.get(a) - df.get(b)).slice(0, c.passage_terms);
      } else {
        pick = stems.filter((s) => df.get(s) <= c.common * n);
        if (!pick.length) pick = stems;
      }
      /* BM25F candidates: the precomputed scores summed, as Whoosh sums its Or. */
      const total = new Map();
      pick.forEach((s) => this.scores(s, q.passage).forEach((v, d) => total.set(d, (total.get(d) || 0) + v)));
      /* A typed "phrase": each of its words in the text or name, their
         scores added, as Whoosh's And of the two queries scores. */
      const required = q.passage ? [] : [].concat(...phraseStems).map((s) => this.scores(s, true));
      let cands = [];
      total.forEach((v, d) => {
        if (!this.passes(this.ids[d], q.filters)) return;
        for (const r of required) {
          if (!r.has(d)) return;
          v += r.get(d);
        }
        cands.push([d, v]);
      });
      cands.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
      const longQuestion = this.isLongQuestion(q);
      cands = cands.slice(0, longQuestion ? c.question_candidates : c.candidates);
      /* Subrules move up past their title rule by a few places: the places
         just below the first ``need`` must be exact too. */
      if (longQuestion) need += c.subrules_window;
      if (!cands.length) return Promise.resolve([]);
      const ids = cands.map((x) => this.ids[x[0]]);
      const qbigrams = pairs(q.words);
      const tpairs = pairs(q.words.filter((w) => !this.questionWords.has(w)));
      const named = new Set(q.passage ? [] : this.keywordsNamed(q));
      const altStems = new Set();
      alts.forEach((list) => list.forEach((a) => a.forEach((s) => altStems.add(s))));
      const stemSet = new Set(stems.filter((s) => !altStems.has(s)).concat(Array.from(alts.keys())));
      const weights = new Map();
      stemSet.forEach((s) => {
        let w = this.idf(s);
        /* "copy", "leaves", "the stack": what the question is about. */
        if (q.question && this.situationStems.has(s)) w *= c.situation_weight;
        weights.set(s, w);
      });
      const totalWeight = sum(weights.values()) || 1.0;
      const question = !q.passage && q.words.some((w) => this.questionWords.has(w));
      const inCands = new Map();
      ids.forEach((id) => {
        if (idKind(id) === "subrule") { const up = parentId(id); inCands.set(up, (inCands.get(up) || 0) + 1); }
      });
      const citedByQuery = new Set();
      if (q.passage) q.ids.forEach((sp) => { citedByQuery.add(sp[0]); citedByQuery.add(sp[1]); });
      const best = cands[0][1] || 1.0;
      /* Whether a word can be in document ``d`` (an upper bound: a word
         whose postings are not loaded may be). */
      const possible = (w, d) => {
        if (this.stop.has(w) || this.questionWords.has(w)) return true;
        const st = this.lenientStem(w);
        return !this.postings[st] || this.present(st).has(d);
      };
      const possiblePairs = (set, d) => {
        let k = 0;
        set.forEach((p) => { const ab = p.split(" "); if (possible(ab[0], d) && possible(ab[1], d)) k++; });
        return k;
      };
      /* Each candidate's parts, added up in the CLI's order once the word
         pairs and phrases (which need the text) are known. */
      const rows = cands.map((x, i) => {
        const d = x[0], id = ids[i], kind = idKind(id);
        const r = { id, base: x[1] / best, coverage: 0, parent: 0, pairs: 0, cited: 0, named: 0, glossary: 0,
          phrase: 0, chapter: 0, exact: true, out: false, bonus: null };
        if (stemSet.size > 1) {
          const got = sum(Array.from(stemSet).filter((st) => this.present(st).has(d)
            || (alts.get(st) || []).some((a) => Array.from(a).every((y) => this.present(y).has(d)))).map((st) => weights.get(st)));
          r.coverage = c.coverage * Math.pow(got / totalWeight, 2);
        }
        if (question && (inCands.get(id) || 0) >= c.parent_min) r.parent = c.parent * Math.min(inCands.get(id), c.parent_max);
        let most = 0;
        if (q.passage && qbigrams.size) most = c.passage * possiblePairs(qbigrams, d) / qbigrams.size;
        else if (tpairs.size) most = c.adjacent * possiblePairs(tpairs, d) / tpairs.size;
        if (citedByQuery.size && (citedByQuery.has(id) || ancestors(id).some((a) => citedByQuery.has(a)))) r.cited = c.cited;
        if (named.size && kind === "subrule" && named.has(parentId(id))) r.named = c.named;
        if (kind === "glossary" && !q.passage && stemSet.size > 1) r.glossary = c.glossary_multi;
        if (q.phrases.length) {
          if (phraseStems.every((ps) => ps.every((st) => this.present(st).has(d)))) most += c.phrase;
          else if (!q.passage) r.out = true;
        }
        if (kind === "chapter" || kind === "section") r.chapter = c.chapter;
        r.exact = most === 0;
        r.low = q.phrases.length && !q.passage ? -Infinity : this.total(r);
        r.up = this.total(r) + most;
        return r;
      }).filter((r) => !r.out);
      const bonus = q.passage ? null : this.topicBonus(q);
      if (bonus) {
        rows.forEach((r) => {
          if (!bonus.has(r.id)) return;
          r.bonus = bonus.get(r.id);
          r.low += r.bonus;
          r.up += r.bonus;
          bonus.delete(r.id);
        });
        /* Rules the words missed join in rule order (a typed phrase excepted). */
        if (!q.phrases.length) {
          Array.from(bonus.keys()).sort((a, b) => (this.num.get(a) || 0) - (this.num.get(b) || 0)).forEach((id) => {
            const b = bonus.get(id);
            rows.push({ id, only: b, low: b, up: b, exact: true });
          });
        }
      }
      const lows = rows.map((r) => r.low).sort((x, y) => y - x);
      /* A hair below the bar: the bounds are sums in another order. */
      const bar = (lows.length >= need ? lows[need - 1] : -Infinity) - 1e-9;
      const fetch = rows.filter((r) => !r.exact && r.up >= bar);
      return this.needDocs(fetch.map((r) => r.id)).then(() => {
        const scored = [];
        rows.forEach((r) => {
          if (r.only !== undefined) { scored.push([r.id, r.only]); return; }
          if (!r.exact) {
            if (r.up < bar) return; /* cannot reach the first places: left out */
            const doc = this.docWords(this.docs[r.id]), tw = doc._words, tb = pairs(tw);
            const shared = (set) => Array.from(set).filter((p) => tb.has(p)).length;
            if (q.passage && qbigrams.size) r.pairs = c.passage * shared(qbigrams) / qbigrams.size;
            else if (tpairs.size) r.pairs = c.adjacent * shared(tpairs) / tpairs.size;
            const joined = " " + tw.join(" ") + " ";
            const hasAll = q.phrases.every((p) => joined.indexOf(" " + p + " ") >= 0);
            if (q.phrases.length && hasAll) r.phrase = c.phrase;
            if (q.phrases.length && !q.passage && !hasAll) return;
          }
          const s = this.total(r);
          scored.push([r.id, r.bonus === null ? s : s + r.bonus]);
        });
        scored.sort((a, b) => b[1] - a[1]);
        return longQuestion ? this.subrulesFirst(scored) : scored;
      });
    }
    /* A candidate's score, its parts added in the order the CLI adds them. */
    total(r) {
      let s = r.base;
      s += r.coverage;
      s += r.parent;
      s += r.pairs;
      s -= r.cited;
      s += r.named;
      s -= r.glossary;
      s += r.phrase;
      s -= r.chapter;
      return s;
    }

    /* -- the judges' topics and the rules-famous cards (boosts.named, lift) ----- */
    /* topics.question_stems: "opponent's" meets the cue word "opponent". */
    topicStems(q) {
      const have = new Set();
      const stemOf = (w) => this.stem(w.endsWith("'s") ? w.slice(0, -2) : w);
      q.words.concat(this.slangWords(q)).forEach((w) => {
        if (!this.stop.has(w)) have.add(stemOf(w));
      });
      /* topics.whole_stem: the typed words as one stem, for "=bounce". */
      const typed = new Set(q.words.filter((w) => !this.stop.has(w)).map(stemOf));
      have.add("=" + Array.from(typed).sort().join("_"));
      return have;
    }
    /* cards.CardTable.found_in: the table's cards named in a question,
       longest name first at each word; a name that is a plain word counts
       only capitalised. */
    cardsIn(text) {
      const c = this.cardData, found = [];
      const toks = text.match(CARD_TOKEN) || [];
      const folded = toks.map((t) => this.text.fold(t));
      const lookup = (k) => (own(c.index, k) ? c.index[k] : own(c.rules, k) ? k : null);
      for (let i = 0; i < toks.length; i++) {
        for (let n = Math.min(c.longest, toks.length - i); n > 0; n--) {
          const typed = folded.slice(i, i + n).join(" ");
          const exact = lookup(typed);
          const possessive = exact === null && typed.endsWith("'s");
          const card = possessive ? lookup(typed.slice(0, -2)) : exact;
          if (card === null) continue;
          const bare = possessive ? typed.slice(0, -2) : typed;
          if (n === 1 && c.plain.has(bare) && !startsUpper(toks[i])) continue;
          if (found.indexOf(card) < 0) found.push(card);
          i += n - 1;
          break;
        }
      }
      return found.map((name) => [name, c.rules[name]]);
    }
    /* Each rule's bonus: its best one plus a share of the others. */
    topicBonus(q) {
      const c = this.c, have = this.topicStems(q), found = [];
      const hit = this.cueData.cues.map(([, stems]) => stems.every((s) => have.has(s)));
      this.cueData.cues.forEach(([, , rules], i) => { if (hit[i]) found.push([c.topic, rules]); });
      const cards = q.question ? this.cardsIn(q.text) : [];
      if (cards.length >= 2) {
        /* boosts._cards_together: a cue that is two or more of the cards' names. */
        const stemsOf = (name) => new Set(this.text.words(name).filter((w) => !this.stop.has(w))
          .map((w) => this.stem(w.endsWith("'s") ? w.slice(0, -2) : w)));
        const each = cards.map(([name]) => stemsOf(name));
        const every = new Set([].concat(...each.map((e) => Array.from(e))));
        this.cueData.cues.forEach(([, stems, rules], i) => {
          if (!hit[i] && stems.every((s) => every.has(s)) && !each.some((one) => stems.every((s) => one.has(s)))) {
            found.push([c.topic, rules]);
          }
        });
      }
      cards.forEach(([, rules]) => found.push([c.card, rules]));
      if (q.together && q.together.length) found.push([c.topic, q.together]);
      const given = new Map();
      found.forEach(([weight, rules]) => {
        if (weight <= 0) return;
        let n = 0;
        rules.forEach((id) => {
          if (!this.idSet.has(id)) return; /* rules of this release only */
          const b = weight * Math.max(0.0, 1.0 - c.topic_step * n++);
          if (!given.has(id)) {
            if (!this.passes(id, q.filters)) return;
            given.set(id, []);
          }
          given.get(id).push(b);
        });
      });
      if (!given.size) return null;
      const bonus = new Map();
      given.forEach((bs, id) => {
        const top = Math.max(...bs);
        bonus.set(id, top + c.again * (sum(bs) - top));
      });
      return bonus;
    }

    /* fusion.subrules_first: a title rule ranked just above one of its own
       subrules (within a few places) goes below it. */
    subrulesFirst(scored) {
      const ids = scored.map((x) => x[0]), moved = new Set(), w = this.c.subrules_window;
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i];
        if (moved.has(id) || !this.titleRules.has(id)) continue;
        for (let j = i + 1; j < Math.min(i + 1 + w, ids.length); j++) {
          if (!ids[j].startsWith(GLOSSARY) && parentId(ids[j]) === id) {
            ids.splice(i, 0, ids.splice(j, 1)[0]);
            moved.add(id);
            break;
          }
        }
      }
      return ids.map((id, k) => [id, scored[k][1]]);
    }

    /* -- results ----------------------------------------------------------------- */
    hits(items, q) {
      return this.needDocs(items.map((x) => x[0])).then(() => {
        const stems = new Set();
        q.words.concat(...q.phrases.map((p) => p.split(" "))).forEach((w) => {
          if (!this.stop.has(w)) this.text.words(w).forEach((x) => { if (!this.stop.has(x)) stems.add(this.lenientStem(x)); });
        });
        const out = [];
        items.forEach(([id, score]) => {
          const doc = this.docs[id];
          if (!doc) return;
          const [snippet, highlights] = this.snippet(doc.text || doc.title || "", stems);
          out.push({ id: doc.id, kind: doc.kind, title: doc.title, parent: doc.parent, url: doc.url, snippet, highlights, score });
        });
        return out;
      });
    }
    /* present.snippet_of: the window of ``text`` with the most matched words. */
    snippet(text, stems) {
      const size = this.c.snippet_words;
      text = joinSplit(text);
      const spans = [];
      for (const m of text.matchAll(CARD_TOKEN)) spans.push([m.index, m.index + m[0].length]);
      const matched = [];
      spans.forEach((s, i) => { if (stems.has(this.lenientStem(this.text.fold(text.slice(s[0], s[1]))))) matched.push(i); });
      if (!spans.length) return [text.slice(0, 200), []];
      let start = 0, end = spans.length;
      if (spans.length > size) {
        let best = -1;
        const mset = new Set(matched);
        for (let s = 0; s <= spans.length - size; s++) {
          let k = 0;
          if (matched.length) for (let i = s; i < s + size; i++) if (mset.has(i)) k++;
          if (k > best) { best = k; start = s; }
          if (!matched.length) break;
        }
        end = start + size;
        if (start) {
          start = best > 0 ? Math.max(0, start - 3) : 0;
          end = Math.min(spans.length, start + size);
        }
      }
      const a0 = start ? spans[start][0] : 0, b0 = end < spans.length ? spans[end - 1][1] : text.length;
      const prefix = a0 ? "\u2026" : "", suffix = b0 < text.length ? "\u2026" : "", shift = prefix.length - a0;
      const marks = matched.filter((i) => i >= start && i < end).map((i) => [spans[i][0] + shift, spans[i][1] + shift]);
      return [prefix + text.slice(a0, b0) + suffix, marks];
    }
  }

  /* glossary.title_variants: a typed title and its likely intended forms. */
  function titleVariants(t) {
    const out = [t];
    if (t.endsWith("s") && t.length > 3) out.push(t.slice(0, -1));
    if (t.endsWith("es") && t.length > 4) out.push(t.slice(0, -2));
    out.push(t + " order");
    return out;
  }

  return {
    FORMAT, BadInput, Engine, Text, parseSpec, normalizeId, findReferences, expand, ratio, editDistance, clean,
    idKind, parentId, unpackIds, shardKey,
  };
}));
