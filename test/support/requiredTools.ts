import fs from "node:fs";
import path from "node:path";

/** A program the suite runs, and where it comes from. */
interface Tool {
  command: string;
  /** The Debian/Ubuntu package that provides it. */
  pkg: string;
  why: string;
}

const GIT: Tool = { command: "git", pkg: "git", why: "the tests make repositories in temporary directories" };
const BWRAP: Tool = {
  command: "bwrap",
  pkg: "bubblewrap",
  why: "the jail around every agent process and acceptance-test command",
};

/** Whether `command` is an executable file in one of PATH's directories. */
export function onPath(command: string, pathVariable = process.env.PATH ?? ""): boolean {
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
export function toolCheck(
  env: Record<string, string | undefined>,
  found: (command: string) => boolean,
): { fatal: string[]; notes: string[] } {
  const fatal: string[] = [];
  const notes: string[] = [];
  const missing = (t: Tool) => `${t.command} is not installed (${t.why}): apt-get install ${t.pkg}`;
  if (!found(GIT.command)) fatal.push(missing(GIT));
  if (!found(BWRAP.command)) {
    if (env.CODEXPI_REQUIRE_JAIL === "1") fatal.push(`${missing(BWRAP)} (CODEXPI_REQUIRE_JAIL=1)`);
    else if (env.CODEXPI_JAIL !== "off")
      fatal.push(`${missing(BWRAP)}; or CODEXPI_JAIL=off to run the workers unjailed`);
    else notes.push(`${missing(BWRAP)}; CODEXPI_JAIL=off: the jail tests will skip`);
  }
  return { fatal, notes };
}
