import { toolCheck, onPath } from "./requiredTools.mjs";

/**
 * Both projects' first global setup: a missing git (or bubblewrap in CI) stops the run here, in
 * milliseconds, naming the package to install, instead of as timeouts in every test that needs it.
 * `npm test` has already run the same check before building (package.json's pretest); this one
 * covers `npx vitest` run directly.
 */
export default function setup() {
  const { fatal, notes } = toolCheck(process.env, (command) => onPath(command));
  for (const note of notes) process.stderr.write(`${note}\n`);
  if (fatal.length > 0) throw new Error(`the test suite cannot run: ${fatal.join("; ")}`);
}
