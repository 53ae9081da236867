import { CLI_ACTOR, type ForgeSettings } from "../engine/api/model.js";
import type { EngineApi } from "../engine/api/index.js";
import { t, type Locale } from "../i18n/index.js";
import { args, cliEngine, cliLocale, out, UsageError } from "./context.js";

// Forge settings and tokens from the command line. A token is read from standard input only
// (`--forge-token -`): an argument shows in `ps` and in shell history.

/** `project set`'s forge options (merged into its own). */
export const FORGE_OPTIONS = {
  remote: { type: "string" },
  forge: { type: "string" },
  "forge-url": { type: "string" },
  "forge-repo": { type: "string" },
} as const;

type ForgeValues = { remote?: string; forge?: string; "forge-url"?: string; "forge-repo"?: string };

/** The forge settings `project set` was given (`none` clears a field), or null for none. */
export function forgeChanges(values: ForgeValues): ForgeSettings | null {
  const cleared = (v: string | undefined) => (v === undefined ? undefined : v === "none" ? null : v);
  const forge = cleared(values.forge);
  if (forge !== undefined && forge !== null && forge !== "github" && forge !== "gitlab")
    throw new UsageError(t(cliLocale(), "reason.forge_kind_invalid", { value: forge }));
  const changes: ForgeSettings = {
    ...(values.remote !== undefined ? { remote: values.remote } : {}),
    ...(forge !== undefined ? { forge } : {}),
    ...(values["forge-url"] !== undefined ? { forgeUrl: cleared(values["forge-url"]) } : {}),
    ...(values["forge-repo"] !== undefined ? { forgeRepo: cleared(values["forge-repo"]) } : {}),
  };
  return Object.keys(changes).length ? changes : null;
}

/** Applies `project set`'s forge options and says what the project's forge settings are now. */
export async function setForgeOptions(api: EngineApi, locale: Locale, name: string, changes: ForgeSettings) {
  const p = await api.projects.setForge(CLI_ACTOR, name, changes);
  const none = t(locale, "cli.project.forge_none");
  out(
    t(locale, "cli.project.forge", {
      name: p.name,
      remote: p.remote,
      forge: p.forge ?? none,
      url: p.forge_url ?? none,
      repo: p.forge_repo ?? none,
    }),
  );
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Stores (`--forge-token -`, the token on standard input) or removes (`--remove`) a forge token:
 * a project's (`project credential NAME …`) or the install's (`credential …`, `name` null).
 */
async function credential(argv: string[], withName: boolean): Promise<number> {
  const { values, positionals } = args(
    argv,
    { "forge-token": { type: "string" }, remove: { type: "boolean" } },
    withName ? 1 : 0,
  );
  const token = values["forge-token"];
  if ((token === undefined) === (values.remove !== true) || (token !== undefined && token !== "-"))
    throw new UsageError(t(cliLocale(), "cli.error.credential"));
  const name = withName ? (positionals[0] as string) : null;
  const secret = token === "-" ? await readStdin() : null;
  const { db, api, config } = await cliEngine();
  try {
    if (secret !== null) {
      const file = await api.projects.setForgeToken(CLI_ACTOR, name, secret);
      out(t(config.locale, "cli.credential.stored", { file }));
    } else {
      const { file, removed } = await api.projects.removeForgeToken(CLI_ACTOR, name);
      out(t(config.locale, removed ? "cli.credential.removed" : "cli.credential.absent", { file }));
    }
    return 0;
  } finally {
    await db.destroy();
  }
}

/** `codexpi project credential NAME --forge-token - | --remove`. */
export const projectCredential = (argv: string[]) => credential(argv, true);

/** `codexpi credential --forge-token - | --remove`: the install's token. */
export async function run(argv: string[]): Promise<number> {
  return credential(argv, false);
}
