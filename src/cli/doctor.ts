import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import type { Kysely } from "kysely";
import { parseConfig, type Config } from "../config.js";
import { migrate, openDatabase } from "../engine/database.js";
import { codexSupportPath, resolveCodexBinary } from "../engine/agents/codexBinary.js";
import { args, out } from "./context.js";
import { layoutProblemsOf } from "./layoutCheck.js";

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** `codexpi doctor`: checks config, database, Codex (and its sandbox), git and Slack; exit 1 if any fails. */
export async function run(argv: string[]): Promise<number> {
  args(argv, {}, 0);
  const checks: Check[] = [];
  let config: Config;
  try {
    config = parseConfig();
    checks.push({ name: "configuration", ok: true, detail: `data dir ${config.dataDir}` });
  } catch (err) {
    out(`✗ configuration: ${(err as Error).message}`);
    return 1;
  }
  checks.push(await database(config));
  checks.push(await layoutCheck(config));
  const codex = await codexCheck(config);
  checks.push(codex.check);
  if (codex.bin) checks.push(await sandboxCheck(codex.bin));
  checks.push(await gitCheck());
  checks.push(await slackCheck(config));
  for (const c of checks) out(`${c.ok ? "✓" : "✗"} ${c.name}: ${c.detail}`);
  return checks.every((c) => c.ok) ? 0 : 1;
}

async function database(config: Config): Promise<Check> {
  try {
    const db = openDatabase(config.databasePath);
    try {
      await migrate(db as unknown as Kysely<unknown>);
      return { name: "database", ok: true, detail: config.databasePath };
    } finally {
      await db.destroy();
    }
  } catch (err) {
    return { name: "database", ok: false, detail: (err as Error).message };
  }
}

/** No project may hold the data directory or the running install (its agents could rewrite them). */
async function layoutCheck(config: Config): Promise<Check> {
  try {
    const problems = await layoutProblemsOf(config);
    return { name: "layout", ok: problems.length === 0, detail: problems.length ? problems.join("; ") : "no project holds the data directory or the install" };
  } catch (err) {
    return { name: "layout", ok: false, detail: (err as Error).message };
  }
}

async function codexCheck(config: Config): Promise<{ check: Check; bin: string | null }> {
  const bin = resolveCodexBinary(config.codexBin);
  if (!bin) return { bin, check: { name: "codex", ok: false, detail: "binary not found (npm ci installs @openai/codex; or set CODEX_BIN)" } };
  const r = await execa(bin, ["--version"], { reject: false, timeout: 15_000 });
  return { bin, check: { name: "codex", ok: r.exitCode === 0, detail: r.exitCode === 0 ? `${r.stdout.trim()} (${bin})` : r.stderr.trim() } };
}

/** Restricted projects need Codex's sandbox (bubblewrap and user namespaces) to run anything. */
async function sandboxCheck(bin: string): Promise<Check> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-doctor-"));
  try {
    const support = codexSupportPath(bin);
    const r = await execa(bin, ["sandbox", "--", "true"], {
      reject: false,
      timeout: 15_000,
      cwd: dir,
      env: support ? { PATH: `${support}${path.delimiter}${process.env.PATH ?? ""}` } : {},
    });
    return r.exitCode === 0
      ? { name: "sandbox", ok: true, detail: "restricted projects can run commands" }
      : { name: "sandbox", ok: false, detail: `restricted projects cannot run commands here: ${(r.stderr || r.stdout).trim().split("\n").pop() ?? ""}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function gitCheck(): Promise<Check> {
  const r = await execa("git", ["--version"], { reject: false });
  return { name: "git", ok: r.exitCode === 0, detail: r.exitCode === 0 ? r.stdout.trim() : "git not found on PATH" };
}

async function slackCheck(config: Config): Promise<Check> {
  if (!config.slack.botToken) return { name: "slack", ok: false, detail: "SLACK_BOT_TOKEN is not set" };
  const base = (config.slack.apiUrl ?? "https://slack.com/api/").replace(/\/?$/, "/");
  try {
    const res = await fetch(`${base}auth.test`, {
      method: "POST",
      headers: { authorization: `Bearer ${config.slack.botToken}` },
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await res.json()) as { ok: boolean; error?: string; team?: string; user?: string };
    return body.ok
      ? { name: "slack", ok: true, detail: `auth.test ok: ${body.user ?? "?"} in ${body.team ?? "?"}` }
      : { name: "slack", ok: false, detail: `auth.test failed: ${body.error ?? res.status}` };
  } catch (err) {
    return { name: "slack", ok: false, detail: `Slack unreachable: ${(err as Error).message}` };
  }
}
