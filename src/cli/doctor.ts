import {
  type LayoutProblem,
  codexEnvironment,
  codexSupportPath,
  describeStorageError,
  egressSelfTest,
  findBwrap,
  findNetworkStack,
  mcpLoopbackPorts,
  migrateIfBehind,
  type ProbeJail,
  probeJailedCodex,
  readOperatorConfig,
  openDatabase,
  operatorCodexHome,
  packageRoot,
  probeJail,
  resolveCodexBinary,
} from "../engine/api/runtime.js";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { pino } from "pino";
import type { Kysely } from "kysely";
import { parseConfig, type Config } from "../config.js";
import { args, cliLocale, out } from "./context.js";
import { t, type Locale } from "../i18n/index.js";
import { describeProblem, installProblemsOf } from "./layoutCheck.js";
import { codexConfigCheck } from "./codexConfigCheck.js";
import { credentialsCheck } from "./credentialsCheck.js";
import { forgeChecks } from "./forgeCheck.js";
import { egressCheck } from "./networkCheck.js";
import { modelProbe } from "./modelProbe.js";
import { appTokenCheck, botTokenChecks, checkName, type Check } from "./slackChecks.js";

/**
 * `codexpi doctor`: checks config, database, Codex (its sandbox, and a real one-turn model probe),
 * git and Slack (tokens and scopes); exit 1 if any fails.
 */
export async function run(argv: string[]): Promise<number> {
  args(argv, {}, 0);
  const checks: Check[] = [];
  let config: Config;
  try {
    config = parseConfig();
  } catch (err) {
    const locale = cliLocale();
    out(
      t(locale, "cli.doctor.line", {
        mark: "✗",
        name: checkName(locale, "configuration"),
        detail: (err as Error).message,
      }),
    );
    return 1;
  }
  const locale = config.locale;
  checks.push({
    name: checkName(locale, "configuration"),
    ok: true,
    detail: t(locale, "cli.doctor.data_dir", { dir: config.dataDir, runner: config.runner }),
  });
  const codexConfig = codexConfigCheck(config);
  checks.push(codexConfig.check);
  checks.push(await database(config));
  const jail = await probeJail({ jail: config.jail, dataDir: config.dataDir, locale: config.locale });
  checks.push({
    name: checkName(locale, "jail"),
    ok: jail.ok,
    detail: t(locale, "cli.jail.line", { mechanism: jail.mechanism, detail: jail.detail }),
  });
  checks.push(...(await layoutChecks(config)));
  checks.push(await credentialsCheck(config));
  checks.push(await egressCheck(config));
  if (config.jail !== "off") checks.push(networkCheck(config), await proxyCheck(config));
  const codex = await codexCheck(config);
  checks.push(codex.check);
  // A config.toml that does not parse fails both with Codex's words: its own line said where.
  if (codex.bin && codexConfig.parses) checks.push(await sandboxCheck(config, codex.bin));
  if (codex.bin && codexConfig.parses) checks.push(await modelProbe(config, codex.bin));
  checks.push(await gitCheck(locale));
  checks.push(...(await botTokenChecks(config)));
  const app = await appTokenCheck(config);
  if (app) checks.push(app);
  checks.push(...(await forgeChecks(config).catch(() => [])));
  for (const c of checks)
    out(t(locale, "cli.doctor.line", { mark: markOf(c), name: c.name, detail: c.detail }));
  return checks.every((c) => c.ok) ? 0 : 1;
}

/** A doctor line's mark: passed, passed with a warning, failed. */
const markOf = (c: Check): string => (!c.ok ? "✗" : c.warning ? "!" : "✓");

async function database(config: Config): Promise<Check> {
  try {
    const db = openDatabase(config.database);
    try {
      await migrateIfBehind(db as unknown as Kysely<unknown>);
      return { name: checkName(config.locale, "database"), ok: true, detail: config.databasePath };
    } finally {
      await db.destroy();
    }
  } catch (err) {
    return {
      name: checkName(config.locale, "database"),
      ok: false,
      detail: describeStorageError(config.database, err, config.locale),
    };
  }
}

/**
 * Two lines: no project may hold the data directory or the running install (its agents could
 * rewrite them), and no two projects may overlap (one's agents could write the other's git hooks).
 */
async function layoutChecks(config: Config): Promise<Check[]> {
  const locale = config.locale;
  try {
    const problems = await installProblemsOf(config);
    const overlap = (p: LayoutProblem) => p.kind === "project_overlap";
    const line = (
      id: "layout" | "overlap",
      found: LayoutProblem[],
      ok: "cli.doctor.layout_ok" | "cli.doctor.overlap_ok",
    ): Check => ({
      name: checkName(locale, id),
      ok: found.length === 0,
      detail: found.length ? found.map((p) => describeProblem(locale, p)).join("; ") : t(locale, ok),
    });
    return [
      line(
        "layout",
        problems.filter((p) => !overlap(p)),
        "cli.doctor.layout_ok",
      ),
      line("overlap", problems.filter(overlap), "cli.doctor.overlap_ok"),
    ];
  } catch (err) {
    return [{ name: checkName(locale, "layout"), ok: false, detail: (err as Error).message }];
  }
}

/** Whether full-access agents get their own network namespace: a warning, never a failure. */
function networkCheck(config: Config): Check {
  const name = checkName(config.locale, "network");
  if (config.netns === "off")
    return { name, ok: true, warning: true, detail: t(config.locale, "cli.doctor.netns_off") };
  if (!findNetworkStack())
    return { name, ok: true, warning: true, detail: t(config.locale, "cli.doctor.netns_missing") };
  let settings: Record<string, unknown> = {};
  try {
    settings = readOperatorConfig(operatorCodexHome(config.codexHome));
  } catch {
    // a config.toml that does not parse is the codex config check's to report
  }
  const ports = [...mcpLoopbackPorts(settings), ...config.netnsPorts];
  return {
    name,
    ok: true,
    detail: t(config.locale, "cli.doctor.netns_ok", { ports: ports.length ? ports.join(", ") : "-" }),
  };
}

/** An egress proxy starts here and lets a listed host through, and only it. */
async function proxyCheck(config: Config): Promise<Check> {
  const name = checkName(config.locale, "proxy");
  try {
    await egressSelfTest(path.join(config.dataDir, "run"));
    return { name, ok: true, detail: t(config.locale, "cli.doctor.proxy_ok") };
  } catch (err) {
    return {
      name,
      ok: false,
      detail: t(config.locale, "cli.doctor.proxy_failed", { detail: (err as Error).message }),
    };
  }
}

async function codexCheck(config: Config): Promise<{ check: Check; bin: string | null }> {
  const bin = resolveCodexBinary(config.codexBin);
  if (!bin)
    return {
      bin,
      check: {
        name: checkName(config.locale, "codex"),
        ok: false,
        // The install's own directory: `npm ci` run elsewhere installs nothing codexpi finds.
        detail: t(config.locale, "cli.doctor.codex_missing", { install: packageRoot() }),
      },
    };
  // Allow-listed environment: not even `--version` gets a Slack token.
  const env = codexEnvironment(process.env, config.agentEnv, { CODEX_HOME: config.codexHome });
  const r = await execa(bin, ["--version"], { reject: false, timeout: 15_000, env, extendEnv: false });
  return {
    bin,
    check: {
      name: checkName(config.locale, "codex"),
      ok: r.exitCode === 0,
      detail: r.exitCode === 0 ? `${r.stdout.trim()} (${bin})` : r.stderr.trim(),
    },
  };
}

/**
 * Restricted projects need Codex's own sandbox (nested namespaces) to run anything: checked the
 * way agents run, inside the jail when it is on.
 */
async function sandboxCheck(config: Config, bin: string): Promise<Check> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-doctor-"));
  fs.mkdirSync(config.dataDir, { recursive: true });
  const state = fs.mkdtempSync(path.join(config.dataDir, ".doctor-codex-"));
  try {
    const support = codexSupportPath(bin);
    const argv = [bin, "sandbox", "--", "true"];
    const bwrap = config.jail === "bwrap" ? findBwrap() : null;
    // Inside the jail, through a gateway: the probe also proves that the gateway starts.
    let probe: ProbeJail | null = null;
    try {
      probe = bwrap
        ? await probeJailedCodex(config, {
            bwrap,
            bin,
            workspace: dir,
            stateDir: state,
            log: pino({ level: "silent" }),
          })
        : null;
    } catch (err) {
      return {
        name: checkName(config.locale, "sandbox"),
        ok: false,
        detail: t(config.locale, "cli.doctor.gateway_failed", { detail: (err as Error).message }),
      };
    }
    const command = probe
      ? probe.wrap(argv)
      : {
          file: bin,
          args: argv.slice(1),
          env: codexEnvironment(process.env, config.agentEnv, {
            CODEX_HOME: config.codexHome,
            PATH: support ? `${support}${path.delimiter}${process.env.PATH ?? ""}` : process.env.PATH,
          }),
        };
    const r = await execa(command.file, command.args, {
      reject: false,
      timeout: 15_000,
      cwd: dir,
      env: command.env,
      extendEnv: false,
    }).finally(() => probe?.end());
    const name = checkName(config.locale, "sandbox");
    if (r.exitCode === 0)
      return {
        name,
        ok: true,
        detail: t(config.locale, bwrap ? "cli.doctor.sandbox_ok_jailed" : "cli.doctor.sandbox_ok"),
      };
    return {
      name,
      ok: false,
      detail: t(config.locale, bwrap ? "cli.doctor.sandbox_failed_jailed" : "cli.doctor.sandbox_failed", {
        detail: (r.stderr || r.stdout).trim().split("\n").pop() ?? "",
      }),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(state, { recursive: true, force: true });
  }
}

async function gitCheck(locale: Locale): Promise<Check> {
  const r = await execa("git", ["--version"], { reject: false });
  return {
    name: checkName(locale, "git"),
    ok: r.exitCode === 0,
    detail: r.exitCode === 0 ? r.stdout.trim() : t(locale, "cli.doctor.git_missing"),
  };
}
