import { CLI_ACTOR, type NoteView } from "../engine/api/model.js";
import { t } from "../i18n/index.js";
import { args, cliEngine, cliLocale, out, UsageError } from "./context.js";

const line = (n: NoteView, leftOut: ReadonlySet<string>) =>
  [
    n.id,
    new Date(n.createdAt).toISOString(),
    n.source === "agent" ? `agent, kept by ${n.decidedBy ?? "-"}` : n.addedBy,
    leftOut.has(n.id) ? "left-out" : "given",
    n.text.replace(/\s*\n\s*/g, " "),
  ].join("\t");

/**
 * `codexpi memory list PROJECT`, `add PROJECT TEXT…`, `forget ID`: the same use cases as
 * `/codex memory` and `/codex remember`, as the operator (an admin), recorded in the audit trail.
 */
export async function run(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === "list") {
    const { positionals } = args(rest, {}, 1);
    return withApi(async (api, locale) => {
      const m = await api.memory.list(CLI_ACTOR, positionals[0] as string);
      if (!m.notes.length) out(t(locale, "cli.memory.none", { project: m.project }));
      const leftOut = new Set(m.leftOut);
      for (const n of m.notes) out(line(n, leftOut));
      if (m.leftOut.length)
        out(
          t(locale, "cli.memory.left_out", {
            n: m.leftOut.length,
            chars: m.budget,
            ids: m.leftOut.join(", "),
          }),
        );
    });
  }
  if (verb === "add") {
    // The text is every word after the project: quoting it is not needed.
    if (rest.length < 2)
      throw new UsageError(t(cliLocale(), "cli.error.arguments", { n: 2, got: rest.length }));
    const [project, ...words] = rest as [string, ...string[]];
    return withApi(async (api, locale) => {
      const n = await api.memory.add(CLI_ACTOR, project, words.join(" "));
      out(t(locale, "cli.memory.added", { id: n.id, project: n.project }));
    });
  }
  if (verb === "forget") {
    const { positionals } = args(rest, {}, 1);
    return withApi(async (api, locale) => {
      const n = await api.memory.forget(CLI_ACTOR, positionals[0] as string);
      out(t(locale, "cli.memory.forgotten", { id: n.id, project: n.project }));
    });
  }
  throw new UsageError(t(cliLocale(), "cli.memory.unknown_command", { name: verb ?? "" }));
}

async function withApi(
  fn: (
    api: Awaited<ReturnType<typeof cliEngine>>["api"],
    locale: ReturnType<typeof cliLocale>,
  ) => Promise<void>,
): Promise<number> {
  const { db, api, config } = await cliEngine();
  try {
    await fn(api, config.locale);
    return 0;
  } finally {
    await db.destroy();
  }
}
