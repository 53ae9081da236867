import type { ForgeSettings } from "../engine/api/model.js";

// `/codex project forge NAME [--kind github|gitlab|none] [--repo R|none] [--url URL|none]
// [--remote NAME]` (issue 32, item 6): an admin reads, or changes, where a project's branches are
// pushed and its pull requests opened. The CLI's names (`--forge`, `--forge-repo`, `--forge-url`)
// are accepted too. The token is not among them: it stays on the host's command line, read from
// standard input; a token given here is refused and said to be no longer secret.

/** The parsed `project forge` command: show (no change) or change the settings. */
export type ForgeCommand =
  | { kind: "project.forge"; name: string; changes: ForgeSettings | null; tokenGiven: boolean }
  | { kind: "usage"; topic: "project.forge" };

/** A value as Slack sends it: a URL the client turned into a link `<https://…|label>` is unwrapped. */
const unlinked = (value: string): string => /^<([^|>]+)(?:\|[^>]*)?>$/.exec(value)?.[1] ?? value;

const cleared = (value: string): string | null => (value === "none" ? null : value);

/** Parses the words after `project forge`. */
export function parseForge(args: string[]): ForgeCommand {
  const usage = { kind: "usage", topic: "project.forge" } as const;
  const [name, ...flags] = args;
  if (!name || name.startsWith("--")) return usage;
  const changes: ForgeSettings = {};
  let tokenGiven = false;
  for (let i = 0; i < flags.length; i += 2) {
    const flag = flags[i];
    const raw = flags[i + 1];
    if (flag === "--token" || flag === "--forge-token") {
      tokenGiven = true;
      continue;
    }
    if (raw === undefined || raw.startsWith("--")) return usage;
    const value = unlinked(raw);
    if (flag === "--kind" || flag === "--forge") {
      if (value !== "github" && value !== "gitlab" && value !== "none") return usage;
      changes.forge = value === "none" ? null : value;
    } else if (flag === "--repo" || flag === "--forge-repo") changes.forgeRepo = cleared(value);
    else if (flag === "--url" || flag === "--forge-url") changes.forgeUrl = cleared(value);
    else if (flag === "--remote") changes.remote = value;
    else return usage;
  }
  const changed = Object.keys(changes).length > 0;
  return { kind: "project.forge", name, changes: changed ? changes : null, tokenGiven };
}
