import { createEngineApi, Engine, migrateIfBehind, openDatabase } from "../engine/api/runtime.js";
import { CLI_ACTOR } from "../engine/api/model.js";
import fs from "node:fs";
import type { Kysely } from "kysely";
import type { Config } from "../config.js";
import { t } from "../i18n/index.js";
import { checkName, type Check } from "./slackChecks.js";

// doctor's look at projects' networks (issue 31, item 3): a project left `open` (every
// full-access project after the upgrade) gets the commands that give it a list instead, with the
// presets its repository's files call for. A warning: the install works as it did.

/** Files at a repository's top that say which registries its dependencies come from. */
const PRESET_FILES: ReadonlyArray<{ preset: string; files: RegExp }> = [
  {
    preset: "npm",
    files: /^(package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml)$/,
  },
  {
    preset: "pypi",
    files: /^(requirements.*\.txt|pyproject\.toml|setup\.py|setup\.cfg|Pipfile|poetry\.lock)$/,
  },
  { preset: "crates", files: /^Cargo\.(toml|lock)$/ },
  { preset: "golang", files: /^go\.(mod|sum)$/ },
  { preset: "rubygems", files: /^(Gemfile|Gemfile\.lock|.*\.gemspec)$/ },
  { preset: "maven", files: /^(pom\.xml|build\.gradle(\.kts)?|settings\.gradle(\.kts)?)$/ },
];

/** The presets a project's checkout calls for (none when it is not on this machine). */
function presetsFor(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return PRESET_FILES.filter(({ files }) => names.some((n) => files.test(n))).map((p) => p.preset);
}

/** A word a POSIX shell reads back as itself: quoted when it holds anything but plain characters. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9._/@%+=:,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

async function openProjects(config: Config): Promise<Array<{ name: string; path: string }>> {
  const db = openDatabase(config.database);
  try {
    await migrateIfBehind(db as unknown as Kysely<unknown>);
    const projects = await createEngineApi(new Engine({ config, db })).projects.list(CLI_ACTOR);
    return projects.filter((p) => p.network_mode === "open");
  } finally {
    await db.destroy();
  }
}

/** One sentence per open project, each with the commands that close it to a list, as printed runnable. */
export async function egressCheck(config: Config): Promise<Check> {
  const name = checkName(config.locale, "egress");
  try {
    const open = await openProjects(config);
    if (!open.length) return { name, ok: true, detail: t(config.locale, "cli.doctor.egress_ok") };
    const advice = open.map((p) => {
      const project = shellWord(p.name);
      const close = `codexpi project set ${project} --network allowlist`;
      const presets = presetsFor(p.path);
      return presets.length
        ? t(config.locale, "cli.doctor.egress_open", {
            name: p.name,
            allow: `codexpi project allow-host ${project} ${presets.join(" ")}`,
            close,
          })
        : t(config.locale, "cli.doctor.egress_open_unknown", { name: p.name, close });
    });
    return { name, ok: true, warning: true, detail: advice.join("; ") };
  } catch (err) {
    return { name, ok: false, detail: (err as Error).message };
  }
}
