// ESLint (flat config) for the site's JavaScript: the pages' scripts, the
// service worker, the ranking module that node runs too, and the node tools
// and tests around it.  `npm ci && npx eslint templates/ tools/ tests/js/`
// (.ci/run does this); versions pinned by package-lock.json.
"use strict";

const js = require("@eslint/js");
const globals = require("globals");

const strict = {
  eqeqeq: ["error", "always", { null: "ignore" }],
  "no-implicit-globals": "error",
  "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
  "no-shadow-restricted-names": "error",
  "no-use-before-define": ["error", { functions: false, classes: false }],
};

module.exports = [
  { ignores: ["node_modules/", "test-output/", "**/.venv/"] },
  js.configs.recommended,
  {
    // Classic scripts of the pages (no modules: they must work from file://).
    files: ["templates/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.browser } },
    rules: strict,
  },
  {
    // The ranking module and its words: pure (no DOM, no window), for the
    // pages and node (UMD: a global in a page, module.exports under node).
    files: ["templates/js/*.js"],
    languageOptions: {
      ecmaVersion: 2022, sourceType: "script",
      globals: { globalThis: "readonly", module: "readonly", require: "readonly" },
    },
    rules: {
      ...strict,
      "no-restricted-globals": ["error", "window", "document", "self", "location", "navigator"],
      "prefer-const": "error",
      "no-var": "error",
    },
  },
  {
    // Card lookup: a page's script that node loads too, for its matching (tests/js).
    files: ["templates/cards.js"],
    languageOptions: { globals: { module: "readonly" } },
  },
  {
    // A service worker's top level is its own scope, not a page's.
    files: ["templates/sw.js"],
    languageOptions: { globals: { ...globals.serviceworker } },
    rules: { "no-implicit-globals": "off" },
  },
  {
    files: ["tools/**/*.mjs", "tests/js/**/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
    rules: { ...strict, "prefer-const": "error", "no-var": "error" },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "commonjs", globals: { ...globals.node } },
  },
];
