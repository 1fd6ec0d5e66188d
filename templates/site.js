/* crsearch site: the CLI's search in the browser, the search box as an ARIA
   combobox, "/" to focus it, copy-permalink buttons.  No external scripts.

   The ranking mirrors crsearch/search.py (Engine.search) step for step; its
   data and every table it uses (jargon, synonyms, stop and question words,
   titles, ranking constants) are written at build time by
   crsearch/site_search.py into search/*.js.  Nothing here is a second copy
   of a table: if a word list is needed, it comes from search/meta.js. */
(function () {
  "use strict";
  var DATA = window.CRSEARCH_DATA = window.CRSEARCH_DATA || {};
  var me = document.currentScript;
  /* search/ sits beside site.js, wherever the page that loads it is; the
     page names the metadata file (its name holds a hash of its content). */
  var BASE = me && me.src ? me.src.replace(/site\.js(?:[?#].*)?$/, "") : "";
  var META = me ? me.getAttribute("data-search") : null;
  var KEYS = me ? me.getAttribute("data-keys") : null;
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

  /* Load one data file (a <script>, so that file:// works too). */
  function load(name, file) {
    if (DATA[name]) return Promise.resolve(DATA[name]);
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
      enginePromise = META && KEYS ? Promise.all([load("meta", META), load("keys", KEYS)]).then(function (got) {
        return new Engine(got[0], got[1]);
      }) : Promise.reject(new Error("This site was built without search."));
      enginePromise.catch(function () { enginePromise = null; });
    }
    return enginePromise;
  }

  /* -- text (crsearch/text.py) ---------------------------------------------- */
  var WORD = /[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu;

  function Engine(m, keys) {
    var self = this;
    this.m = m;
    this.shardFiles = keys.shards;
    this.letterFiles = keys.letters;
    this.rank = m.rank;
    this.n = m.n;
    this.fold = m.tables.fold || {};
    this.stop = new Set(m.tables.stop_words);
    this.questionWords = new Set(m.tables.question_words);
    this.jargon = m.tables.jargon;
    /* Questions in a player's words (query.is_question, card_names, slang_in). */
    this.slang = m.tables.slang || {};
    this.filler = new Set(m.tables.filler_words || []);
    this.firstPerson = new Set(m.tables.first_person || []);
    var qt = m.question || {};
    this.questionStart = new Set(qt.question_start || []);
    this.notNames = new Set(qt.not_names || []);
    this.connectors = new Set(qt.connectors || []);
    this.negationPrefixes = qt.negation_prefixes || [];
    this.situationStems = new Set(qt.situation_stems || []);
    this.titleRules = new Set(m.title_rules || []);
    this.ids = unpackIds(m.ids);
    this.num = new Map();
    this.ids.forEach(function (id, i) { self.num.set(id, i); });
    this.ruleIds = this.ids.filter(function (i) { return i.indexOf("glossary:") !== 0; });
    this.idSet = new Set(this.ruleIds);
    this.keywords = m.keywords;
    this.chapters = m.chapters;
    this.glossary = {};
    m.glossary.forEach(function (g) {
      var e = { id: "glossary:" + g[0], names: g[1] || [self.normTitle(g[0])], targets: g[2], see: g[3] };
      e.names.forEach(function (name) { if (!(name in self.glossary)) self.glossary[name] = e; });
    });
    this.titleWords = new Set();
    Object.keys(m.keywords).concat(Object.keys(this.glossary)).forEach(function (t) {
      t.split(" ").forEach(function (w) { self.titleWords.add(w); });
    });
    this.unknownQuestionWords = new Set(m.unknown_question_words);
    this.shardKeys = new Set(Object.keys(keys.shards));
    this.words = {};     // word -> [count, stem, alternatives?]
    this.postings = {};  // stem -> [df, docnums, scores]
    this.blockStems = {}; // word -> stem, for words of loaded documents
    this.df = {};        // stem -> df, for stems of loaded documents
    this.docs = {};      // id -> stored fields
  }

  function unpackIds(packed) {
    var out = [], chapter = "";
    packed.forEach(function (s) {
      if (s[0] === ":") out.push("glossary" + s);
      else if (s[0] === ".") out.push(chapter + s);
      else { chapter = s.split(".")[0]; out.push(s); }
    });
    return out;
  }

  Engine.prototype.foldText = function (text) {
    var f = this.fold, out = "";
    text = text.normalize("NFKC");
    for (var i = 0; i < text.length; i++) { var c = text[i]; out += f[c] !== undefined ? f[c] : c; }
    return out.toLowerCase();
  };
  Engine.prototype.wordsOf = function (text) { return this.foldText(text).match(WORD) || []; };
  Engine.prototype.normTitle = function (text) { return this.wordsOf(text).join(" "); };
  Engine.prototype.stemWord = function (w) {
    var e = this.words[w];
    if (e) return e[1];
    return this.blockStems[w] || w;
  };
  Engine.prototype.stems = function (text) {
    var self = this;
    return this.wordsOf(text).filter(function (w) { return !self.stop.has(w); })
      .map(function (w) { return self.stemWord(w); });
  };
  Engine.prototype.inVocab = function (w) {
    if (this.questionWords.has(w)) return !this.unknownQuestionWords.has(w);
    var e = this.words[w];
    return !!(e && e[0] > 0);
  };

  /* -- data on demand ------------------------------------------------------- */
  Engine.prototype.shardOf = function (word) {
    for (var n = Math.min(word.length, 4); n > 0; n--) {
      if (this.shardKeys.has(word.slice(0, n))) return word.slice(0, n);
    }
    return null;
  };
  /* Load the word files of ``words`` (words and stems); question words
     only for a pasted passage (a typed question never searches for them).
     ``stems``: the words are stems, always loaded ("one" stems to "on",
     which is a stop word but not a stop stem), unless a word's file has
     brought them already (the stems of its other wordings travel with it). */
  Engine.prototype.need = function (words, passage, stems) {
    var self = this, keys = new Set();
    words.forEach(function (w) {
      if (!stems && (self.stop.has(w) || (!passage && self.questionWords.has(w)))) return;
      if (stems && self.postings[w]) return;
      var k = self.shardOf(w);
      if (k !== null) keys.add(k);
    });
    return Promise.all(Array.from(keys).map(function (k) {
      return load("w-" + k, "search/" + self.shardFiles[k]).then(function (d) {
        if (d._merged) return;
        d._merged = true;
        Object.keys(d.w).forEach(function (w) { self.words[w] = d.w[w]; });
        Object.keys(d.p).forEach(function (s) { if (!self.postings[s]) self.postings[s] = d.p[s]; });
      });
    }));
  };
  /* While a query is typed: load the word files of the words typed so far
     (and of the word being typed, once its file is certain). */
  Engine.prototype.prefetch = function (text) {
    var self = this, folded = this.foldText(text), ws = folded.match(WORD) || [];
    var complete = /[\s"'.,;:!?)]$/.test(folded) ? ws : ws.slice(0, -1), want = [];
    function take(w) {
      if (self.stop.has(w)) return;
      want.push(w);
      if (self.jargon[w]) want.push.apply(want, self.wordsOf(self.jargon[w]));
    }
    complete.forEach(take);
    if (ws.length) this.loadTopics(this.cueLetters(ws.concat(want))).catch(function () {});
    if (this.isQuestion(folded, ws, false)) this.loadCards(this.cardLetters(text)).catch(function () {});
    var last = complete.length < ws.length ? ws[ws.length - 1] : null;
    if (last && last.length >= 2) {
      var longer = false;
      this.shardKeys.forEach(function (k) { if (k.length > last.length && k.indexOf(last) === 0) longer = true; });
      if (!longer) take(last);
    }
    /* Then the files of their stems and other wordings ("dies": "put into
       a graveyard from the battlefield"), which the search reads next. */
    return this.need(want).then(function () {
      var more = [];
      want.forEach(function (w) {
        var e = self.words[w], alts = self.alternatives(w);
        if (!self.inVocab(w) && w.length >= 4 && /^\p{L}+$/u.test(w) && self.letterFiles[w[0]]) {
          load("v-" + w[0], "search/" + self.letterFiles[w[0]]).catch(function () {}); /* a typo */
        }
        if (e) more.push(e[1]);
        alts.forEach(function (alt) { more.push.apply(more, alt); });
      });
      return self.need(more, false, true);
    }).catch(function () {});
  };
  Engine.prototype.blockOf = function (num) {
    var b = this.m.blocks, lo = 0, hi = b.length - 1;
    while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (b[mid][0] <= num) lo = mid; else hi = mid - 1; }
    return lo;
  };
  /* Load the stored fields of ``ids``. */
  Engine.prototype.needDocs = function (ids) {
    var self = this, blocks = new Set();
    ids.forEach(function (id) {
      if (!self.docs[id] && self.num.has(id)) blocks.add(self.blockOf(self.num.get(id)));
    });
    return Promise.all(Array.from(blocks).map(function (b) {
      return load("d" + b, "search/d" + b + "." + self.m.blocks[b][1] + ".js").then(function (d) {
        if (d._merged) return;
        d._merged = true;
        d.docs.forEach(function (r) {
          self.docs[r[0]] = { id: r[0], kind: r[1], title: r[2], text: r[3], parent: r[4], url: r[5] };
        });
        Object.keys(d.stems).forEach(function (w) { self.blockStems[w] = d.stems[w]; });
        Object.keys(d.df).forEach(function (s) { self.df[s] = d.df[s]; });
      });
    }));
  };
  /* The documents whose text or title has stem ``s`` (what coverage counts). */
  Engine.prototype.present = function (s) {
    var p = this.postings[s];
    if (!p) return EMPTY;
    if (!p._has) { var set = new Set(), d = 0; p[3].forEach(function (x) { d += x; set.add(d); }); p._has = set; }
    return p._has;
  };
  /* Stem ``s``'s score in each document's text and name, unboosted. */
  Engine.prototype.textScores = function (s) {
    var p = this.postings[s];
    if (!p) return new Map();
    if (!p._text) {
      var scale = this.rank.scale, scores = p[2].slice(), m = new Map(), d = 0, j, i;
      for (j = 0; j < p[4].length; j += 2) scores[p[4][j]] = p[4][j + 1];
      for (i = 0; i < p[1].length; i++) { d += p[1][i]; if (scores[i]) m.set(d, scores[i] / scale); }
      p._text = m;
    }
    return p._text;
  };
  Engine.prototype.docFrequency = function (s) {
    var p = this.postings[s];
    if (p) return p[0];
    return this.df[s] || 0;
  };
  Engine.prototype.idf = function (s) { return Math.log(this.n / (this.docFrequency(s) + 1)) + 1; };

  var EMPTY = new Set();
  /* How many results the search page shows before the rest are ranked. */
  var FIRST = 3;

  /* -- rule numbers (crsearch/numbers.py) ------------------------------------ */
  var LETTERS = "abcdefghijkmnpqrstuvwxyz";
  var DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212";
  var QUOTES = /^["'`\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u00ab\u00bb\s]+|["'`\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u00ab\u00bb\s]+$/g;
  function BadInput(msg) { this.message = msg; }

  function normalizeId(text) {
    var s = text.replace(QUOTES, "");
    var p = /^(?:(?:cr|rules?|sections?|\u00a7)\s*)+/i.exec(s);
    if (p) s = s.slice(p[0].length).replace(QUOTES, "");
    if (s.slice(-1) === ".") s = s.slice(0, -1).trim();
    var m = /^([0-9]+)(?:\.([0-9]+))?(?:\s*([a-z]+))?$/i.exec(s);
    if (!s || !m) throw new BadInput(JSON.stringify(text.trim()) + " is not a rule number");
    var head = m[1], rule = m[2], letters = m[3];
    if (head.length === 1) {
      if (head === "0" || rule !== undefined || letters) throw new BadInput(JSON.stringify(text.trim()) + " is not a rule number");
      return head;
    }
    if (head.length !== 3 || head[0] === "0") throw new BadInput(JSON.stringify(text.trim()) + " is not a rule number: chapters have three digits (100-999) and sections one (1-9)");
    if (rule === undefined) {
      if (letters) throw new BadInput(JSON.stringify(text.trim()) + " is not a rule number: subrule letters follow a rule number, as in 702.19c");
      return head;
    }
    var number = rule.replace(/^0+/, "");
    if (!number || number.length > 4) throw new BadInput(JSON.stringify(text.trim()) + " is not a rule number");
    if (!letters) return head + "." + number;
    letters = letters.toLowerCase();
    if (letters.length > 2 || /[^abcdefghijkmnpqrstuvwxyz]/.test(letters)) throw new BadInput(JSON.stringify(text.trim()) + " is not a rule number: subrule letters run a-z without l and o");
    return head + "." + number + letters;
  }

  function idKey(id) {
    var m = /^(?:([1-9])|([1-9][0-9]{2})(?:\.([1-9][0-9]{0,3})([a-km-np-z]{1,2})?)?)$/.exec(id);
    if (!m) return null;
    if (m[1]) return [0, +m[1], -1, -1];
    var lt = -1;
    if (m[4]) { lt = 0; for (var i = 0; i < m[4].length; i++) lt = lt * 24 + LETTERS.indexOf(m[4][i]) + 1; lt -= 1; }
    return [1, +m[2], m[3] ? +m[3] : -1, lt];
  }
  function cmpKey(a, b) { for (var i = 0; i < 4; i++) { if (a[i] !== b[i]) return a[i] - b[i]; } return 0; }
  function depth(k) { return k[0] === 0 ? 1 : k[2] < 0 ? 2 : k[3] < 0 ? 3 : 4; }
  function idKind(id) {
    if (id.indexOf("glossary:") === 0) return "glossary";
    var k = idKey(id);
    return ["", "section", "chapter", "rule", "subrule"][depth(k)];
  }
  function parentId(id) {
    var d = depth(idKey(id));
    if (d === 1) return null;
    if (d === 2) return id[0];
    if (d === 3) return id.split(".")[0];
    return id.replace(/[a-z]+$/, "");
  }
  function ancestors(id) {
    var out = [];
    if (id.indexOf("glossary:") === 0) return out;
    var up = parentId(id);
    while (up) { out.push(up); up = parentId(up); }
    return out;
  }

  function rangeEnd(start, raw) {
    var d = depth(idKey(start)), end;
    raw = raw.trim();
    if (/^[a-z]+$/i.test(raw)) {
      if (d !== 4) throw new BadInput("range end " + raw + " is letters, but " + start + " has none");
      end = normalizeId(start.replace(/[a-z]+$/, "") + raw);
    } else if (raw.indexOf(".") < 0 && d >= 3) {
      if (!/^[0-9]/.test(raw) || (d === 4 && /^[0-9]+$/.test(raw))) throw new BadInput("range end " + raw + " is ambiguous after " + start);
      end = normalizeId(start.split(".")[0] + "." + raw);
    } else end = normalizeId(raw);
    var sk = idKey(start), ek = idKey(end);
    if ((sk[0] === 0) !== (ek[0] === 0)) throw new BadInput("range " + start + "\u2013" + end + " mixes a section with a chapter or rule");
    if (cmpKey(ek, sk) < 0) throw new BadInput("range " + start + "\u2013" + end + " ends before it starts");
    return end;
  }

  var SPEC_TOKEN = new RegExp("(\\s+)|([0-9][\\w.]*)|([" + DASHES + "]|\\b(?:to|through|thru)\\b)|([,;&]|\\b(?:and|or)\\b)|(\\b(?:rules?|sections?|cr|see)\\b|cr(?=[0-9])|\u00a7)|(\\b[a-z]+\\b)", "iy");
  /* One id, a range or a list: "510.1c-d", "601.2f\u2013h", "702.19c, 702.20". */
  function parseSpec(text) {
    try { var one = normalizeId(text); return [[one, one]]; } catch (e) { if (!(e instanceof BadInput)) throw e; }
    var s = text.replace(QUOTES, "").replace(/\.$/, ""), spans = [], open = false, glued = false, pos = 0;
    while (pos < s.length) {
      SPEC_TOKEN.lastIndex = pos;
      var m = SPEC_TOKEN.exec(s);
      if (!m) throw new BadInput(JSON.stringify(text) + " is not a rule number, range or list");
      pos = SPEC_TOKEN.lastIndex;
      var tok = m[0];
      if (m[1]) continue;
      if (m[3] || m[4] || m[5]) {
        if (open) throw new BadInput("the range before " + tok + " has no end");
        if (m[3]) {
          if (!spans.length || spans[spans.length - 1][0] !== spans[spans.length - 1][1]) throw new BadInput(tok + " does not follow a single rule number");
          open = true;
        }
        glued = false;
        continue;
      }
      var last = spans.length ? spans[spans.length - 1][1] : null;
      if (open) {
        var st = spans[spans.length - 1][0];
        spans[spans.length - 1] = [st, rangeEnd(st, tok.replace(/\.$/, ""))];
        open = false;
      } else if (m[6]) {
        var d = last ? depth(idKey(last)) : 0, id;
        if (d === 3 && glued) { id = normalizeId(last + tok); spans[spans.length - 1] = [id, id]; }
        else if (d === 4) { id = normalizeId(last.replace(/[a-z]+$/, "") + tok); spans.push([id, id]); }
        else throw new BadInput("unexpected " + tok);
      } else { var n = normalizeId(tok); spans.push([n, n]); }
      glued = true;
    }
    if (open || !spans.length) throw new BadInput(JSON.stringify(text) + " is not a rule number, range or list");
    return spans;
  }

  /* The existing ids a span covers, in order (numbers.expand). */
  Engine.prototype.expand = function (span) {
    if (span[0] === span[1]) return this.idSet.has(span[0]) ? [span[0]] : [];
    var sk = idKey(span[0]), ek = idKey(span[1]), d = Math.max(depth(sk), depth(ek)), out = [];
    this.ruleIds.forEach(function (id) {
      var k = idKey(id);
      if (k && cmpKey(sk, k) <= 0 && cmpKey(k, ek) <= 0 && depth(k) <= d) out.push([k, id]);
    });
    out.sort(function (a, b) { return cmpKey(a[0], b[0]); });
    return out.map(function (x) { return x[1]; });
  };
  Engine.prototype.children = function (id) {
    return this.ruleIds.filter(function (i) {
      return i === id || (i.indexOf(id) === 0 && ancestors(i).indexOf(id) >= 0);
    });
  };

  /* -- the query (crsearch/query.py) ------------------------------------------- */
  var FILTER = /(?<![\w:])([A-Za-z]+):([^\s"\u201c\u201d()]*)/g;
  var PHRASE = /"([^"]*)"|\u201c([^\u201c\u201d]*)\u201d/g;
  var OPERATORS = new Set(["AND", "OR", "NOT", "ANDNOT", "ANDMAYBE", "TO"]);
  var LOST_NUMBER = /\b(?:rules?|section)\s*(?=[,.;:)\u2013\u2014-])/i;
  var REFERENCE = /\b(?:(?:rules?|sections?|cr)\s+)?([1-9][0-9]{2}\.[0-9]+[a-z]{0,2})(?:\s*[\u2013\u2014-]\s*([0-9]{3}\.[0-9]+[a-z]{0,2}|[a-z]{1,2}\b|[0-9]+\b))?/gi;
  var CHAPTER_REFERENCE = /\b(?:rules?|cr)\s+([1-9][0-9]{2})\b(?![.\u2013\u2014-]?[0-9])/gi;
  var TITLED_CHAPTER = /\b([1-9][0-9]{2}),?\s*(?=[\u201c"])/g;
  var KIND_ALIASES = { rules: "rule", subrules: "subrule", chapters: "chapter", sections: "section", term: "glossary", terms: "glossary", definition: "glossary" };
  var KINDS = ["rule", "subrule", "chapter", "section", "glossary"];

  function clean(text) {
    return text.replace(/[\u0000-\u001f\u007f-\u009f\u200b\ufeff\u2028\u2029\p{Zs}\p{Cs}\p{Co}\p{Cn}]/gu, " ").split(/\s+/).filter(Boolean).join(" ");
  }

  Engine.prototype.parse = function (raw) {
    var self = this, text = clean(raw), q = { raw: raw, ids: [], specOnly: false, badNumber: null, filters: {}, phrases: [], words: [], passage: false };
    if (text.length > 2000) {
      var cut = text.lastIndexOf(" ", 2000);
      text = text.slice(0, cut > 1000 ? cut : 2000);
    }
    if (!text) throw new BadInput("the query is empty: type a rule number, a keyword, a term or a question");
    text = text.replace(FILTER, function (all, name, value) {
      name = name.toLowerCase(); value = value.replace(/^[.,;]+|[.,;]+$/g, "");
      if (name !== "section" && name !== "chapter" && name !== "kind") return all;
      if (name === "kind") {
        var v = KIND_ALIASES[value.toLowerCase()] || value.toLowerCase();
        if (KINDS.indexOf(v) < 0) throw new BadInput("kind:" + value + " is not a kind; use one of " + KINDS.join(", "));
        q.filters.kind = v;
      } else {
        var id = null;
        try { id = normalizeId(value); } catch (e) { id = null; }
        var want = name === "section" ? "section" : "chapter";
        if (!id || idKind(id) !== want) throw new BadInput(name + ":" + value + " is not a " + want + " number (as in " + (name === "section" ? "section:7" : "chapter:702") + ")");
        q.filters[name] = id;
      }
      return " ";
    });
    var bare = text.trim().replace(/^[()[\]{}]+|[()[\]{}]+$/g, "").trim();
    if (bare && /[0-9]/.test(bare)) {
      try {
        q.ids = parseSpec(bare); q.specOnly = true; q.text = bare;
        return q;
      } catch (e) {
        if (!(e instanceof BadInput)) throw e;
        var s = bare.toLowerCase().replace(/^(?:cr|rules?|sections?|\u00a7)\s*/, "");
        if (/^[0-9][0-9.]*[a-z]{0,3}\.?$/.test(s)) { q.badNumber = bare; q.badReason = e.message; return q; }
      }
    }
    if (/[0-9]/.test(text)) {
      text = text.replace(REFERENCE, function (all, start, end) {
        try {
          var a = normalizeId(start);
          q.ids.push([a, end ? rangeEnd(a, end) : a]);
          return " ";
        } catch (e) { return all; }
      });
      /* A lone chapter where the text vouches for it: "see rule 704",
         "See 718, \u201cPrototype Cards.\u201d" (numbers.find_references). */
      text = text.replace(CHAPTER_REFERENCE, function (all, chapter) {
        q.ids.push([chapter, chapter]);
        return " ";
      }).replace(TITLED_CHAPTER, function (all, chapter) {
        q.ids.push([chapter, chapter]);
        return " " + all.slice(all.indexOf(chapter) + chapter.length);
      });
    }
    var m;
    PHRASE.lastIndex = 0;
    while ((m = PHRASE.exec(text))) {
      var phrase = self.wordsOf(m[1] !== undefined ? m[1] : m[2]).join(" ");
      if (phrase && q.phrases.indexOf(phrase) < 0) q.phrases.push(phrase);
    }
    q.text = text.split(/\s+/).filter(Boolean).join(" ");
    q.words = this.wordsOf(text).filter(function (w) {
      return !(OPERATORS.has(w.toUpperCase()) && new RegExp("\\b" + w.toUpperCase() + "\\b").test(text));
    });
    if (!q.ids.length && q.words.length <= 6) {
      var expanded = [];
      q.words.forEach(function (w) {
        if (self.jargon[w]) expanded.push.apply(expanded, self.wordsOf(self.jargon[w])); else expanded.push(w);
      });
      q.words = expanded;
    }
    var lost = LOST_NUMBER.test(text);
    q.question = this.isQuestion(text, q.words, lost);
    q.names = []; q.slang = [];
    if (q.question) {
      q.names = this.cardNames(text);
      var drop = new Set();
      q.names.forEach(function (n) { self.wordsOf(n).forEach(function (w) { drop.add(w); }); });
      q.words = q.words.filter(function (w) { return !drop.has(w); });
      q.slang = this.slangIn(q.words);
    }
    q.passage = !q.question && (q.words.length >= 9 || lost || (q.words.length >= 6 && /[.;:]\s+\w/u.test(text)));
    if (!q.words.length && !q.ids.length && !Object.keys(q.filters).length) {
      throw new BadInput("the query has nothing to search for: type a rule number, a keyword, a term or a question");
    }
    return q;
  };
  /* query.alternatives: the other wordings of a word, as stems.  The site
     builds them for the words of the release; for a word the release never
     uses they come from its forms with and without a negation prefix
     ("unmorph" -> "morph", "blockable" -> "unblockable"), as in the CLI. */
  Engine.prototype.alternatives = function (w) {
    var e = this.words[w];
    if (e) return e[2] || [];
    var self = this, out = [];
    this.negationPrefixes.forEach(function (p) {
      var base = w.indexOf(p) === 0 ? self.words[w.slice(p.length)] : null, longer = self.words[p + w];
      if (base && base[0] > 0) out.push([base[1]]);
      else if (longer && longer[0] > 0) out.push([longer[1]]);
    });
    return out;
  };
  /* The forms alternatives() reads for the content words (terms()) the
     release never uses, known once their word files are in: most queries
     have none, and ask for nothing more. */
  Engine.prototype.otherForms = function (ws) {
    var self = this, out = [];
    ws.forEach(function (w) {
      if (self.words[w]) return;
      self.negationPrefixes.forEach(function (p) {
        if (w.length > p.length && w.indexOf(p) === 0) out.push(w.slice(p.length));
        out.push(p + w);
      });
    });
    return out;
  };
  /* search.is_long_question */
  Engine.prototype.isLongQuestion = function (q) {
    return q.question && this.terms(q).length >= this.rank.semantic_min_terms;
  };
  /* Distinct content words (ParsedQuery.terms); for a question, without
     filler and with the slang's rules wording added. */
  Engine.prototype.terms = function (q) {
    var self = this, out = [];
    q.words.concat(this.slangWords(q)).forEach(function (w) {
      if (!self.stop.has(w) && out.indexOf(w) < 0 && (q.passage || !self.questionWords.has(w))
          && !(q.question && self.filler.has(w))) out.push(w);
    });
    return out.slice(0, this.rank.max_terms || 40);
  };
  Engine.prototype.slangWords = function (q) {
    var self = this, out = [];
    (q.slang || []).forEach(function (p) { out.push.apply(out, self.wordsOf(p[1])); });
    return out;
  };

  /* query.is_question: "?", "I"/"my"/"me", or a question word first
     (unless the text lost a rule number, as pasted web text does). */
  Engine.prototype.isQuestion = function (text, ws, lost) {
    var self = this;
    if (!ws.length) return false;
    return text.indexOf("?") >= 0 || ws.some(function (w) { return self.firstPerson.has(w); })
      || (!lost && this.questionStart.has(ws[0]));
  };

  var CAP_TOKEN = /[A-Z][\p{L}\p{N}_'\u2019-]*|[\p{L}\p{N}_'\u2019-]+|[.?!:;,()"]/gu;
  /* query.card_names: runs of capitalised words ("Xenagos, God of Revels"),
     a lone one not first in its sentence, or one with a possessive. */
  Engine.prototype.cardNames = function (text) {
    var self = this, tokens = text.match(CAP_TOKEN) || [], names = [], run = [], runCaps = 0;
    var startOfSentence = true, runStartsSentence = false;
    function cap(t) {
      var core = t.split("'")[0].split("\u2019")[0];
      return /^\p{Lu}/u.test(t) && core.length > 1
        && !(core.toUpperCase() === core && core.toLowerCase() !== core)
        && !self.notNames.has(core.toLowerCase());
    }
    function flush() {
      while (run.length && !cap(run[run.length - 1])) run.pop();
      if (run.length) {
        var last = run[run.length - 1];
        var possessive = /(?:'s|\u2019s|s')$/.test(last);
        if (runCaps >= 2 || !runStartsSentence || possessive) names.push(run.join(" ").split(" ,").join(","));
      }
      run = []; runCaps = 0;
    }
    tokens.forEach(function (t) {
      if (cap(t)) {
        if (!run.length) runStartsSentence = startOfSentence;
        run.push(t); runCaps++;
        startOfSentence = false;
      } else if (run.length && (self.connectors.has(t.toLowerCase()) || t === ",")) {
        run.push(t);
      } else {
        flush();
        if (".?!:;()\"".indexOf(t) >= 0 && t.length === 1) startOfSentence = true;
        else if (t !== ",") startOfSentence = false;
      }
    });
    flush();
    return names;
  };

  /* query.slang_in: slang phrases (vocab.SLANG), longest first. */
  Engine.prototype.slangIn = function (ws) {
    var found = [], seen = new Set(), n = ws.length, i = 0;
    while (i < n) {
      var hit = false;
      for (var size = 4; size >= 1; size--) {
        var key = ws.slice(i, i + size).join(" ");
        if (i + size <= n && Object.prototype.hasOwnProperty.call(this.slang, key)) {
          if (!seen.has(key)) { seen.add(key); found.push([key, this.slang[key]]); }
          i += size; hit = true; break;
        }
      }
      if (!hit) i += 1;
    }
    return found;
  };

  /* Engine._keep_titles: a "name" that is a rules title ("First Strike")
     goes back into the words. */
  Engine.prototype.keepTitles = function (q) {
    var self = this, back = q.names.filter(function (n) {
      var t = self.normTitle(n);
      return Object.prototype.hasOwnProperty.call(self.keywords, t) || Object.prototype.hasOwnProperty.call(self.glossary, t);
    });
    if (!back.length) return;
    q.names = q.names.filter(function (n) { return back.indexOf(n) < 0; });
    back.forEach(function (n) { q.words = q.words.concat(self.wordsOf(n)); });
  };

  /* difflib.SequenceMatcher(None, a, b).ratio() (no junk: words are short). */
  function ratio(a, b) {
    var b2j = {}, j;
    for (j = 0; j < b.length; j++) (b2j[b[j]] = b2j[b[j]] || []).push(j);
    var matched = 0, queue = [[0, a.length, 0, b.length]];
    while (queue.length) {
      var t = queue.pop(), alo = t[0], ahi = t[1], blo = t[2], bhi = t[3];
      var besti = alo, bestj = blo, size = 0, j2len = {};
      for (var i = alo; i < ahi; i++) {
        var next = {}, js = b2j[a[i]] || [];
        for (var x = 0; x < js.length; x++) {
          j = js[x];
          if (j < blo) continue;
          if (j >= bhi) break;
          var k = next[j] = (j2len[j - 1] || 0) + 1;
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
    var total = a.length + b.length;
    return total ? 2 * matched / total : 1;
  }

  /* Typo correction (query.correct): only words the release never uses. */
  Engine.prototype.correct = function (q) {
    /* In a question, capitalised words are names more often than typos. */
    var self = this, keep = new Set();
    if (q.question) (q.text.match(/\b[A-Z][\p{L}\p{N}_']*/gu) || []).forEach(function (t) { keep.add(self.foldText(t)); });
    var todo = q.words.filter(function (w) {
      return !(self.inVocab(w) || !/^\p{L}+$/u.test(w) || w.length < 4 || self.stop.has(w) || keep.has(w));
    });
    if (!todo.length) return Promise.resolve(null);
    var letters = Array.from(new Set(todo.map(function (w) { return w[0]; })));
    return Promise.all(letters.map(function (l) {
      return self.letterFiles[l] ? load("v-" + l, "search/" + self.letterFiles[l]) : Promise.resolve([]);
    })).then(function (lists) {
      var byLetter = {};
      letters.forEach(function (l, i) { byLetter[l] = lists[i]; });
      var needAll = false;
      var fixes = todo.map(function (w) {
        var pool = byLetter[w[0]].filter(function (r) { return Math.abs(r[0].length - w.length) <= 2; });
        if (!pool.length) needAll = true;
        return pool;
      });
      var all = needAll ? Promise.all(Object.keys(self.letterFiles).map(function (l) { return load("v-" + l, "search/" + self.letterFiles[l]); })) : Promise.resolve([]);
      return all.then(function (every) {
        var flat = [].concat.apply([], every);
        var changed = false, best = {};
        todo.forEach(function (w, i) {
          var pool = fixes[i].length ? fixes[i] : flat.filter(function (r) { return Math.abs(r[0].length - w.length) <= 1; });
          var top = null;
          pool.forEach(function (r) {
            var x = ratio(r[0], w);
            if (x < 0.75) return;
            var score = x + (self.titleWords.has(r[0]) ? 0.05 : 0) + Math.min(r[1], 200) / 20000;
            if (!top || score > top[0] || (score === top[0] && r[0] > top[1])) top = [score, r[0]];
          });
          if (top && top[1] !== w) { best[w] = top[1]; changed = true; }
        });
        if (!changed) return null;
        return q.words.map(function (w) { return best[w] || w; }).join(" ");
      });
    });
  };

  /* -- the search (search.Engine.search) ------------------------------------------ */
  /* ``partial`` (optional) is called with the first results as soon as they
     are sure (rule numbers, titles), before the full text is ranked. */
  Engine.prototype.search = function (text, limit, partial) {
    var self = this, R = this.rank, q;
    limit = limit || 10;
    try { q = this.parse(text); } catch (e) { return Promise.reject(e); }
    if (q.names && q.names.length) this.keepTitles(q);
    var result = { query: text, release: this.m.date, results: [], suggestion: null, error: null, near: null };
    if (q.badNumber) {
      result.error = q.badReason || (JSON.stringify(q.badNumber) + " is not a rule number");
      return Promise.resolve(result);
    }
    var ranked = new Map();
    function add(id, score) { if (!ranked.has(id) && self.passes(id, q.filters)) ranked.set(id, score); }
    function finish() {
      var items = Array.from(ranked.entries()).slice(0, limit);
      return self.hits(items, q).then(function (h) { result.results = h; return result; });
    }
    var top = 1000.0;
    if (!q.passage) {
      q.ids.forEach(function (span) {
        var members;
        try { members = self.expand(span); } catch (e) { members = []; }
        var k = idKind(span[0]);
        if (span[0] === span[1] && members.length && (k === "rule" || k === "chapter") && q.specOnly) {
          members = k === "rule" ? self.children(span[0]) : [span[0]].concat(self.ruleIds.filter(function (i) {
            return i.indexOf(span[0] + ".") === 0 && idKind(i) === "rule";
          }));
        }
        members.forEach(function (id) { add(id, top); top -= 0.01; });
      });
    }
    if (q.specOnly) {
      if (!ranked.size && !Object.keys(q.filters).length) {
        var missing = q.ids[0][0];
        for (var i = 0; i < q.ids.length; i++) { if (!self.expand(q.ids[i]).length) { missing = q.ids[i][0]; break; } }
        result.error = "There is no " + idKind(missing) + " " + missing + " in the " + this.m.date + " rules.";
        result.near = this.nearest(missing);
        result.missing = missing;
        return Promise.resolve(result);
      }
      return finish();
    }
    // Words first: their stems, counts and other wordings.
    return this.need(q.words, q.passage).then(function () {
      return q.passage ? null : self.correct(q);
    }).then(function (suggestion) {
      if (suggestion) { result.suggestion = suggestion; q.words = suggestion.split(" "); }
      return self.need(q.words.concat(q.phrases.join(" ").split(" "), self.slangWords(q)), q.passage);
    }).then(function () {
      return self.need(self.otherForms(self.terms(q)), q.passage);
    }).then(function () {
      // Titles need no more data: the sure first results can be shown while
      // the files of stems and other wordings load.
      var titles = self.titleMatches(q), early = Promise.resolve();
      if (!q.passage) {
        top = 500.0;
        titles.forEach(function (id) { add(id, top); top -= 0.01; });
        if (partial && ranked.size) {
          early = self.hits(Array.from(ranked.entries()).slice(0, limit), q).then(function (h) {
            partial({ query: text, release: result.release, results: h, suggestion: result.suggestion, error: null });
          });
        }
      }
      var more = [];
      self.terms(q).forEach(function (w) {
        more.push(self.stemWord(w));
        self.alternatives(w).forEach(function (alt) { more.push.apply(more, alt); });
      });
      return Promise.all([self.need(more, q.passage, true),
                          q.passage ? null : self.loadTopics(self.cueLetters(q.words.concat(self.slangWords(q)))),
                          q.question ? self.loadCards(self.cardLetters(q.text)) : null]).then(function () {
        return [titles, early];
      });
    }).then(function (got) {
      var titles = got[0], early = got[1], cited = [];
      if (q.passage) {
        q.ids.forEach(function (span) { try { cited.push.apply(cited, self.expand(span)); } catch (e) { /* bad range */ } });
        var phraseWords = q.phrases.reduce(function (n, p) { return n + p.split(" ").length; }, 0);
        if (q.words.length - phraseWords <= 3) {
          cited = titles.concat(cited); titles = [];
          cited.forEach(function (id, n) { add(id, 500.0 - n * 0.01); });
          cited = [];
        }
        return [titles, cited, early];
      }
      return (q.phrases.length ? Promise.resolve([]) : self.interaction(q)).then(function (inter) {
        /* In a story, keywords named in passing are evidence like a topic
           (topicBonus), not the first results. */
        if (self.isLongQuestion(q)) { q.together = inter; return [titles, cited, early]; }
        top = 300.0;
        inter.forEach(function (id) { add(id, top); top -= 0.01; });
        return [titles, cited, early];
      });
    }).then(function (got) {
      var titles = got[0], cited = got[1], early = got[2];
      function merge(full, into) {
        full.forEach(function (hit, n) {
          into(hit[0], hit[1]);
          if (n === 0 && q.passage) titles.concat(cited).forEach(function (t) { into(t, hit[1] - 0.001); });
        });
      }
      if (q.words.length || q.phrases.length) {
        /* The first few places need fewer documents: show them first. */
        var first = partial && limit > FIRST ? self.fullText(q, FIRST + ranked.size).then(function (full) {
          var copy = new Map(ranked);
          merge(full, function (id, score) { if (!copy.has(id) && self.passes(id, q.filters)) copy.set(id, score); });
          return early.then(function () {
            return self.hits(Array.from(copy.entries()).slice(0, FIRST), q);
          }).then(function (h) {
            partial({ query: text, release: result.release, results: h, suggestion: result.suggestion, error: null });
          });
        }) : null;
        /* The rest once the first few are shown: their documents would
           otherwise share the connection with those of the first few. */
        var rest = (first || Promise.resolve()).then(function () { return self.fullText(q, limit + ranked.size); });
        return Promise.all([early, rest]).then(function (all) {
          merge(all[1], add);
        });
      } else if (Object.keys(q.filters).length && !ranked.size) {
        var pool = q.filters.kind === "glossary" ? self.ids.filter(function (i) { return i.indexOf("glossary:") === 0; }) : self.ruleIds;
        pool.filter(function (i) { return self.passes(i, q.filters); }).slice(0, limit).forEach(function (i) { add(i, 0); });
      }
    }).then(finish);
  };

  Engine.prototype.passes = function (id, f) {
    if (!f || !Object.keys(f).length) return true;
    var isG = id.indexOf("glossary:") === 0, k = idKind(id);
    if (f.kind && f.kind !== k) return false;
    if (f.section && (isG || id[0] !== f.section)) return false;
    return !(f.chapter && (isG || k === "section" || id.split(".")[0] !== f.chapter));
  };

  /* Nearest existing id above a missing one: 702.19z -> 702.19 -> 702. */
  Engine.prototype.nearest = function (id) {
    var up = id;
    while (up) {
      try { up = parentId(up); } catch (e) { return null; }
      if (up && this.idSet.has(up)) return up;
    }
    return null;
  };

  function variants(t) {
    var out = [t];
    if (t.slice(-1) === "s" && t.length > 3) out.push(t.slice(0, -1));
    if (t.slice(-2) === "es" && t.length > 4) out.push(t.slice(0, -2));
    out.push(t + " order");
    return out;
  }

  Engine.prototype.titleMatches = function (q) {
    var self = this, out = [], wanted = [];
    if (q.words.length && !q.passage) wanted.push([q.words.join(" "), true]);
    if (q.passage) q.phrases.forEach(function (p) { wanted.push([p, false]); });
    wanted.forEach(function (w) {
      var cands = variants(self.normTitle(w[0]));
      for (var i = 0; i < cands.length; i++) {
        var c = cands[i];
        if (Object.prototype.hasOwnProperty.call(self.keywords, c)) {
          var kw = self.keywords[c];
          out.push.apply(out, w[1] ? self.children(kw) : [kw]);
        }
        var g = w[1] && Object.prototype.hasOwnProperty.call(self.glossary, c) ? self.glossary[c] : null;
        if (g) { out.push(g.id); out.push.apply(out, self.glossaryTargets(g, 0)); }
        if (Object.prototype.hasOwnProperty.call(self.chapters, c)) out.push(self.chapters[c]);
        if (out.length) break;
      }
    });
    var seen = new Set();
    return out.filter(function (i) { if (seen.has(i)) return false; seen.add(i); return true; });
  };

  Engine.prototype.glossaryTargets = function (g, d) {
    var self = this, out = g.targets.filter(function (t) { return self.idSet.has(t); });
    if (g.see && d < 2) {
      var target = this.glossary[g.see];
      if (target) out = [target.id].concat(this.glossaryTargets(target, d + 1));
    }
    return out;
  };

  Engine.prototype.keywordsNamed = function (q) {
    var found = [], ws = q.words, i = 0;
    while (i < ws.length) {
      var hit = false;
      for (var n = 3; n >= 1; n--) {
        if (i + n > ws.length) continue;
        var key = ws.slice(i, i + n).join(" ");
        if (Object.prototype.hasOwnProperty.call(this.keywords, key) && !this.stop.has(key)) {
          if (found.indexOf(this.keywords[key]) < 0) found.push(this.keywords[key]);
          i += n; hit = true; break;
        }
      }
      if (!hit) i += 1;
    }
    return found.filter(function (k) { return k.indexOf("701.") === 0 || k.indexOf("702.") === 0; });
  };

  Engine.prototype.docWords = function (doc) {
    if (!doc._words) {
      var self = this, tw = this.wordsOf(doc.text || "").concat(this.wordsOf(doc.title || ""));
      var st = new Set();
      tw.forEach(function (w) { if (!self.stop.has(w)) st.add(self.stemWord(w)); });
      doc._words = tw; doc._stems = st;
    }
    return doc;
  };

  /* "deathtouch trample": each keyword's subrules that speak of the other. */
  Engine.prototype.interaction = function (q) {
    var self = this, named = this.keywordsNamed(q);
    if (named.length < 2) return Promise.resolve([]);
    var all = [];
    named.forEach(function (k) { all.push.apply(all, self.children(k)); });
    return this.needDocs(all).then(function () {
      var texts = {}, vocab = {}, names = {};
      named.forEach(function (k) {
        texts[k] = self.children(k).filter(function (i) { return i !== k; }).map(function (i) { return [i, self.docs[i]]; });
        var v = new Set();
        texts[k].forEach(function (r) { if (r[1]) self.docWords(r[1])._stems.forEach(function (s) { v.add(s); }); });
        vocab[k] = v;
        names[k] = new Set(self.stems((self.docs[k] || {}).title || ""));
      });
      var scored = [];
      named.forEach(function (k) {
        var others = named.filter(function (o) { return o !== k; });
        texts[k].forEach(function (r) {
          if (!r[1]) return;
          var stems = self.docWords(r[1])._stems, s = 0;
          others.forEach(function (o) {
            var sub = names[o].size > 0;
            names[o].forEach(function (x) { if (!stems.has(x)) sub = false; });
            if (sub) s += 10.0;
            stems.forEach(function (t) { if (vocab[o].has(t) && !names[k].has(t)) s += self.idf(t); });
          });
          scored.push([s, r[0]]);
        });
      });
      scored.sort(function (a, b) { return b[0] - a[0]; });
      return scored.slice(0, 4).filter(function (x) { return x[0] > 0; }).map(function (x) { return x[1]; });
    });
  };

  function pairs(ws) { var out = new Set(); for (var i = 1; i < ws.length; i++) out.add(ws[i - 1] + " " + ws[i]); return out; }

  Engine.prototype.fullText = function (q, need) {
    var self = this, R = this.rank, stems = [], alts = {};
    function push(s) { if (stems.indexOf(s) < 0) stems.push(s); }
    var terms = this.terms(q);
    terms.forEach(function (w) { self.stems(w).forEach(push); });
    if (!q.passage) {
      terms.forEach(function (w) {
        var ws = self.stems(w);
        if (ws.length !== 1) return;
        self.alternatives(w).forEach(function (alt) {
          var a = new Set(alt);
          if (a.size && !a.has(ws[0])) {
            (alts[ws[0]] = alts[ws[0]] || []).push(a);
            a.forEach(push);
          }
        });
      });
    }
    var phraseStems = q.phrases.map(function (p) { return self.stems(p); });
    phraseStems.forEach(function (ps) { ps.forEach(push); });
    if (!stems.length) return Promise.resolve([]);
    var n = this.n, df = {};
    stems.forEach(function (s) { df[s] = self.docFrequency(s); });
    var pick;
    if (q.passage) {
      pick = stems.filter(function (s) { return df[s]; }).sort(function (a, b) { return df[a] - df[b]; }).slice(0, R.passage_terms);
    } else {
      pick = stems.filter(function (s) { return df[s] <= R.common * n; });
      if (!pick.length) pick = stems;
    }
    // BM25F candidates: the precomputed scores summed (as Whoosh sums its Or).
    var total = new Map();
    pick.forEach(function (s) {
      if (q.passage) {
        /* A passage is matched on text and name, unboosted (as the CLI does). */
        self.textScores(s).forEach(function (v, d) { total.set(d, (total.get(d) || 0) + v); });
        return;
      }
      var p = self.postings[s];
      if (!p) return;
      var d = 0;
      for (var i = 0; i < p[1].length; i++) { d += p[1][i]; total.set(d, (total.get(d) || 0) + p[2][i] / R.scale); }
    });
    /* A typed "phrase": each of its words in the text or name, and their
       scores added, as Whoosh's And of the two queries scores. */
    var required = q.passage ? [] : [].concat.apply([], phraseStems).map(function (s) { return self.textScores(s); });
    var cands = [];
    total.forEach(function (v, d) {
      var id = self.ids[d];
      if (!self.passes(id, q.filters)) return;
      for (var i = 0; i < required.length; i++) { if (!required[i].has(d)) return; v += required[i].get(d); }
      cands.push([d, v]);
    });
    cands.sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
    /* A question in a player's words re-ranks more candidates. */
    var longQuestion = this.isLongQuestion(q);
    cands = cands.slice(0, longQuestion ? R.question_candidates : R.candidates);
    /* Subrules move up past their title rule by up to three places: the
       places just below the first ``need`` must be exact too. */
    if (longQuestion) need += 3;
    if (!cands.length) return Promise.resolve([]);
    var ids = cands.map(function (c) { return self.ids[c[0]]; });
    var qbigrams = pairs(q.words);
    var plain = q.words.filter(function (w) { return !self.questionWords.has(w); });
    var tpairs = pairs(plain);
    var named = new Set(q.passage ? [] : self.keywordsNamed(q));
    var altStems = new Set();
    Object.keys(alts).forEach(function (k) { alts[k].forEach(function (a) { a.forEach(function (s) { altStems.add(s); }); }); });
    var stemSet = new Set(stems.filter(function (s) { return !altStems.has(s); }).concat(Object.keys(alts)));
    var weights = {}, totalWeight = 0;
    stemSet.forEach(function (s) {
      weights[s] = self.idf(s);
      /* "copy", "leaves", "the stack": what the question is about. */
      if (q.question && self.situationStems.has(s)) weights[s] *= self.m.tables.situation_weight;
      totalWeight += weights[s];
    });
    totalWeight = totalWeight || 1.0;
    var question = !q.passage && q.words.some(function (w) { return self.questionWords.has(w); });
    var inCands = {};
    ids.forEach(function (id) {
      if (idKind(id) === "subrule") { var up = parentId(id); inCands[up] = (inCands[up] || 0) + 1; }
    });
    var citedByQuery = new Set();
    if (q.passage) q.ids.forEach(function (sp) { citedByQuery.add(sp[0]); citedByQuery.add(sp[1]); });
    var best = cands[0][1] || 1.0;
    /* Everything but the word-pair and phrase parts is known from the
       word files (which documents have which stems); those parts need the
       text, so only the candidates that could still reach the first
       ``need`` places are loaded.  The ranking is the CLI's either way. */
    function possible(w, d) { return self.stop.has(w) || self.questionWords.has(w) || self.present(self.stemWord(w)).has(d); }
    function possiblePairs(set, d) {
      var n = 0;
      set.forEach(function (p) { var ab = p.split(" "); if (possible(ab[0], d) && possible(ab[1], d)) n++; });
      return n;
    }
    var rows = cands.map(function (c, i) {
      var d = c[0], id = ids[i], kind = idKind(id), score = c[1] / best;
      if (stemSet.size > 1) {
        var got = 0;
        stemSet.forEach(function (st) {
          if (self.present(st).has(d) || (alts[st] || []).some(function (a) {
            var all = true; a.forEach(function (x) { if (!self.present(x).has(d)) all = false; }); return all;
          })) got += weights[st];
        });
        score += R.coverage * Math.pow(got / totalWeight, 2);
      }
      if (question && (inCands[id] || 0) >= 3) score += R.parent * Math.min(inCands[id], R.parent_max);
      if (citedByQuery.size && (citedByQuery.has(id) || ancestors(id).some(function (a) { return citedByQuery.has(a); }))) score -= 1.0;
      if (named.size && kind === "subrule" && named.has(parentId(id))) score += R.named;
      if (kind === "glossary" && !q.passage && stemSet.size > 1) score -= R.glossary_multi;
      if (kind === "chapter" || kind === "section") score -= 0.15;
      var up = 0, out = false;
      if (q.passage && qbigrams.size) up += R.passage * possiblePairs(qbigrams, d) / qbigrams.size;
      else if (tpairs.size) up += R.adjacent * possiblePairs(tpairs, d) / tpairs.size;
      if (q.phrases.length) {
        var maybe = phraseStems.every(function (ps) { return ps.every(function (st) { return self.present(st).has(d); }); });
        if (maybe) up += 0.8; else if (!q.passage) out = true;
      }
      return { id: id, low: q.phrases.length && !q.passage ? -Infinity : score, score: score, up: score + up, out: out, exact: up === 0 };
    }).filter(function (r) { return !r.out; });
    var bonus = q.passage ? null : this.topicBonus(q);
    if (bonus) {
      rows.forEach(function (r) {
        var b = bonus.get(r.id);
        if (b === undefined) return;
        r.score += b; r.low += b; r.up += b;
        bonus.delete(r.id);
      });
      /* Rules the words missed join in rule order (a typed phrase excepted). */
      if (!q.phrases.length) {
        Array.from(bonus.keys()).sort(function (a, b) { return self.num.get(a) - self.num.get(b); }).forEach(function (id) {
          var b = bonus.get(id);
          rows.push({ id: id, low: b, score: b, up: b, out: false, exact: true });
        });
      }
    }
    var lows = rows.map(function (r) { return r.low; }).sort(function (x, y) { return y - x; });
    var bar = lows.length >= need ? lows[need - 1] : -Infinity;
    var fetch = rows.filter(function (r) { return !r.exact && r.up >= bar; });
    return this.needDocs(fetch.map(function (r) { return r.id; })).then(function () {
      var scored = [];
      rows.forEach(function (r) {
        var score = r.score;
        if (!r.exact && r.up >= bar) {
          var doc = self.docWords(self.docs[r.id]), tw = doc._words, tb = pairs(tw), shared = 0;
          if (q.passage && qbigrams.size) {
            qbigrams.forEach(function (p) { if (tb.has(p)) shared++; });
            score += R.passage * shared / qbigrams.size;
          } else if (tpairs.size) {
            tpairs.forEach(function (p) { if (tb.has(p)) shared++; });
            score += R.adjacent * shared / tpairs.size;
          }
          var joined = " " + tw.join(" ") + " ";
          var hasAll = q.phrases.every(function (p) { return joined.indexOf(" " + p + " ") >= 0; });
          if (q.phrases.length && hasAll) score += 0.8;
          if (q.phrases.length && !q.passage && !hasAll) return;
        } else if (!r.exact) {
          return; /* cannot reach the first places: left out */
        }
        scored.push([r.id, score]);
      });
      scored.sort(function (a, b) { return b[1] - a[1]; });
      return longQuestion ? self.subrulesFirst(scored) : scored;
    });
  };

  /* -- the judges' topics and the rules-famous cards (Engine._with_topics) ---- */
  /* The topics and cards are split by first letter (site_search.by_letter):
     a query loads the files of its words' first letters, since stemming
     keeps a word's first letter. */
  function firstLetters(ws) {
    var out = [];
    ws.forEach(function (w) { if (w && out.indexOf(w[0]) < 0) out.push(w[0]); });
    return out;
  }
  function own(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }
  /* A cue has no stop word (topics.question_stems): only other words' letters. */
  Engine.prototype.cueLetters = function (ws) {
    var self = this;
    return firstLetters(ws.filter(function (w) { return !self.stop.has(w); }));
  };
  Engine.prototype.loadParts = function (kind, letters, merge) {
    var files = this.m[kind];
    if (!files || typeof files !== "object") return Promise.resolve(null);
    return Promise.all(letters.filter(function (l) { return own(files, l); }).map(function (l) {
      return load(kind + "-" + l, "search/" + files[l]).then(function (d) {
        if (!d._merged) { d._merged = true; merge(d); }
      });
    }));
  };
  Engine.prototype.loadTopics = function (letters) {
    var t = this.topicData = this.topicData || { _cues: [], forms: {} };
    return this.loadParts("topics", letters, function (d) {
      d.topics.forEach(function (x) { t._cues.push([x[0].map(function (c) { return c.split(" "); }), x[1]]); });
      Object.keys(d.forms).forEach(function (f) { t.forms[f] = d.forms[f]; });
    });
  };
  /* The cards: only questions need them. */
  Engine.prototype.loadCards = function (letters) {
    var c = this.cardData = this.cardData || { index: {}, rules: {}, _plain: new Set(), longest: 1 };
    return this.loadParts("cards", letters, function (d) {
      Object.keys(d.index).forEach(function (k) { c.index[k] = d.index[k]; });
      Object.keys(d.rules).forEach(function (n) { c.rules[n] = d.rules[n]; });
      d.plain.forEach(function (w) { c._plain.add(w); });
      c.longest = Math.max(c.longest, d.longest);
    });
  };
  var CARD_TOKEN = /[\p{L}\p{N}]+(?:['\u2019][\p{L}\p{N}]+)*/gu;
  Engine.prototype.cardLetters = function (text) {
    var self = this;
    return firstLetters((text.match(CARD_TOKEN) || []).map(function (t) { return self.foldText(t); }));
  };
  /* topics.question_stems: "opponent's" meets the cue word "opponent". */
  Engine.prototype.topicStem = function (w) {
    if (w.length > 2 && w.slice(-2) === "'s") w = w.slice(0, -2);
    var e = this.words[w];
    if (e) return e[1];
    return this.topicData.forms[w] || this.blockStems[w] || w;
  };
  /* cards.cards_in: the table's cards named in a question, longest name
     first at each word; a name that is a plain word counts only capitalised. */
  Engine.prototype.cardsIn = function (text) {
    var self = this, c = this.cardData, found = [];
    if (!c) return found;
    var toks = text.match(CARD_TOKEN) || [];
    var folded = toks.map(function (t) { return self.foldText(t); });
    function has(k) { return own(c.index, k) || own(c.rules, k); }
    function name(k) { return own(c.index, k) ? c.index[k] : k; }
    function lookup(k) {
      if (has(k)) return name(k);
      if (k.slice(-2) === "'s" && has(k.slice(0, -2))) return name(k.slice(0, -2));
      return null;
    }
    for (var i = 0; i < toks.length; i++) {
      for (var n = Math.min(c.longest, toks.length - i); n > 0; n--) {
        var typed = folded.slice(i, i + n).join(" "), card = lookup(typed);
        if (card === null) continue;
        var bare = typed.slice(-2) === "'s" && !has(typed) ? typed.slice(0, -2) : typed;
        if (n === 1 && c._plain.has(bare) && !/^\p{Lu}/u.test(toks[i])) continue;
        if (found.indexOf(card) < 0) found.push(card);
        i += n - 1;
        break;
      }
    }
    return found;
  };
  /* Each rule's bonus: its best one plus a share of the others. */
  Engine.prototype.topicBonus = function (q) {
    var self = this, d = this.topicData, R = this.rank, have = new Set(), found = [];
    if (!d) return null;
    q.words.concat(this.slangWords(q)).forEach(function (w) { if (!self.stop.has(w)) have.add(self.topicStem(w)); });
    d._cues.forEach(function (t) {
      t[0].forEach(function (cue) {
        if (cue.every(function (s) { return have.has(s); })) found.push([R.topic, t[1]]);
      });
    });
    if (q.question) this.cardsIn(q.text).forEach(function (name) { found.push([R.card, self.cardData.rules[name]]); });
    if (q.together && q.together.length) found.push([R.topic, q.together]);
    var given = new Map();
    found.forEach(function (f) {
      var n = 0;
      f[1].forEach(function (id) {
        if (!self.num.has(id)) return;  /* rules of this release only */
        var b = f[0] * Math.max(0, 1 - R.topic_step * n++);
        if (!given.has(id)) {
          if (!self.passes(id, q.filters)) return;
          given.set(id, []);
        }
        given.get(id).push(b);
      });
    });
    var bonus = new Map();
    given.forEach(function (bs, id) {
      var top = Math.max.apply(null, bs), sum = bs.reduce(function (a, b) { return a + b; }, 0);
      bonus.set(id, top + R.again * (sum - top));
    });
    return bonus.size ? bonus : null;
  };

  /* Engine.subrules_first: a title rule ranked just above one of its own
     subrules (within three places) goes below it. */
  Engine.prototype.subrulesFirst = function (scored) {
    var ids = scored.map(function (x) { return x[0]; }), moved = new Set();
    for (var i = 0; i < ids.length; i++) {
      var id = ids[i];
      if (moved.has(id) || !this.titleRules.has(id)) continue;
      for (var j = i + 1; j < Math.min(i + 4, ids.length); j++) {
        if (ids[j].indexOf("glossary:") !== 0 && parentId(ids[j]) === id) {
          ids.splice(i, 0, ids.splice(j, 1)[0]);
          moved.add(id);
          break;
        }
      }
    }
    return ids.map(function (id, n) { return [id, scored[n][1]]; });
  };

  /* -- results ------------------------------------------------------------------ */
  Engine.prototype.hits = function (items, q) {
    var self = this;
    return this.needDocs(items.map(function (x) { return x[0]; })).then(function () {
      var stems = new Set(), forms = new Set();
      q.words.concat([].concat.apply([], q.phrases.map(function (p) { return p.split(" "); }))).forEach(function (w) {
        if (!self.stop.has(w)) self.stems(w).forEach(function (s) { stems.add(s); });
      });
      /* The other words with those stems, from the word files loaded. */
      Object.keys(self.words).forEach(function (w) { if (stems.has(self.words[w][1])) forms.add(w); });
      var out = [];
      items.forEach(function (x) {
        var doc = self.docs[x[0]];
        if (!doc) return;
        var sn = self.snippet(doc.text || doc.title || "", stems, forms);
        out.push({ id: doc.id, kind: doc.kind, title: doc.title, parent: doc.parent, url: doc.url,
                   snippet: sn[0], highlights: sn[1], score: x[1] });
      });
      return out;
    });
  };

  var SPAN = /[\p{L}\p{N}]+(?:['\u2019][\p{L}\p{N}]+)*/gu;
  /* The window of ``text`` with the most matched words (search.snippet_of). */
  Engine.prototype.snippet = function (text, stems, forms) {
    var size = this.rank.snippet_words, self = this;
    text = text.split(/\s+/).filter(Boolean).join(" ");
    var spans = [], m;
    SPAN.lastIndex = 0;
    while ((m = SPAN.exec(text))) spans.push([m.index, m.index + m[0].length]);
    var matched = [];
    spans.forEach(function (s, i) {
      var w = self.foldText(text.slice(s[0], s[1]));
      if (forms.has(w) || stems.has(self.stemWord(w))) matched.push(i);
    });
    if (!spans.length) return [text.slice(0, 200), []];
    var start = 0, end = spans.length;
    if (spans.length > size) {
      var best = -1, mset = new Set(matched);
      for (var s = 0; s <= spans.length - size; s++) {
        var c = 0;
        if (matched.length) for (var i = s; i < s + size; i++) if (mset.has(i)) c++;
        if (c > best) { best = c; start = s; }
        if (!matched.length) break;
      }
      end = start + size;
      if (start) { start = best > 0 ? Math.max(0, start - 3) : 0; end = Math.min(spans.length, start + size); }
    }
    var a0 = start ? spans[start][0] : 0, b0 = end < spans.length ? spans[end - 1][1] : text.length;
    var prefix = a0 ? "\u2026" : "", suffix = b0 < text.length ? "\u2026" : "", shift = prefix.length - a0;
    var marks = matched.filter(function (i) { return i >= start && i < end; }).map(function (i) { return [spans[i][0] + shift, spans[i][1] + shift]; });
    return [prefix + text.slice(a0, b0) + suffix, marks];
  };

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

  function resolve(url) { return BASE + url; }

  /* "/" focuses the search box. */
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "/" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var a = document.activeElement;
    if (a && (a.tagName === "INPUT" || a.tagName === "TEXTAREA" || a.isContentEditable)) return;
    var box = document.getElementById("q2") || document.getElementById("q");
    if (box) { ev.preventDefault(); box.focus(); box.select(); }
  });

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
      engine().then(function (eng) { return jumpTarget(eng, value); }, function () { return null; })
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
    if (!q.trim()) { box.focus(); return; }
    document.title = q + " \u00b7 " + document.title;
    var status = el("p", { "class": "status" }, "Searching\u2026");
    results.setAttribute("aria-busy", "true");
    results.appendChild(status);
    function render(res) {
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
    }).then(function () { results.removeAttribute("aria-busy"); });
  }

  function init() {
    document.querySelectorAll("form[role=search]").forEach(wireForm);
    permalinks();
    searchPage();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
  window.crsearch = { engine: engine, parseSpec: parseSpec, ratio: ratio };
})();
