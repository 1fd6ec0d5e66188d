/* crsearch's words, for the site's pages and for node: text.py's folding
   and words over the exported folding table, and which search data files a
   query needs.  The ranking module (rank.js) reads words through it; the
   search page runs it before anything else, to ask for a linked query's
   data files at once.  Pure: no DOM, no window.  Loaded as a classic
   script it defines ``CrsearchText``; under node, ``require`` returns it. */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module && module.exports) module.exports = factory();
  else root.CrsearchText = factory();
}(typeof globalThis !== "undefined" ? globalThis : this, function () {
  "use strict";

  function own(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }
  /* text.WORD: letters and digits, with inner apostrophes kept. */
  const WORD_RE = /[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu;
  /* Words as typed, curly apostrophes too (card names, snippets). */
  const CARD_TOKEN = /[\p{L}\p{N}]+(?:['\u2019][\p{L}\p{N}]+)*/gu;
  function isAlpha(w) { return w.length > 0 && /^\p{L}+$/u.test(w); }

  /* text.fold and text.words; ``table`` is searchdata.fold_table(), what
     text.fold does to a character beyond lowercasing it. */
  class Text {
    constructor(table, stopWords) {
      this.table = table || {};
      this.stop = new Set(stopWords || []);
    }
    fold(text) {
      const t = this.table;
      let out = "";
      for (const c of text.normalize("NFKC")) out += own(t, c) ? t[c] : c.toLowerCase();
      return out;
    }
    words(text) { return this.fold(text).match(WORD_RE) || []; }
    normTitle(text) { return this.words(text).join(" "); }
  }

  /* The longest prefix key of ``keys`` (a Set) that starts ``word``
     (searchdata.shard_key). */
  function shardKey(word, keys) {
    for (let n = Math.min(word.length, 4); n > 0; n--) if (keys.has(word.slice(0, n))) return word.slice(0, n);
    return null;
  }

  /* The first letters of ``ws``, each once: the topics, cards and letter
     files are split by first letter. */
  function firstLetters(ws) {
    const out = [];
    ws.forEach((w) => { const l = w.slice(0, 1); if (out.indexOf(l) < 0) out.push(l); });
    return out;
  }
  /* The cards parts a question's folded words ``toks`` look names up in:
     a word's letter, and its first two letters where a big letter is split
     (searchdata.cards_by_letter; a possessive's name may be one letter). */
  function cardParts(toks) {
    const out = [];
    const add = (p) => { if (out.indexOf(p) < 0) out.push(p); };
    toks.forEach((w) => {
      add(w.slice(0, 1));
      add(w.slice(0, 2));
      if (w.endsWith("'s")) add(w.slice(0, -2).slice(0, 2));
    });
    return out;
  }
  /* The data files a search for ``text`` will ask for first, known from the
     keys file alone: the search page asks for them while the ranking module
     and the metadata load.  ``files``: [name, file] pairs; ``words``: [word,
     name of its word file] pairs, for ``needsLetter``. */
  function linkedQueryFiles(keys, text) {
    const t = new Text(keys.fold, keys.stop_words);
    /* A rule number ("601.2f-h") searches for no words. */
    if (!/\p{L}{3}/u.test(text) && /[0-9]/.test(text)) return { words: [], files: [] };
    const ws = t.words(text), questionWords = new Set(keys.question_words), want = [], files = [];
    const take = (w) => {
      if (!t.stop.has(w) && !/[0-9]/.test(w) && !(ws.length < 9 && questionWords.has(w))) want.push(w);
    };
    ws.forEach((w) => {
      take(w);
      if (own(keys.jargon, w)) t.words(keys.jargon[w]).forEach(take);
    });
    /* Slang ("trample over"): the words it stands for are searched too.
       Every phrase found is taken, longest or not: a file too many costs
       less than a round trip later. */
    const slang = keys.slang || {};
    for (let i = 0; i < ws.length; i++) {
      for (let n = 1; n <= 4 && i + n <= ws.length; n++) {
        const key = ws.slice(i, i + n).join(" ");
        if (own(slang, key)) t.words(slang[key]).forEach(take);
      }
    }
    const shardKeys = new Set(Object.keys(keys.shards));
    const add = (name, file) => { if (!files.some((f) => f[0] === name)) files.push([name, "search/" + file]); };
    /* A cue has no stop word; a card's name may start with one ("The"). */
    /* "=": the whole-query cues, read for every query. */
    firstLetters(ws.concat(want).filter((w) => !t.stop.has(w)).concat(["", "="])).forEach((l) => {
      if (own(keys.topics, l)) add("topics-" + l, keys.topics[l]);
    });
    if (ws.length >= 4 || text.indexOf("?") >= 0) {
      cardParts((text.match(CARD_TOKEN) || []).map((x) => t.fold(x))).forEach((l) => {
        if (own(keys.cards, l)) add("cards-" + l, keys.cards[l]);
      });
    }
    const words = [];
    want.forEach((w) => {
      const k = shardKey(w, shardKeys);
      if (k === null) return;
      words.push([w, "w-" + k]);
      add("w-" + k, keys.shards[k]);
    });
    return { words, files };
  }
  /* The file of a linked query's word's stem when it is not the word's own
     ("w-" name and file), or null. */
  function stemFile(keys, shard, w) {
    const e = shard.w[w], s = e && e[1];
    if (!s) return null;
    const k = shardKey(s, new Set(Object.keys(keys.shards)));
    return k !== null && k !== shardKey(w, new Set(Object.keys(keys.shards)))
      ? ["w-" + k, "search/" + keys.shards[k]] : null;
  }
  /* Whether a word of a linked query needs its letter file (a typo). */
  function needsLetter(keys, shard, w) {
    const e = shard.w[w];
    return (!e || !e[0]) && w.length >= 4 && isAlpha(w) && own(keys.letters, w[0])
      ? ["v-" + w[0], "search/" + keys.letters[w[0]]] : null;
  }

  return { Text, own, isAlpha, firstLetters, cardParts, shardKey, linkedQueryFiles, needsLetter, stemFile, WORD_RE, CARD_TOKEN };
}));
