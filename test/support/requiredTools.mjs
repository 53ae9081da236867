// Plain JavaScript so that `npm test` can run it before anything is built (package.json's pretest):
// a machine without git or bubblewrap is told so in a second, naming the package to install, not
// after the build and lint, nor as minutes of timeouts. The suite's global setup runs it again
// (test/support/toolsGlobalSetup.ts) for `npx vitest` run directly. Types: requiredTools.d.mts.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const GIT = { command: "git", pkg: "git", why: "the tests make repositories in temporary directories" };
const BWRAP = {
  command: "bwrap",
  pkg: "bubblewrap",
  why: "the jail around every agent process and acceptance-test command",
};

/** Whether `command` is an executable file in one of PATH's directories. */
export function onPath(command, pathVariable = process.env.PATH ?? "") {
  return pathVariable
    .split(path.delimiter)
    .filter(Boolean)
    .some((dir) => {
      try {
        fs.accessSync(path.join(dir, command), fs.constants.X_OK);
        return fs.statSync(path.join(dir, command)).isFile();
      } catch {
        return false;
      }
    });
}

/**
 * What the suite's tools say before any test runs: `fatal` stops the run, `notes` are printed.
 * git is always needed. So is bubblewrap: every test's Codex worker runs in the jail, so without it
 * the run would fail test after test for minutes. Only with CODEXPI_JAIL=off (workers unjailed)
 * and outside CI (CODEXPI_REQUIRE_JAIL=1 fails it) is it a note: the jail tests then skip with
 * their reason (test/support/jail.ts).
 */
export function toolCheck(env, found) {
  const fatal = [];
  const notes = [];
  const missing = (t) => `${t.command} is not installed (${t.why}): apt-get install ${t.pkg}`;
  if (!found(GIT.command)) fatal.push(missing(GIT));
  if (!found(BWRAP.command)) {
    if (env.CODEXPI_REQUIRE_JAIL === "1") fatal.push(`${missing(BWRAP)} (CODEXPI_REQUIRE_JAIL=1)`);
    else if (env.CODEXPI_JAIL !== "off")
      fatal.push(`${missing(BWRAP)}; or CODEXPI_JAIL=off to run the workers unjailed`);
    else notes.push(`${missing(BWRAP)}; CODEXPI_JAIL=off: the jail tests will skip`);
  }
  return { fatal, notes };
}

/** Prints the notes and the fatal lines; whether the run may go on. */
export function reportTools(env = process.env, found = (command) => onPath(command)) {
  const { fatal, notes } = toolCheck(env, found);
  for (const line of [...notes, ...fatal]) process.stderr.write(`${line}\n`);
  if (fatal.length > 0) process.stderr.write("the test suite cannot run: install what is named above\n");
  return fatal.length === 0;
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = reportTools() ? 0 : 1;
}
