import { CLI_ACTOR, type AuditEvent } from "../engine/api/model.js";
import { args, cliEngine, out } from "./context.js";

const OPTIONS = {
  json: { type: "boolean" },
  project: { type: "string" },
  user: { type: "string" },
  since: { type: "string" },
} as const;

const text = (e: AuditEvent) =>
  [
    new Date(e.at).toISOString(),
    e.actor,
    e.via,
    e.action,
    e.target,
    e.project ?? "-",
    e.outcome,
    e.reason ?? "",
    e.detail ?? "",
  ].join("\t");

/**
 * `codexpi audit [--json] [--project P] [--user U…] [--since 2026-12-01|7d]`: the whole matching
 * trail, oldest first; `--json` writes one JSON object per line (an export any tool can read).
 */
export async function run(argv: string[]): Promise<number> {
  const { values } = args(argv, OPTIONS, 0);
  const { db, api } = await cliEngine();
  try {
    const query = { project: values.project ?? null, user: values.user ?? null, since: values.since ?? null };
    for await (const e of api.audit.rows(CLI_ACTOR, query)) out(values.json ? JSON.stringify(e) : text(e));
    return 0;
  } finally {
    await db.destroy();
  }
}
