/* The site's card lookup (templates/cards.js) under node: `node --test tests/js/`.
   The folding is Python's (crsearch/cards/names.py): name_fold.json holds
   names.fold_table and what names.name_words gives for each case, written and
   checked by tests/cards/test_names.py; here the site must fold them alike. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

const require = createRequire(import.meta.url);
const cards = require("../../templates/cards.js");
const FOLD = JSON.parse(readFileSync(new URL("./name_fold.json", import.meta.url), "utf8"));
const STOP = ["a", "an", "and", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the", "to", "with"];

cards.configure({ fold: FOLD.fold, stop: STOP });

test("every case folds to Python's words", () => {
  assert.ok(FOLD.cases.length >= 10);
  for (const [typed, words] of FOLD.cases) assert.deepEqual(cards.nameWords(typed), words, typed);
});

test("a word folds character by character with Python's table", () => {
  assert.equal(cards.foldWord("Lim-Dûl's".split("-")[1]), "dul");
  assert.equal(cards.foldWord("Æther"), "aether");
  assert.equal(cards.foldWord("Straße"), "strasse");
  assert.equal(cards.foldWord("Urza\u2019s"), "urza");
});

/* Rows as a letter file holds them: [key, letter, name] (a fourth "f": a face's name). */
function rows(names) {
  return names.map((n) => [cards.nameWords(n).join(" "), "l", n]);
}

test("two words of a name typed as one find the card, as the CLI respells them", () => {
  const names = rows(["Lim-Dûl's Vault", "Lim-Dûl the Necromancer", "Vault of Whispers"]);
  assert.equal(cards.resolve(names, "limdul vault"), "Lim-Dûl's Vault");
  assert.equal(cards.resolve(names, "Lim-Dûl's Vault"), "Lim-Dûl's Vault");
  assert.equal(cards.resolve(names, "LIM DUL VAULT"), "Lim-Dûl's Vault");
  assert.deepEqual(cards.resolve(names, "limdul").sort(), ["Lim-Dûl the Necromancer", "Lim-Dûl's Vault"]);
});

test("a joined word must be two whole words of the name", () => {
  const names = rows(["Lim-Dûl's Vault"]);
  assert.deepEqual(cards.resolve(names, "limdu vault"), []);
  assert.deepEqual(cards.resolve(names, "vaultlim"), []);
});
