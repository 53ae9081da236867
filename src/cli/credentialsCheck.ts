import {
  createEngineApi,
  Engine,
  migrateIfBehind,
  openDatabase,
  operatorCodexHome,
} from "../engine/api/runtime.js";
import { CLI_ACTOR } from "../engine/api/model.js";
import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import type { Config } from "../config.js";
import { t } from "../i18n/index.js";
import { checkName, type Check } from "./slackChecks.js";

/**
 * Whether the operator's auth.json is a ChatGPT login (tokens Codex refreshes) rather than an API
 * key. Such a login's refresh token is single-use: a full-access turn refreshing its own copy may
 * rotate the token the operator's file still holds.
 */
function isChatGptLogin(authFile: string): boolean {
  try {
    const auth = JSON.parse(fs.readFileSync(authFile, "utf8")) as { tokens?: unknown };
    return typeof auth.tokens === "object" && auth.tokens !== null;
  } catch {
    return false;
  }
}

/** The names of the projects whose conversations run with full access. */
async function fullAccessProjects(config: Config): Promise<string[]> {
  const db = openDatabase(config.database);
  try {
    await migrateIfBehind(db as unknown as Kysely<unknown>);
    const projects = await createEngineApi(new Engine({ config, db })).projects.list(CLI_ACTOR);
    return projects
      .filter((p) => p.full_access)
      .map((p) => p.name)
      .sort();
  } finally {
    await db.destroy();
  }
}

/**
 * Full-access turns get their own copy of the operator's auth.json (never written back): with a
 * ChatGPT login, that copy holds the same refresh token, readable by the agent and possibly rotated
 * by a refresh in its jail. A warning (the install still works), naming the projects and the fix.
 */
export async function credentialsCheck(config: Config): Promise<Check> {
  const name = checkName(config.locale, "credentials");
  try {
    const authFile = path.join(operatorCodexHome(config.codexHome), "auth.json");
    const projects = isChatGptLogin(authFile) ? await fullAccessProjects(config) : [];
    if (!projects.length) return { name, ok: true, detail: t(config.locale, "cli.doctor.credentials_ok") };
    return {
      name,
      ok: true,
      warning: true,
      detail: t(config.locale, "cli.doctor.credentials_shared_login", {
        projects: projects.join(", "),
        file: authFile,
      }),
    };
  } catch (err) {
    return { name, ok: false, detail: (err as Error).message };
  }
}
