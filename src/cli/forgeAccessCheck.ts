import type { EngineApi } from "../engine/api/index.js";
import type { ForgeAccess } from "../engine/api/forge.js";
import type { Database } from "../engine/api/runtime.js";
import { lastDelivery } from "../forge/store/lastDelivery.js";
import { t, type Locale } from "../i18n/index.js";
import type { Check } from "./slackChecks.js";

// `doctor`'s line per project receiving forge webhooks (issue 33, item 6), once its repository
// and token are there: what the forge says of the token's scopes and of the webhook calling
// codexpi (its last delivery), and the last delivery codexpi itself journaled. Each warning says
// the command or the place that fixes it.

/** What a sentence of the line says, and whether the operator should act on it. */
interface Part {
  text: string;
  warning: boolean;
}

const note = (text: string): Part => ({ text, warning: false });
const warn = (text: string): Part => ({ text, warning: true });

/** The scopes codexpi needs of a classic GitHub token (`repo`) or a GitLab token (`api`). */
const NEEDED = { github: "repo", gitlab: "api" } as const;

function scopesPart(
  locale: Locale,
  name: string,
  a: ForgeAccess & { forge: "github" | "gitlab"; repo: string },
) {
  const fix = { name };
  const s = a.scopes;
  if (s.kind === "unreadable")
    return note(t(locale, "cli.doctor.forge_token_fine_grained", { repo: a.repo }));
  if (s.kind === "failed")
    return warn(
      s.status === 401
        ? t(locale, "cli.doctor.forge_token_refused", fix)
        : t(locale, "cli.doctor.forge_unreachable", { status: String(s.status ?? "-") }),
    );
  const needed = NEEDED[a.forge];
  const listed = s.scopes.join(", ") || "-";
  return s.scopes.includes(needed)
    ? note(t(locale, "cli.doctor.forge_token_scopes", { scopes: listed }))
    : warn(t(locale, `cli.doctor.forge_token_lacks_${a.forge}`, { ...fix, scopes: listed, needed }));
}

function webhookPart(
  locale: Locale,
  name: string,
  a: ForgeAccess & { forge: "github" | "gitlab"; repo: string },
) {
  const w = a.webhook;
  const path = `/forge/${a.forge}`;
  if (w.kind === "none") return warn(t(locale, "cli.doctor.forge_webhook_none", { repo: a.repo, path }));
  if (w.kind === "unreadable" && ![401, 403, 404].includes(w.status ?? 0))
    return note(t(locale, "cli.doctor.forge_webhook_unknown", { status: String(w.status ?? "-") }));
  if (w.kind === "unreadable")
    return note(
      t(locale, `cli.doctor.forge_webhook_unreadable_${a.forge}`, {
        repo: a.repo,
        status: String(w.status ?? "-"),
      }),
    );
  if (w.alert && w.alert.status !== "executable")
    return warn(
      t(locale, "cli.doctor.forge_webhook_disabled", {
        url: w.url,
        status: w.alert.status,
        until: w.alert.until ?? "-",
      }),
    );
  if (a.forge === "gitlab") return note(t(locale, "cli.doctor.forge_webhook_enabled", { url: w.url }));
  const last = w.lastDelivery;
  if (!last) return note(t(locale, "cli.doctor.forge_webhook_no_delivery", { url: w.url }));
  const said = { url: w.url, status: String(last.status ?? "-"), at: last.at, name };
  if (last.status !== null && last.status >= 200 && last.status < 300)
    return note(t(locale, "cli.doctor.forge_webhook_delivered", said));
  return warn(
    t(locale, last.status === 401 ? "cli.doctor.forge_webhook_401" : "cli.doctor.forge_webhook_failed", said),
  );
}

async function journalPart(locale: Locale, db: Database, projectId: string): Promise<Part> {
  const last = await lastDelivery(db, projectId);
  return note(
    last
      ? t(locale, "cli.doctor.forge_journal_last", {
          event: last.event,
          at: new Date(last.received_at).toISOString(),
          outcome: last.outcome ?? last.status,
        })
      : t(locale, "cli.doctor.forge_journal_none"),
  );
}

/** The line of a project whose repository and token are set (the forge is asked). */
export async function forgeAccessCheck(
  locale: Locale,
  api: EngineApi,
  db: Database,
  projectId: string,
  name: string,
): Promise<Check> {
  const access = await api.forge.access(projectId);
  const parts = [
    scopesPart(locale, name, access),
    webhookPart(locale, name, access),
    await journalPart(locale, db, projectId),
  ];
  const warning = parts.some((p) => p.warning);
  return {
    name: t(locale, "cli.doctor.name.forge_project", { project: name }),
    ok: true,
    ...(warning ? { warning: true } : {}),
    detail: parts.map((p) => p.text).join("; "),
  };
}
