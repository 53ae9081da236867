import { CLI_ACTOR, type NoteView } from "../engine/api/model.js";
import { t } from "../i18n/index.js";
import { args, cliLocale, out, UsageError, withApi } from "./context.js";

const line = (n: NoteView, leftOut: ReadonlySet<string>) =>
  [
    n.id,
    new Date(n.createdAt).toISOString(),
    n.source === "agent" ? `agent, kept by ${n.decidedBy ?? "-"}` : n.addedBy,
    leftOut.has(n.id) ? "left-out" : "given",
    n.place === null ? "project" : `channel:${n.place}`,
    n.text.replace(/\s*\n\s*/g, " "),
  ].join("\t");

/**
 * `--channel ID` right before or after the project (`add`): the note is that channel's only, as
 * `/codex remember --here` keeps it there; the rest of the line is the note, whatever it holds.
 */
function channelOption(rest: string[]): { channel: string | null; rest: string[] } {
  for (const at of [0, 1])
    if (rest[at] === "--channel") {
      const channel = rest[at + 1];
      if (!channel)
        throw new UsageError(t(cliLocale(), "cli.error.arguments", { n: 2, got: rest.length - 1 }));
      return { channel, rest: [...rest.slice(0, at), ...rest.slice(at + 2)] };
    }
  return { channel: null, rest };
}

/**
 * `codexpi memory list PROJECT [--channel ID]`, `add [--channel ID] PROJECT TEXT…`, `forget ID`:
 * the same use cases as `/codex memory` and `/codex remember [--here]`, as the operator (an admin),
 * recorded in the audit trail. A channel's id is the place its conversations were started in.
 */
export async function run(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === "list") {
    const { positionals, values } = args(rest, { channel: { type: "string" } }, 1);
    return withApi(async (api, locale) => {
      const m = await api.memory.list(CLI_ACTOR, positionals[0] as string, values.channel ?? null);
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
    const { channel, rest: words } = channelOption(rest);
    if (words.length < 2)
      throw new UsageError(t(cliLocale(), "cli.error.arguments", { n: 2, got: words.length }));
    const [project, ...text] = words as [string, ...string[]];
    return withApi(async (api, locale) => {
      const n = await api.memory.add(CLI_ACTOR, project, text.join(" "), channel);
      out(
        n.place
          ? t(locale, "cli.memory.added_place", { id: n.id, project: n.project, place: n.place })
          : t(locale, "cli.memory.added", { id: n.id, project: n.project }),
      );
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
