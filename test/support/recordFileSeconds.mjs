// Writes test/support/fileSeconds.json, the durations latencySequencer.ts starts the longest files
// first by in a fresh clone, from vitest's own record of the last run on this machine (files that
// failed there are left out: their time was time-outs). Run it after a whole `npm test`:
//   node test/support/recordFileSeconds.mjs
// Plain JavaScript, so that it runs without a build.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const cacheRoot = path.join(root, "node_modules", ".vite", "vitest");
const records = fs
  .readdirSync(cacheRoot)
  .map((d) => path.join(cacheRoot, d, "results.json"))
  .filter((f) => fs.existsSync(f))
  .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
if (records.length === 0) throw new Error(`no vitest results under ${cacheRoot}: run npm test first`);
const { results } = JSON.parse(fs.readFileSync(records[0], "utf8"));
const seconds = Object.fromEntries(
  results
    // This configuration's projects only (the record keeps older names), and files that exist.
    .filter(([key]) => /^(sqlite|postgres)(-apart)?:/.test(key))
    .filter(([key, r]) => !r.failed && fs.existsSync(path.join(root, key.slice(key.indexOf(":") + 1))))
    .map(([key, r]) => [key, Math.round(r.duration / 100) / 10])
    .sort(([a], [b]) => a.localeCompare(b)),
);
const out = path.join(root, "test", "support", "fileSeconds.json");
fs.writeFileSync(out, `${JSON.stringify(seconds, null, 2)}\n`);
process.stdout.write(
  `${Object.keys(seconds).length} files' durations written to ${path.relative(root, out)}\n`,
);
