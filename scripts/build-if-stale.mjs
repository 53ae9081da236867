// `npm start` (prestart) and `npm run build`: builds dist/ (TypeScript, then the CLI bundle) unless
// it was built from exactly the sources there now. A build takes about a minute on a small host;
// a start that rebuilds each time makes every restart that long.
//
// The stamp dist/.build-stamp holds the newest modification time and the number of the build's
// inputs, taken before the build started: an edit during a build, a new or a deleted file all
// change it. `--always` (npm run build) builds whatever the stamp says, then writes it.
// Plain JavaScript: it runs before dist/ exists.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** What tsconfig.json compiles, and what decides how. */
const INPUT_DIRS = ["src", "db", "scripts", "test/support"];
const INPUT_FILES = ["tsconfig.json", "package.json", "package-lock.json"];
const STAMP = path.join(root, "dist", ".build-stamp");
const OUTPUT = path.join(root, "dist", "bin", "main.js");

/** Newest mtime and count of the files under `dir` (skipping nothing: inputs only live there). */
function scan(dir, acc) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return acc;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) scan(p, acc);
    else if (e.isFile()) {
      acc.files += 1;
      acc.newest = Math.max(acc.newest, fs.statSync(p).mtimeMs);
    }
  }
  return acc;
}

/** The inputs' fingerprint, as the stamp stores it. */
function fingerprint() {
  const acc = { newest: 0, files: 0 };
  for (const d of INPUT_DIRS) scan(path.join(root, d), acc);
  for (const f of INPUT_FILES) {
    try {
      acc.newest = Math.max(acc.newest, fs.statSync(path.join(root, f)).mtimeMs);
      acc.files += 1;
    } catch {
      // an absent file (no lockfile) is part of the fingerprint through the count
    }
  }
  return JSON.stringify(acc);
}

function upToDate(print) {
  try {
    return fs.existsSync(OUTPUT) && fs.readFileSync(STAMP, "utf8") === print;
  } catch {
    return false;
  }
}

/** Runs one build step (argv, no shell); exits with its status when it fails. */
function step(argv) {
  const r = spawnSync(process.execPath, argv, { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const always = process.argv.includes("--always");
const print = fingerprint();
if (!always && upToDate(print)) process.exit(0);
if (!always) process.stderr.write("codexpi: dist/ is older than the sources: building (about a minute)\n");
fs.rmSync(STAMP, { force: true }); // a build that fails half-way leaves no stamp
step([path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"]);
step([path.join(root, "dist", "scripts", "bundle-cli.js")]);
fs.writeFileSync(STAMP, print);
