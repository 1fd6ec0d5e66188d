/* Rank queries with the site's ranking module (templates/js/rank.js) under
   node, over a built site's search data: what tools/site_parity.py
   compares with the CLI.

     node tools/site_parity.mjs SITE META KEYS QUERIES.json OUT.json

   SITE is the folder that holds search/; META and KEYS are the paths of
   the metadata and keys files inside it; QUERIES.json is a list of query
   strings.  OUT.json gets, per query, the ids of its first ten results
   (an empty list when the search refuses the query).  Every query gets a
   fresh engine in strict mode (a stem asked for before its word file is
   loaded is an error), over one cache of parsed files. */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(import.meta.url);
const rank = require("../templates/js/rank.js");

/* A data file's value: the JSON after `(window.CRSEARCH_DATA=...)["name"]=`. */
export function readData(path) {
  const text = readFileSync(path, "utf8");
  const at = text.indexOf("]=");
  return JSON.parse(text.slice(at + 2).replace(/;\s*$/, ""));
}

export function loader(site) {
  const cache = new Map();
  const load = (name, file) => {
    if (!cache.has(file)) cache.set(file, readData(join(site, file)));
    return Promise.resolve(cache.get(file));
  };
  return load;
}

async function main() {
  const [site, metaPath, keysPath, queriesPath, outPath] = process.argv.slice(2);
  const meta = readData(join(site, metaPath)), keys = readData(join(site, keysPath));
  const load = loader(site), queries = JSON.parse(readFileSync(queriesPath, "utf8"));
  const out = [];
  for (const query of queries) {
    const engine = new rank.Engine(meta, keys, load);
    engine.strict = true;
    try {
      const res = await engine.search(query, 10);
      out.push(res.error ? [] : res.results.map((h) => h.id));
    } catch (e) {
      if (!(e instanceof rank.BadInput)) {
        out.push({ error: String(e && e.stack ? e.stack : e) });
      } else out.push([]);
    }
  }
  writeFileSync(outPath, JSON.stringify(out));
}

if (import.meta.url === `file://${process.argv[1]}`) main();
