import { CLI_ACTOR } from "../engine/api/model.js";
import { setupResultText } from "../views/setup.js";
import { t, type Locale } from "../i18n/index.js";
import { args, cliEngine, cliLocale, out, UsageError } from "./context.js";

// A project's setup from the command line (issue 31, item 4): `codexpi setup NAME` runs a direct
// project's setup in its checkout; `project secret set|unset|list` keeps its secrets, a value read
// from standard input only (an argument shows in `ps` and in shell history).

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

/** `codexpi project secret set NAME KEY | unset NAME KEY | list NAME`. */
export async function projectSecret(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv;
  const wanted = verb === "list" ? 1 : verb === "set" || verb === "unset" ? 2 : -1;
  if (wanted < 0) throw new UsageError(t(cliLocale(), "cli.error.secret"));
  const { positionals } = args(rest, {}, wanted);
  const [name, key] = positionals as [string, string];
  const value = verb === "set" ? await readStdin() : null;
  const { db, api, config } = await cliEngine();
  try {
    if (verb === "set") {
      const file = await api.setup.setSecret(CLI_ACTOR, name, key, value as string);
      out(t(config.locale, "cli.secret.stored", { name, key, file }));
    } else if (verb === "unset") {
      const removed = await api.setup.unsetSecret(CLI_ACTOR, name, key);
      out(t(config.locale, removed ? "cli.secret.removed" : "cli.secret.absent", { name, key }));
    } else {
      const names = await api.setup.secretNames(CLI_ACTOR, name);
      out(names.length ? names.join("\n") : t(config.locale, "cli.secret.none", { name }));
    }
    return 0;
  } finally {
    await db.destroy();
  }
}

/** `project set NAME --setup "…"|none`: the admin's setup command. */
export async function setSetupOption(
  api: Awaited<ReturnType<typeof cliEngine>>["api"],
  locale: Locale,
  name: string,
  value: string,
): Promise<void> {
  const p = await api.setup.setCommand(CLI_ACTOR, name, value.trim() === "none" ? null : value);
  out(
    p.setup_command === null
      ? t(locale, "cli.project.setup_cleared", { name: p.name })
      : t(locale, "cli.project.setup_set", { name: p.name, source: p.setup_command }),
  );
}

/** `codexpi setup NAME`: runs a direct project's setup in its checkout; exit code 1 when it failed. */
export async function run(argv: string[]): Promise<number> {
  const { positionals } = args(argv, {}, 1);
  const { db, api, config } = await cliEngine();
  try {
    const result = await api.setup.runDirect(CLI_ACTOR, positionals[0] as string);
    out(setupResultText(config.locale, result));
    if (result.outcome === "ok" && result.tail) out(result.tail);
    return result.outcome === "failed" ? 1 : 0;
  } finally {
    await db.destroy();
  }
}
