import type { Config } from "../config.js";
import { createEngineApi, Engine, openDatabase } from "../engine/api/runtime.js";
import { ForgePolling } from "../forge/store/polling.js";
import { ForgeThreads } from "../forge/store/threads.js";
import { t } from "../i18n/index.js";
import { silentLogger } from "../logger.js";
import { forgeAccessCheck } from "./forgeAccessCheck.js";
import { type Check, checkName } from "./slackChecks.js";

/**
 * The forge front end (issue 33), for each project given a forge channel: its repository, its
 * webhook secret (unless it is polled) and a token must be there (a warning names what lacks), and
 * webhooks need HTTP mode (polled projects do not). No line when no project uses it. For each
 * project whose repository and token are there, a line of what its forge says
 * (forgeAccessCheck.ts). Reads only.
 */
export async function forgeChecks(config: Config): Promise<Check[]> {
  const name = checkName(config.locale, "forge");
  const db = openDatabase(config.database);
  try {
    const projects = await new ForgeThreads(db).withChannel().catch(() => [] as string[]);
    if (!projects.length) return [];
    const api = createEngineApi(new Engine({ config, db, logger: silentLogger }));
    const lacking: string[] = [];
    const asked: Check[] = [];
    // A polled project (`--poll on`) needs neither a webhook secret nor HTTP mode.
    let webhooks = 0;
    for (const id of projects) {
      const polled = (await new ForgePolling(db).pollOf(id)).poll === "on";
      if (!polled) webhooks += 1;
      const { name: project, missing: all } = await api.forge.missing(id);
      const missing = polled ? all.filter((m) => m !== "webhook_secret") : all;
      if (missing.length)
        lacking.push(t(config.locale, "cli.doctor.forge_missing", { project, missing: missing.join(", ") }));
      if (!missing.includes("repository") && !missing.includes("token"))
        asked.push(await forgeAccessCheck(config.locale, api, db, id, project));
    }
    if (config.slack.appToken && webhooks > 0) lacking.push(t(config.locale, "cli.doctor.forge_socket_mode"));
    if (lacking.length) return [{ name, ok: true, warning: true, detail: lacking.join("; ") }, ...asked];
    return [
      { name, ok: true, detail: t(config.locale, "cli.doctor.forge_ok", { n: projects.length }) },
      ...asked,
    ];
  } finally {
    await db.destroy();
  }
}
