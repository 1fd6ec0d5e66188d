/* Card lookup (site build --cards): a card's Oracle text and the rules it uses,
 * found by name as `crsearch card` finds it: folded words (case, accents,
 * apostrophes and punctuation do not count), a face's name, partial names,
 * a misspelt word.  The card data is split by the first letter of the folded
 * words (crsearch/site/cards.py); a name loads one or two of those files.
 * Card text is only ever set as text, never parsed as HTML.
 */
(function () {
  "use strict";
  var INDEX = /*CARD_FILES*/{};
  /* Under node (tests/js) the matching is exported and no page is touched. */
  var NODE = typeof module === "object" && module && module.exports && typeof document === "undefined";
  var BASE = NODE ? "" : new URL(".", document.currentScript ? document.currentScript.src : location.href).href;
  var WORD = /[\p{L}\p{N}]+(?:['\u2019\u2018\u02bc][\p{L}\p{N}]+)*/gu;
  var STOP = new Set(INDEX.stop || []);
  /* names.fold_table: the folding of each character that is not ASCII. */
  var LETTERS = INDEX.fold || {};
  /* A longer text, or one with more words, is a question, not a card's name. */
  var NAME_CHARS = 150, NAME_WORDS = 14, SHOWN = 8;

  /* names.fold_word: "Dûl" -> "dul", "Urza's" -> "urza", "Æther" -> "aether",
     character by character as Python folds them (names.fold_char, in LETTERS);
     a character no name has is folded as NFKD does. */
  function foldChar(c) {
    var f = LETTERS[c];
    if (f !== undefined) return f;
    if (c < "\u0080") return c.toLowerCase();
    return c.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
  }
  function foldWord(token) {
    var t = "";
    for (var c of token) t += foldChar(c);
    if (t.slice(-2) === "'s") t = t.slice(0, -2);
    return t.replace(/'/g, "");
  }
  function nameWords(text) {
    return (text.normalize("NFC").match(WORD) || []).map(foldWord).filter(Boolean);
  }
  /* names.shard_of: the file of a folded word, "_" for a first character that is no ASCII letter or digit. */
  function shardOf(word) { return /^[a-z0-9]/.test(word) ? word[0] : "_"; }

  /* -- the letter files, by <script> (fetch does not work from file://) -- */
  var data = {}, loading = {};
  if (!NODE) window.crsearchCards = function (letter, d) {
    var byName = {};
    d.cards.forEach(function (c) { byName[c.name] = c; });
    d.byName = byName;
    data[letter] = d;
  };
  function load(letter) {
    if (data[letter]) return Promise.resolve(data[letter]);
    var file = INDEX.files && INDEX.files[letter];
    if (!file) return Promise.resolve(null);
    return loading[letter] || (loading[letter] = new Promise(function (ok, no) {
      var s = document.createElement("script");
      s.src = BASE + file;
      s.async = true;
      s.onload = function () { data[letter] ? ok(data[letter]) : no(new Error("card data " + file + " is damaged")); };
      s.onerror = function () { delete loading[letter]; no(new Error("cannot load card data " + file)); };
      document.head.appendChild(s);
    }));
  }

  /* -- matching: names.NameIndex._resolve, over one letter's names ------- */
  function entry(row) { return { key: row[0], words: row[0].split(" "), shard: row[1], name: row[2], face: row.length > 3 }; }
  function distinct(entries) {
    var seen = {}, out = [];
    entries.slice().sort(function (a, b) { return a.face - b.face; }).forEach(function (e) {
      if (!seen[e.name]) { seen[e.name] = true; out.push(e); }
    });
    return out;
  }
  /* ``joined``: a typed word may be two words of the name typed as one
     ("limdul" for "Lim-Dûl"), as names._alternatives respells it. */
  function holds(keyWords, words, prefix, near, joined) {
    var left = keyWords.slice();
    for (var i = 0; i < words.length; i++) {
      var w = words[i], at = -1, take = 1;
      for (var k = 0; k < left.length && at < 0; k++) {
        var x = left[k];
        if (x === w || (prefix && w.length >= 3 && x.indexOf(w) === 0) || (near && oneEdit(w, x))) at = k;
        else if (joined && k + 1 < left.length && x.length >= 2 && left[k + 1].length >= 2 && x + left[k + 1] === w) {
          at = k;
          take = 2;
        }
      }
      if (at < 0) return false;
      left.splice(at, take);
    }
    return true;
  }
  /* Whether two words are one swap, change, deletion or insertion apart (long words only). */
  function oneEdit(a, b) {
    if (a.length < 4 || Math.abs(a.length - b.length) > 1 || a === b) return false;
    var i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    if (a.length === b.length) {
      if (a.slice(i + 1) === b.slice(i + 1)) return true;
      return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
    }
    return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
  }
  function contentWords(words) {
    var c = words.filter(function (w) { return !STOP.has(w); });
    return c.length ? c : words;
  }
  function oneOrRanked(words, hits) {
    var typed = words.filter(function (w) { return !STOP.has(w); }).sort().join(" ");
    var whole = hits.filter(function (e) { return e.words.filter(function (w) { return !STOP.has(w); }).sort().join(" ") === typed; });
    if (distinct(whole).length === 1) return whole[0];
    return hits.slice().sort(function (a, b) {
      return a.words.length - b.words.length || a.name.length - b.name.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    });
  }
  function resolve(names, words) {
    var key = words.join(" ");
    var exact = distinct(names.filter(function (e) { return e.key === key; }));
    if (exact.length) {
      var own = exact.filter(function (e) { return !e.face; });
      if (exact.length === 1 || own.length === 1) return own.length ? own[0] : exact[0];
      return exact;
    }
    var passes = [[false, false, false], [true, false, false], [false, true, false], [false, false, true]];
    for (var p = 0; p < passes.length; p++) {
      var hits = distinct(names.filter(function (e) { return holds(e.words, words, passes[p][0], passes[p][1], passes[p][2]); }));
      if (hits.length === 1) return hits[0];
      if (hits.length) return oneOrRanked(words, hits);
    }
    return [];
  }

  /* The card `typed` names: {card, date}, {candidates: [names]}, or null (no card). */
  function find(typed) {
    var text = typed.trim();
    if (!text || text.length > NAME_CHARS || text.indexOf("\n") >= 0 || text.split(/\s+/).length > NAME_WORDS) return Promise.resolve(null);
    var words = nameWords(text);
    if (!words.length || !/\p{L}{2}/u.test(text)) return Promise.resolve(null);
    var first = contentWords(words)[0];
    return load(shardOf(first)).then(function (d) {
      if (!d) return null;
      var found = resolve(d.entries || (d.entries = d.names.map(entry)), words);
      if (Array.isArray(found)) {
        if (!found.length) return null;
        return { candidates: found.slice(0, SHOWN).map(function (e) { return e.name; }) };
      }
      return load(found.shard).then(function (home) {
        var card = home && home.byName[found.name];
        return card ? { card: card, rules: home.rules } : null;
      });
    });
  }

  function cardText(card) {
    if (card.faces.length === 1) return card.faces[0].text || "";
    return card.faces.map(function (f) { return f.text || ""; }).join(INDEX.face_join || "\n//\n");
  }
  function stats(f) {
    if (f.power != null || f.toughness != null) return (f.power || "") + "/" + (f.toughness || "");
    if (f.loyalty != null) return "Loyalty " + f.loyalty;
    if (f.defense != null) return "Defense " + f.defense;
    return null;
  }

  /* -- showing a card ----------------------------------------------------- */
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text != null) e.textContent = text;
    return e;
  }
  /* Lines of text as text nodes and <br>s. */
  function lines(parent, text) {
    text.split("\n").forEach(function (line, i) {
      if (i) parent.appendChild(el("br"));
      parent.appendChild(document.createTextNode(line));
    });
    return parent;
  }
  function searchLink(name) { return el("a", { href: BASE + "search.html?q=" + encodeURIComponent(name) }, name); }

  function panel(found, typed) {
    var box = el("section", { "class": "card-panel", "aria-label": "Card" });
    if (found.candidates) {
      var p = el("p", { "class": "card-choices" }, "Cards whose name fits \u201c" + typed.trim().slice(0, 80) + "\u201d: ");
      found.candidates.forEach(function (name, i) {
        if (i) p.appendChild(document.createTextNode(", "));
        p.appendChild(searchLink(name));
      });
      box.appendChild(p);
      return box;
    }
    var card = found.card;
    box.appendChild(el("h2", { "class": "card-name" }, card.name));
    card.faces.forEach(function (f) {
      var face = el("div", { "class": "card-face" });
      var head = el("p", { "class": "card-head" });
      if (card.faces.length > 1) head.appendChild(el("strong", { "class": "card-face-name" }, f.name));
      if (f.mana_cost) head.appendChild(el("span", { "class": "card-cost" }, f.mana_cost));
      if (head.firstChild) face.appendChild(head);
      if (f.type_line) face.appendChild(el("p", { "class": "card-type" }, f.type_line));
      if (f.text) face.appendChild(lines(el("p", { "class": "card-text" }), f.text));
      var s = stats(f);
      if (s) face.appendChild(el("p", { "class": "card-stats" }, s));
      box.appendChild(face);
    });
    if (card.rules.length) {
      box.appendChild(el("h3", null, "Rules its text uses"));
      var ul = el("ul", { "class": "card-rules" });
      card.rules.forEach(function (x) {
        var known = found.rules[typeof x === "string" ? x : x[0]] || [];
        var r = typeof x === "string" ? [x, known[1], known[2]] : x;
        var li = el("li");
        var url = known[0];
        var label = r[0].indexOf("glossary:") === 0 ? "Glossary" : r[0];
        li.appendChild(url ? el("a", { href: BASE + url, "class": "card-rule" }, label) : el("span", null, label));
        li.appendChild(document.createTextNode(" " + r[1]));
        if (r[2]) li.appendChild(el("span", { "class": "card-rule-kind" }, " (" + r[2] + ")"));
        ul.appendChild(li);
      });
      box.appendChild(ul);
    }
    var foot = el("p", { "class": "card-foot" });
    foot.appendChild(el("a", { href: BASE + "explain.html?card=" + encodeURIComponent(card.name) }, "Explain its text"));
    foot.appendChild(document.createTextNode(" \u00b7 Oracle text \u00a9 Wizards of the Coast, card data of " + INDEX.date + "."));
    box.appendChild(foot);
    return box;
  }

  var STYLE = ".card-panel{border:1px solid var(--line);border-radius:8px;background:var(--panel);padding:.6rem 1rem;margin:0 0 1rem}" +
    ".card-panel h2{font:700 1.25rem/1.3 var(--serif);margin:.2rem 0 .4rem}.card-panel h3{font-size:1rem;margin:.6rem 0 .2rem}" +
    ".card-head{margin:.2rem 0;display:flex;gap:.6rem;flex-wrap:wrap}.card-type{margin:.1rem 0;font-style:italic}" +
    ".card-text{margin:.3rem 0}.card-stats{margin:.1rem 0;font-weight:700}.card-face+.card-face{border-top:1px dashed var(--line);margin-top:.4rem}" +
    ".card-rules{margin:.2rem 0;padding-left:1.2rem}.card-rule-kind,.card-foot,.card-note{color:var(--muted);font-size:.9rem}";
  function style() {
    if (document.getElementById("card-style")) return;
    var s = el("style", { id: "card-style" });
    s.textContent = STYLE;
    document.head.appendChild(s);
  }

  /* search.html: the card a query names, above the rule results, as it is typed. */
  function searchPage() {
    var results = document.getElementById("results"), box = document.getElementById("q2");
    if (!results || !box) return;
    var slot = el("div", { id: "card-result", "aria-live": "polite" });
    results.parentNode.insertBefore(slot, results);
    var seq = 0, timer = null;
    function show(typed) {
      var mine = ++seq;
      find(typed).then(function (found) {
        if (mine !== seq) return;
        slot.textContent = "";
        if (found) slot.appendChild(panel(found, typed));
      }, function (e) {
        if (mine !== seq) return;
        slot.textContent = "";
        slot.appendChild(el("p", { "class": "error" }, e && e.message ? e.message : "Card lookup is not available."));
      });
    }
    show(new URLSearchParams(location.search).get("q") || "");
    box.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { show(box.value); }, 200);
    });
  }

  /* explain.html: a card's name fills the text box with its Oracle text. */
  function explainPage() {
    var form = document.getElementById("card-name-form"), area = document.getElementById("card-text");
    var explain = document.getElementById("explain-form");
    if (!form || !area || !explain) return;
    var input = document.getElementById("card-name"), note = document.getElementById("card-name-note");
    function fill(typed) {
      note.textContent = "";
      if (!typed.trim()) return;
      find(typed).then(function (found) {
        if (!found) { note.textContent = "No card named \u201c" + typed.trim().slice(0, 80) + "\u201d in the card data."; return; }
        if (found.candidates) {
          note.textContent = "Several cards fit: ";
          found.candidates.forEach(function (name, i) {
            if (i) note.appendChild(document.createTextNode(", "));
            var b = el("button", { type: "button", "class": "card-choice" }, name);
            b.addEventListener("click", function () { input.value = name; fill(name); });
            note.appendChild(b);
          });
          return;
        }
        area.value = cardText(found.card);
        note.textContent = "The Oracle text of " + found.card.name + " (card data of " + INDEX.date + ").";
        if (explain.requestSubmit) explain.requestSubmit();
        else explain.dispatchEvent(new Event("submit", { cancelable: true }));
      }, function (e) { note.textContent = e && e.message ? e.message : "Card lookup is not available."; });
    }
    form.addEventListener("submit", function (ev) { ev.preventDefault(); fill(input.value); });
    var named = new URLSearchParams(location.search).get("card");
    if (named) { input.value = named; fill(named); }
  }

  function init() {
    style();
    searchPage();
    explainPage();
  }
  if (NODE) {
    /* tests/js/cards.test.mjs: the folding and the matching over given names. */
    module.exports = {
      configure: function (index) { STOP = new Set(index.stop || []); LETTERS = index.fold || {}; },
      foldWord: foldWord,
      nameWords: nameWords,
      resolve: function (rows, typed) {
        var found = resolve(rows.map(entry), nameWords(typed));
        return Array.isArray(found) ? found.map(function (e) { return e.name; }) : found.name;
      },
    };
    return;
  }
  window.crsearchCardLookup = find;
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
