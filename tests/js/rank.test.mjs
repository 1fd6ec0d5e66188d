/* Unit tests of the site's ranking module (templates/js/rank.js) under node:
   `node --test tests/js/`.  The data here is a small hand-made release in
   the search data's shape (crsearch/site/searchdata.py); that the module
   ranks the real release as the CLI does is tools/site_parity.py's job. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const rank = require("../../templates/js/rank.js");
const text = require("../../templates/js/text.js");

const STOP = ["a", "an", "and", "by", "is", "of", "the", "to", "with"];
const QUESTION = ["what", "how", "does", "i", "my", "it"];
/* Weights chosen for the tests (the site's come from RankingConfig). */
const CONFIG = {
  adjacent: 0.5, again: 0.3, candidates: 30, card: 0.8, chapter: 0.15, cited: 1.0, common: 0.5,
  coverage: 1.0, glossary_multi: 0.5, interaction_name: 10.0, interaction_top: 4, named: 0.4,
  parent: 0.15, parent_max: 4, parent_min: 3, passage: 4.0, passage_terms: 8, phrase: 0.8,
  question_candidates: 300, semantic_min_terms: 4, situation_weight: 1.5, subrules_window: 3,
  topic: 1.0, topic_step: 0.1, number_tier: 1000.0, title_tier: 500.0, interaction_tier: 300.0,
  tier_step: 0.01, quoted_title_step: 0.001, fragment_words: 3, snippet_words: 28,
};
const DOCS = [
  ["1", "section", "Game Concepts", ""],
  ["100", "chapter", "General", ""],
  ["100.1", "rule", "General", "Players who lose the game leave it."],
  ["702", "chapter", "Keyword Abilities", ""],
  ["702.2", "rule", "Deathtouch", "Deathtouch"],
  ["702.2a", "subrule", "Deathtouch", "Deathtouch is a static ability."],
  ["702.2b", "subrule", "Deathtouch", "A creature dealt damage by a source with deathtouch is destroyed."],
  ["glossary:Deathtouch", "glossary", "Deathtouch", "A keyword ability that causes damage dealt by an object to be especially effective."],
];
/* The stems the build would export (Porter's, computed in Python). */
const STEMS = { players: "player", abilities: "abil", ability: "abil", causes: "caus", dealt: "dealt",
  destroyed: "destroi", especially: "especi", effective: "effect", keyword: "keyword", static: "static",
  concepts: "concept", creature: "creatur", source: "sourc", damage: "damag", general: "gener", game: "game" };

/* A release in the search data's shape, and a loader for its files. */
function release({ forms = {}, cues = [], config = {}, kept = [], cards = {}, then = null,
  slang = { "sac": "sacrifice" } } = {}) {
  const text = new rank.Text({}, STOP);
  const stem = (w) => STEMS[w] || w;
  const files = {}, entries = {}, postings = {}, counts = {};
  DOCS.forEach(([, , title, body], d) => {
    const ws = text.words(body).concat(text.words(title));
    ws.forEach((w) => { counts[w] = (counts[w] || 0) + 1; });
    new Set(ws.filter((w) => STOP.indexOf(w) < 0).map(stem)).forEach((s) => {
      const p = postings[s] = postings[s] || [0, [], [], [], []];
      const inText = text.words(body).filter((w) => stem(w) === s).length;
      if (inText) p[0]++;
      p[1].push(d);
      p[2].push(1000 * inText + 4000 * text.words(title).filter((w) => stem(w) === s).length);
      p[3].push(d);
    });
  });
  const deltas = (nums) => nums.map((n, i) => n - (i ? nums[i - 1] : 0));
  Object.values(postings).forEach((p) => { p[1] = deltas(p[1]); p[3] = deltas(p[3]); });
  Object.keys(counts).forEach((w) => { if (STOP.indexOf(w) < 0) entries[w] = [counts[w], stem(w) === w ? 0 : stem(w)]; });
  const shards = {};
  const shard = (k) => (shards[k] = shards[k] || { w: {}, p: {}, f: {} });
  Object.entries(entries).forEach(([w, e]) => { shard(w[0]).w[w] = e; });
  Object.entries(postings).forEach(([s, p]) => { shard(s[0]).p[s] = p; });
  Object.entries(forms).forEach(([s, fs]) => { shard(fs[0]).f[s] = fs; });
  const keys = { shards: {}, letters: {}, stop_words: STOP, fold: {}, jargon: { dt: "deathtouch" },
    question_words: QUESTION, slang, topics: {}, cards: {} };
  Object.entries(shards).forEach(([k, d]) => { keys.shards[k] = `w-${k}.js`; files[`search/w-${k}.js`] = d; });
  const letters = {};
  const letter = (w) => (letters[w[0]] = letters[w[0]] || { v: [], k: [] });
  Object.entries(counts).sort().forEach(([w, c]) => { letter(w).v.push([w, c]); });
  kept.forEach((w) => { letter(w).k.push(w); });
  Object.entries(letters).forEach(([l, rows]) => { keys.letters[l] = `v-${l}.js`; files[`search/v-${l}.js`] = rows; });
  const topics = {};
  cues.forEach(([n, stems, rules]) => {
    const part = topics[stems.split(" ")[0][0]] = topics[stems.split(" ")[0][0]] || { cues: [], rules: [] };
    part.rules.push(rules);
    part.cues.push([n, stems, part.rules.length - 1]);
  });
  Object.entries(topics).forEach(([l, d]) => { keys.topics[l] = `topics-${l}.js`; files[`search/topics-${l}.js`] = d; });
  /* cards: {letter: part} as searchdata.cards_by_letter writes them. */
  Object.entries(cards).forEach(([l, d]) => { keys.cards[l] = `cards-${l}.js`; files[`search/cards-${l}.js`] = d; });
  files["search/d.h.js"] = { docs: DOCS.map(([id, kind, title, body]) => [id, kind, title, body, "", id + ".html"]),
    stems: Object.fromEntries(Object.keys(counts).filter((w) => stem(w) !== w).map((w) => [w, stem(w)])), df: {} };
  const meta = {
    format: rank.FORMAT, date: "2026-08-07", config: { ...CONFIG, ...config },
    tables: { filler_words: ["friend"], first_person: ["i", "my"] },
    question: { question_start: ["what", "how", "does"], not_names: ["what", "how"], connectors: ["of"],
      clause_start: "(?:^|[,;:.!\\u2013\\u2014]|\\s-)\\s*([A-Za-z']+)\\s+([A-Za-z']+)",
      clause_ask: ["how", "what"], clause_ask_next: ["is", "happens"], clause_verb: ["does", "can"],
      clause_subject: ["it", "i"], slang_always: true,
      negation_prefixes: ["un", "non"], situation_stems: [], max_terms: 40, max_chars: 2000,
      correction: { cutoff: 0.75, near: 2, far: 1, title: 0.05, count_cap: 200, count_scale: 20000 } },
    words: {}, scale: 1000, title_rules: ["702.2"], n: DOCS.length,
    ids: DOCS.map((d) => (d[0].startsWith("glossary:") ? d[0].slice(8) : d[0])), blocks: [[0, "h"]],
    keywords: { deathtouch: "702.2" }, chapters: { general: "100", "keyword abilities": "702" },
    glossary: [["Deathtouch", 0, ["702.2"], null]],
  };
  if (then) {
    files["search/then.js"] = then;
    meta.then = "then.js";
  }
  const asked = [];
  const load = (name, file) => {
    asked.push(file);
    return file in files ? Promise.resolve(files[file]) : Promise.reject(new Error(file));
  };
  return { meta, keys, load, asked };
}

function engine(options) {
  const r = release(options);
  const e = new rank.Engine(r.meta, r.keys, r.load);
  e.strict = true;
  return Object.assign(e, { asked: r.asked });
}

async function ids(e, query) { return (await e.search(query, 10)).results.map((h) => h.id); }

test("a keyword's rule and subrules come first, then its glossary entry", async () => {
  const got = await ids(engine(), "deathtouch");
  assert.deepEqual(got.slice(0, 4), ["702.2", "702.2a", "702.2b", "glossary:Deathtouch"]);
});

test("jargon is read as the words it stands for", async () => {
  assert.equal((await ids(engine(), "dt"))[0], "702.2");
});

test("stems come from the data: the module never stems", async () => {
  /* "destroying" is no word of the release: its stem is in the word file's forms. */
  const e = engine({ forms: { destroi: "destroying destroys" } });
  assert.deepEqual((await ids(e, "destroying"))[0], "702.2b");
  assert.equal(e.stem("destroying"), "destroi");
  assert.equal(e.stem("destroyed"), "destroi");
  /* A form neither the release nor its forms know finds nothing. */
  assert.deepEqual(await ids(engine(), "destroying"), []);
});

test("strict mode refuses a stem whose word file is not loaded", () => {
  const e = engine();
  assert.throws(() => e.stem("deathtouch"), /not loaded/);
  e.strict = false;
  assert.equal(e.stem("deathtouch"), "deathtouch");
});

test("a typo is corrected from the letter file, and said", async () => {
  const e = engine();
  const res = await e.search("deathtuch", 10);
  assert.equal(res.suggestion, "deathtouch");
  assert.equal(res.results[0].id, "702.2");
  assert.ok(e.asked.includes("search/v-d.js"));
  /* How alike a correction must be is the exported one. */
  const strict = release();
  strict.meta.question.correction = { ...strict.meta.question.correction, cutoff: 0.99 };
  const res2 = await new rank.Engine(strict.meta, strict.keys, strict.load).search("deathtuch", 10);
  assert.equal(res2.suggestion, null);
});

test("an older release's kept words come from the shared k files (keys.kept)", async () => {
  const r = release();
  /* searchdata.build with kept_all: no "k" in the v files, a k file per letter. */
  r.keys.kept = { d: "k-d.js" };
  const load = (name, file) => (file === "search/k-d.js" ? Promise.resolve(["deathtuch", "dizzy"]) : r.load(name, file));
  const got = await new rank.Engine(r.meta, r.keys, load).search("deathtuch", 10);
  assert.equal(got.suggestion, null);
  /* A word of another letter, with no k file, is still corrected. */
  const other = { ...r.keys, kept: { x: "k-x.js" } };
  const fixed = await new rank.Engine(r.meta, other, r.load).search("deathtuch", 10);
  assert.equal(fixed.suggestion, "deathtouch");
});

test("the corrector leaves known words alone and corrects only near typings", async () => {
  /* "deathtuch" is one mistake from "deathtouch"; kept, it stays as typed. */
  const kept = await engine({ kept: ["deathtuch"] }).search("deathtuch", 10);
  assert.equal(kept.suggestion, null);
  /* Three mistakes in a long word are too many, however alike. */
  assert.equal((await engine().search("deaftoucg", 10)).suggestion, null);
  assert.equal(rank.editDistance("deathtuch", "deathtouch", 2), 1);
  assert.equal(rank.editDistance("tarmple", "trample", 2), 1);
  assert.equal(rank.editDistance("abcdef", "uvwxyz", 2), 3);
});

test("topic weights are the exported config's", async () => {
  /* The cue "lose game" names 702.2a, which has neither word. */
  const cues = [[0, "game lose", ["702.2a"]]];
  const withTopic = await ids(engine({ cues }), "lose the game");
  assert.ok(withTopic.includes("702.2a"));
  const without = await ids(engine({ cues, config: { topic: 0 } }), "lose the game");
  assert.ok(!without.includes("702.2a") && without.includes("100.1"));
});

test("the exact layers score at the exported config's tiers", async () => {
  const scores = async (e, q) => (await e.search(q, 10)).results.map((h) => [h.id, h.score]);
  assert.deepEqual((await scores(engine(), "702.2a-b")), [["702.2a", 1000.0], ["702.2b", 999.99]]);
  const tiers = { number_tier: 50.0, title_tier: 40.0, tier_step: 0.5 };
  assert.deepEqual((await scores(engine({ config: tiers }), "702.2a-b")), [["702.2a", 50.0], ["702.2b", 49.5]]);
  assert.deepEqual((await scores(engine({ config: tiers }), "deathtouch")).slice(0, 2), [["702.2", 40.0], ["702.2a", 39.5]]);
});

test("a snippet has the exported config's number of words", async () => {
  const hit = async (config) => (await engine({ config }).search("702.2b", 1)).results[0];
  assert.equal((await hit({ snippet_words: 4 })).snippet, "A creature dealt damage\u2026");
  assert.ok(!(await hit({})).snippet.endsWith("\u2026"));
});

test("a rule number or a range lists exactly its rules", async () => {
  assert.deepEqual(await ids(engine(), "702.2a-b"), ["702.2a", "702.2b"]);
  assert.deepEqual(await ids(engine(), "CR 702.2"), ["702.2", "702.2a", "702.2b"]);
  /* Pasted with a decimal comma and a short range, in the search box too. */
  assert.deepEqual(await ids(engine(), "702,2a-b"), ["702.2a", "702.2b"]);
  assert.deepEqual(await ids(engine(), "(702,2a\u2013b)"), ["702.2a", "702.2b"]);
  const res = await engine().search("702.9z", 10);
  assert.match(res.error, /no subrule 702.9z/);
});

test("an older release says where a missing number was then (searchdata's then file)", async () => {
  const e = engine({ then: { "702.19": ["702.2", "Deathtouch"], "702.19b": ["702.2b", ""] } });
  let res = await e.search("702.19", 10);
  assert.equal(res.error, "There is no rule 702.19 in the 2026-08-07 rules; it was 702.2 then (Deathtouch).");
  assert.equal(res.near, "702.2");
  res = await e.search("(702,19b)", 10);
  assert.match(res.error, /; it was 702\.2b then\.$/);
  /* A number the file does not know keeps the plain message; no file, no request. */
  assert.match((await e.search("702.9z", 10)).error, /rules\.$/);
  const plain = engine();
  assert.match((await plain.search("702.19", 10)).error, /rules\.$/);
  assert.ok(!plain.asked.includes("search/then.js"));
});

test("a filter keeps its kind only", async () => {
  assert.deepEqual(await ids(engine(), "kind:glossary deathtouch"), ["glossary:Deathtouch"]);
  await assert.rejects(engine().search("kind:card deathtouch", 10), rank.BadInput);
});

test("a title rule goes below its own subrule in a question's ranking", () => {
  const e = engine();
  const got = e.subrulesFirst([["702.2", 3], ["702.2b", 2], ["100.1", 1]]);
  assert.deepEqual(got, [["702.2b", 3], ["702.2", 2], ["100.1", 1]]);
});

test("a question: its card names are left out, its slang read", () => {
  const e = engine();
  const q = e.parse("My friend says I can sac Xenagos, God of Revels to it?");
  assert.ok(q.question && !q.passage);
  assert.deepEqual(q.names, ["Xenagos, God of Revels"]);
  assert.deepEqual(q.slang, [["sac", "sacrifice"]]);
  assert.ok(!q.words.includes("xenagos"));
  assert.deepEqual(e.terms(q), ["says", "can", "sac", "sacrifice"]);
});

test("slang is read in any typed query, not in a pasted passage", () => {
  assert.deepEqual(engine().parse("sac outlet").slang, [["sac", "sacrifice"]]);
  const passage = engine().parse("A player may sac a permanent; see rules 104.3a and 104.3b.");
  assert.ok(passage.passage);
  assert.deepEqual(passage.slang, []);
});

test("a clause with a question's shape makes a question, without a question mark", () => {
  const e = engine();
  assert.ok(e.parse("deathtouch blocker, does it die").question);
  assert.ok(e.parse("Two deathtouch creatures. What happens").question);
  assert.ok(!e.parse("deathtouch creature damage").question);
  /* The pair must be an asking one: "what an Aura" is rules text. */
  assert.ok(!e.parse("destroy it, what an ability does").question);
});

test("pasted text is a passage; its rule numbers are references", () => {
  const e = engine();
  const q = e.parse("A player loses the game when the game says so; see rules 104.3a and 104.3b.");
  assert.ok(q.passage && !q.question);
  assert.deepEqual(q.ids, [["104.3a", "104.3a"], ["104.3b", "104.3b"]]);
  assert.ok(!q.words.includes("rules"));
});

test("rule numbers are read as numbers.py reads them", () => {
  assert.deepEqual(rank.parseSpec("510.1c-d"), [["510.1c", "510.1d"]]);
  assert.deepEqual(rank.parseSpec("601.2f\u2013h"), [["601.2f", "601.2h"]]);
  assert.deepEqual(rank.parseSpec("rules 110.2 and 112.2"), [["110.2", "110.2"], ["112.2", "112.2"]]);
  assert.deepEqual(rank.parseSpec("608.3a and b"), [["608.3a", "608.3a"], ["608.3b", "608.3b"]]);
  assert.equal(rank.normalizeId("\u00a7 702.019C."), "702.19c");
  /* Pasted forms: in brackets, a dot before the letter, a decimal comma, Yawgatog's anchors. */
  ["(702.19c)", "702.19c)", "702.19.c", "702,19c", "R70219c", "https://yawgatog.com/resources/magic-rules/#R70219c"]
    .forEach((t) => assert.deepEqual(rank.parseSpec(t), [["702.19c", "702.19c"]], t));
  assert.equal(rank.normalizeId("R702"), "702");
  assert.deepEqual(rank.parseSpec("110,111"), [["110", "110"], ["111", "111"]]);
  /* A decimal comma with a short range or in a list, as numbers.py reads it. */
  [["702,19c-d", [["702.19c", "702.19d"]]], ["(702,19c\u2013e)", [["702.19c", "702.19e"]]],
    ["702,19 c-d", [["702.19c", "702.19d"]]], ["702,19c-702,19e", [["702.19c", "702.19e"]]],
    ["119,7-8", [["119.7", "119.8"]]], ["702,19c, 702,20a", [["702.19c", "702.19c"], ["702.20a", "702.20a"]]],
    ["R60110a, R60110b", [["601.10a", "601.10a"], ["601.10b", "601.10b"]]]]
    .forEach(([t, want]) => assert.deepEqual(rank.parseSpec(t), want, t));
  assert.throws(() => rank.parseSpec("702.19l"), rank.BadInput);
  assert.throws(() => rank.parseSpec("7-702"), rank.BadInput);
});

test("references in running text are found as numbers.find_references finds them", () => {
  const refs = rank.findReferences("See rules 508.1, 509.1, and 510.1. Also rule 702.19c\u2013e and 20 life.");
  assert.deepEqual(refs.map((r) => r[2]), ["rules 508.1, 509.1, and 510.1", "rule 702.19c\u2013e"]);
  assert.deepEqual(refs[1][3], [["702.19c", "702.19e"]]);
  /* A bare chapter needs a word or a title that vouches for it. */
  assert.deepEqual(rank.findReferences("See 718, \u201cPrototype Cards.\u201d")[0][3], [["718", "718"]]);
  assert.deepEqual(rank.findReferences("draw 100 cards"), []);
  assert.deepEqual(rank.findReferences("trample (702,19c) and R70219d").map((r) => r[3]),
    [[["702.19c", "702.19c"]], [["702.19d", "702.19d"]]]);
  assert.deepEqual(rank.findReferences("as in 702.19.c says").map((r) => r[3]), [[["702.19c", "702.19c"]]]);
});

test("spelling similarity is difflib's ratio", () => {
  assert.equal(rank.ratio("deathtouch", "deathtuch"), 18 / 19);
  assert.equal(rank.ratio("abcd", "bcda"), 0.75);
  assert.equal(rank.ratio("", ""), 1);
});

test("folding uses the exported table, then lowercase", () => {
  const t = new rank.Text({ "\u2019": "'", "\u00df": "ss" }, STOP);
  assert.deepEqual(t.words("Can\u2019t STRA\u00dfE \uff21BC"), ["can't", "strasse", "abc"]);
  assert.equal(rank.clean("a\u0000b\u200b  c\ufeff"), "a b c");
});

test("a whole-query cue (topics.whole_stem) lifts its rules for that query alone", async () => {
  /* "=deathtouch" as searchdata exports it: one stem, the query's stems joined. */
  const e = () => engine({ cues: [[0, "=game_lose", ["702.2a"]]] });
  assert.ok((await ids(e(), "lose the game")).includes("702.2a"));
  assert.ok(!(await ids(e(), "players lose the game")).includes("702.2a"));
});

test("two famous cards named together find the topic their names make (boosts._cards_together)", async () => {
  const part = (name) => ({ index: {}, plain: [], rules: { [name]: ["702.2b"] }, longest: 1 });
  const cues = [[0, "humil opalesc", ["702.2a"]], [1, "humil", ["702.2"]]];
  const e = () => {
    const en = engine({ cues, cards: { h: part("humility"), o: part("opalescence") } });
    const stem = en.stem.bind(en), stems = { humility: "humil", opalescence: "opalesc" };
    en.stem = (w) => stems[w] || stem(w);
    return en;
  };
  const both = await ids(e(), "Cast Humility and Opalescence: players lose the game?");
  assert.ok(both.includes("702.2a"), both);
  /* A cue of one card's name is left to the cards table. */
  assert.ok(!both.includes("702.2"), both);
  const one = await ids(e(), "Cast Humility: players lose the game?");
  assert.ok(!one.includes("702.2a") && !one.includes("702.2"), one);
});

test("a linked query asks for its word, topic and card files only", () => {
  const r = release({ cues: [[0, "game lose", ["702.2a"]]] });
  const got = text.linkedQueryFiles(r.keys, "What does deathtouch do to the game?");
  const names = got.files.map((f) => f[0]).sort();
  assert.deepEqual(names, ["topics-g", "w-d", "w-g"]);
  assert.deepEqual(got.words, [["deathtouch", "w-d"], ["do", "w-d"], ["game", "w-g"]]);
  assert.deepEqual(text.linkedQueryFiles(r.keys, "702.19c"), { words: [], files: [] });
  assert.deepEqual(text.needsLetter(r.keys, { w: {} }, "deathtuch"), ["v-d", "search/v-d.js"]);
  assert.equal(text.needsLetter(r.keys, { w: { deathtouch: [3, 0] } }, "deathtouch"), null);
});

test("a linked query asks at once for every file its search reads but the documents", async () => {
  /* Slang ("zap" is "destroyed" here) and the whole-query cues ("=") too:
     a file asked for only once the ranking module has loaded costs a
     round trip more on a phone. */
  const cues = [[0, "=deathtouch_zap", ["702.2a"]], [1, "destroi", ["702.2b"]], [2, "game lose", ["100.1"]]];
  for (const query of ["zap deathtouch", "deathtouch", "deathtuch", "Deathtouch and the game?"]) {
    const r = release({ cues, slang: { zap: "destroyed" } });
    /* What search.html asks for: the files, then each word's letter file
       (a typo) or its stem's file once the word's file is in. */
    const got = text.linkedQueryFiles(r.keys, query), first = new Set(got.files.map((f) => f[1]));
    for (const [w, name] of got.words) {
      const shard = await r.load(name, got.files.find((f) => f[0] === name)[1]);
      [text.needsLetter(r.keys, shard, w), text.stemFile(r.keys, shard, w)].forEach((f) => { if (f) first.add(f[1]); });
    }
    r.asked.length = 0;
    await new rank.Engine(r.meta, r.keys, r.load).search(query, 10);
    const late = r.asked.filter((f) => !first.has(f) && !f.startsWith("search/d."));
    assert.deepEqual(late, [], query);
    assert.ok(r.asked.some((f) => f.startsWith("search/topics-")), query);
  }
});

test("while a query is typed, its slang's word files are asked for too", async () => {
  const r = release({ slang: { zap: "game" } });
  await new rank.Engine(r.meta, r.keys, r.load).prefetch("zap ");
  assert.ok(r.asked.includes("search/w-g.js"), r.asked);
  const plain = release({ slang: {} });
  await new rank.Engine(plain.meta, plain.keys, plain.load).prefetch("zap ");
  assert.ok(!plain.asked.includes("search/w-g.js"), plain.asked);
});

test("the glossary's ids come from its terms when the metadata leaves them out", async () => {
  const r = release(), whole = new rank.Engine(r.meta, r.keys, r.load);
  const meta = { ...r.meta, ids: r.meta.ids.filter((i) => !i.startsWith(":")) };
  const short = new rank.Engine(meta, r.keys, r.load);
  assert.ok(meta.ids.length < r.meta.ids.length);
  assert.deepEqual(short.ids, whole.ids);
  assert.equal((await short.search("deathtouch", 10)).results.map((h) => h.id).join(" "),
    (await whole.search("deathtouch", 10)).results.map((h) => h.id).join(" "));
});

test("data of another format is refused", () => {
  const r = release();
  assert.throws(() => new rank.Engine({ ...r.meta, format: 1 }, r.keys, r.load), /format 1/);
});

test("a question's words ask for their cards parts of one and two letters", () => {
  const { cardParts } = text;
  /* searchdata.cards_by_letter: a big letter split by two letters, a
     one-letter word's names in its letter's part. */
  assert.deepEqual(cardParts(["creature", "dies", "a", "urza's"]), ["c", "cr", "d", "di", "a", "u", "ur"]);
  assert.deepEqual(cardParts(["x's"]), ["x", "x'"]);
});
