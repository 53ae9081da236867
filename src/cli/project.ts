import { HOST_NAME, projectCodexState } from "../engine/api/runtime.js";
import {
  type ApprovalMode,
  allowedModels,
  CLI_ACTOR,
  type MemoryWriters,
  type ProjectRole,
  THREAD_PROMPTERS,
  type ThreadPrompters,
  WORKSPACE_MODES,
  type WorkspaceMode,
} from "../engine/api/model.js";
import fs from "node:fs";
import path from "node:path";
import { t, type Locale } from "../i18n/index.js";
import { args, cliEngine, cliLocale, out, UsageError } from "./context.js";
import { FORGE_OPTIONS, forgeChanges, projectCredential, setForgeOptions } from "./credential.js";
import {
  anyForgeFrontEnd,
  applyForgeFrontEnd,
  checkForgeFrontEnd,
  type ForgeFrontEndOptions,
  type OptionNames,
} from "./forgeSettings.js";
import { networkArgument, networkFlag, projectHosts, setNetworkOption } from "./projectNetwork.js";
import { projectSecret, setSetupOption } from "./setup.js";

const ROLES: ProjectRole[] = ["project", "master", "self"];
const APPROVAL_MODES: ApprovalMode[] = ["never", "on-request"];

/** `codexpi project add|list|set|remove|move|credential|allow-host|deny-host|secret`. */
export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "add") return add(rest);
  if (sub === "list") return list(rest);
  if (sub === "remove") return remove(rest);
  if (sub === "set") return set(rest);
  if (sub === "move") return move(rest);
  if (sub === "credential") return projectCredential(rest);
  if (sub === "allow-host" || sub === "deny-host") return projectHosts(rest, sub === "allow-host");
  if (sub === "secret") return projectSecret(rest);
  throw new UsageError(t(cliLocale(), "cli.error.project_command", { name: sub ?? "-" }));
}

async function add(argv: string[]): Promise<number> {
  const { values, positionals } = args(
    argv,
    {
      owner: { type: "string" },
      "full-access": { type: "boolean" },
      "merge-confirmation": { type: "boolean" },
      channel: { type: "string" },
      role: { type: "string" },
    },
    2,
  );
  const role = (values.role ?? "project") as ProjectRole;
  if (!ROLES.includes(role))
    throw new UsageError(t(cliLocale(), "cli.error.role", { roles: ROLES.join(", ") }));
  if (values.owner !== undefined && !/^[UW][A-Z0-9]+$/.test(values.owner))
    throw new UsageError(t(cliLocale(), "cli.error.owner"));
  if (values.channel !== undefined && !/^[CGD][A-Z0-9]+$/.test(values.channel))
    throw new UsageError(t(cliLocale(), "cli.error.channel"));
  const { config, db, api } = await cliEngine();
  try {
    const p = await api.projects.add(CLI_ACTOR, {
      name: positionals[0] as string,
      path: positionals[1] as string,
      ownerId: values.owner ?? null,
      fullAccess: values["full-access"] ?? false,
      mergeConfirmation: values["merge-confirmation"] ?? false,
      channelId: values.channel ?? null,
      role,
    });
    out(
      t(config.locale, p.full_access ? "cli.project.added_full_access" : "cli.project.added", {
        name: p.name,
        id: p.id,
        path: p.path,
      }),
    );
    return 0;
  } finally {
    await db.destroy();
  }
}

// Also how an operator fixes a layout `serve` refuses (e.g. a self project that was the install):
// remove it here, then add a separate checkout.
async function remove(argv: string[]): Promise<number> {
  const { positionals } = args(argv, {}, 1);
  const { db, api, config } = await cliEngine();
  try {
    const p = await api.projects.remove(CLI_ACTOR, positionals[0] as string);
    out(t(config.locale, "cli.project.removed", { name: p.name, path: p.path }));
    return 0;
  } finally {
    await db.destroy();
  }
}

const memoryParams = (p: { name: string; memory_writers: string }) => ({
  name: p.name,
  value: p.memory_writers,
});

/** `--memory-writers owners|prompters`: who keeps the project's notes besides its owner and admins. */
function memoryWritersArgument(value: string | undefined): MemoryWriters | undefined {
  if (value === undefined || value === "owners" || value === "prompters") return value;
  throw new UsageError(t(cliLocale(), "cli.error.memory_writers"));
}

/**
 * `project set NAME [--approvals never|on-request] [--steer on|off] [--workspace direct|branch]
 * [--prompters-merge on|off] [--models a,b|none] [--host HOST|none] [--path DIR] [--remote R] [--forge github|gitlab|none] [--forge-url URL|none]
 * [--forge-repo REPO|none] [--network off|allowlist|open] [--setup "COMMAND"|none]
 * [--thread-prompters author|prompters] [--forge-channel C…|none] [--forge-triggers comments,issues,ci|none]
 * [--forge-webhook-secret -] [--forge-poll on|off]`: the operator is an admin; a new path is refused where it overlaps
 * another project.
 */
async function set(argv: string[]): Promise<number> {
  const { values, positionals } = args(
    argv,
    {
      approvals: { type: "string" },
      steer: { type: "string" },
      workspace: { type: "string" },
      "prompters-merge": { type: "string" },
      "memory-writers": { type: "string" },
      models: { type: "string" },
      host: { type: "string" },
      path: { type: "string" },
      network: { type: "string" },
      setup: { type: "string" },
      "thread-prompters": { type: "string" },
      ...FORGE_OPTIONS,
      ...FORGE_FRONT_END_OPTIONS,
    },
    1,
  );
  const forgeFrontEnd = forgeFrontEndOf(values);
  const {
    mode,
    steer,
    dir,
    workspace,
    forge,
    promptersMerge,
    memoryWriters,
    network,
    threadPrompters,
    host,
    models,
  } = setArguments(values, anyForgeFrontEnd(forgeFrontEnd));
  const forgeFrontEndChanges = checkForgeFrontEnd(
    forgeFrontEnd,
    PROJECT_SET_NAMES,
    "--forge-webhook-secret",
    "--forge-poll",
  );
  const cli = await cliEngine();
  const { db, api, config } = cli;
  try {
    const name = positionals[0] as string;
    if ([mode, host, dir, promptersMerge, models, memoryWriters].some((v) => v !== undefined)) {
      const changes = {
        ...(memoryWriters !== undefined ? { memoryWriters } : {}),
        ...(models !== undefined ? { models } : {}),
        ...(mode !== undefined ? { approvalMode: mode } : {}),
        ...(promptersMerge !== undefined ? { promptersMerge: promptersMerge === "on" } : {}),
        ...(host !== undefined ? { host } : {}),
        ...(dir !== undefined ? { path: dir } : {}),
      };
      const p = await api.projects.update(CLI_ACTOR, name, changes);
      if (dir !== undefined) out(t(config.locale, "cli.project.path_set", { name: p.name, path: p.path }));
      if (mode !== undefined)
        out(t(config.locale, "cli.project.updated", { name: p.name, approvals: p.approval_mode }));
      if (host !== undefined)
        out(t(config.locale, "cli.project.host_set", { name: p.name, host: where(p.host) }));
      if (promptersMerge !== undefined)
        out(t(config.locale, "cli.project.prompters_merge", { name: p.name, value: promptersMerge }));
      if (models !== undefined) out(t(config.locale, "cli.project.models_set", modelsParams(p)));
      if (memoryWriters !== undefined) out(t(config.locale, "cli.project.memory_writers", memoryParams(p)));
    }
    if (steer !== undefined) {
      const p = await api.projects.setSteer(CLI_ACTOR, name, steer === "on");
      out(t(config.locale, "cli.project.steer", { name: p.name, steer }));
    }
    if (threadPrompters !== undefined)
      await setThreadPromptersOption(api, config.locale, name, threadPrompters);
    if (workspace !== undefined) {
      const p = await api.projects.setWorkspaceMode(CLI_ACTOR, name, workspace);
      out(t(config.locale, "cli.project.workspace", { name: p.name, mode: p.workspace_mode }));
    }
    if (forge !== null) await setForgeOptions(api, config.locale, name, forge);
    if (network !== undefined) await setNetworkOption(api, config.locale, name, network);
    if (values.setup !== undefined) await setSetupOption(api, config.locale, name, values.setup);
    if (anyForgeFrontEnd(forgeFrontEnd))
      await applyForgeFrontEnd(cli, name, forgeFrontEnd, forgeFrontEndChanges);
    return 0;
  } finally {
    await db.destroy();
  }
}

/** `project set`'s forge front-end options (issue 33, item 6): `forge set`'s, under the project's names. */
const FORGE_FRONT_END_OPTIONS = {
  "forge-channel": { type: "string" },
  "forge-triggers": { type: "string" },
  "forge-webhook-secret": { type: "string" },
  "forge-poll": { type: "string" },
} as const;

const PROJECT_SET_NAMES: OptionNames = {
  channel: "--forge-channel",
  handle: "--forge-handle",
  triggers: "--forge-triggers",
  fixCi: "--fix-ci",
  fixCiTries: "--fix-ci-tries",
  forks: "--forks",
};

function forgeFrontEndOf(values: Record<string, string | undefined>): ForgeFrontEndOptions {
  const word = (k: string) => values[k];
  return {
    settings: { channel: word("forge-channel"), triggers: word("forge-triggers") },
    secret: word("forge-webhook-secret"),
    poll: word("forge-poll"),
  };
}

/** The options of `project set`, read and checked before anything is opened. */
function setArguments(values: Record<string, string | undefined>, forgeFrontEnd: boolean) {
  const mode = values.approvals as ApprovalMode | undefined;
  const { steer, path: dir } = values;
  const workspace = values.workspace as WorkspaceMode | undefined;
  const forge = forgeChanges(values);
  const promptersMerge = values["prompters-merge"];
  if (promptersMerge !== undefined && promptersMerge !== "on" && promptersMerge !== "off")
    throw new UsageError(t(cliLocale(), "cli.error.prompters_merge"));
  const memoryWriters = memoryWritersArgument(values["memory-writers"]);
  const network = values.network === undefined ? undefined : networkArgument(values.network);
  const threadPrompters = threadPromptersArgument(values["thread-prompters"]);
  if (
    [
      mode,
      steer,
      workspace,
      values.host,
      dir,
      promptersMerge,
      memoryWriters,
      values.models,
      network,
      values.setup,
      threadPrompters,
    ].every((v) => v === undefined) &&
    forge === null &&
    !forgeFrontEnd
  )
    throw new UsageError(t(cliLocale(), "cli.error.project_set"));
  if (mode !== undefined && !APPROVAL_MODES.includes(mode))
    throw new UsageError(t(cliLocale(), "cli.error.approvals"));
  if (steer !== undefined && steer !== "on" && steer !== "off")
    throw new UsageError(t(cliLocale(), "cli.error.steer"));
  if (workspace !== undefined && !WORKSPACE_MODES.includes(workspace))
    throw new UsageError(t(cliLocale(), "cli.error.workspace"));
  const host = values.host === undefined ? undefined : hostArgument(values.host);
  const models = values.models === undefined ? undefined : modelsArgument(values.models);
  return {
    mode,
    steer,
    dir,
    workspace,
    forge,
    promptersMerge,
    memoryWriters,
    network,
    threadPrompters,
    host,
    models,
  };
}

/** Sets who carries the project's conversations on, and says so. */
async function setThreadPromptersOption(
  api: Awaited<ReturnType<typeof cliEngine>>["api"],
  locale: Locale,
  name: string,
  who: ThreadPrompters,
): Promise<void> {
  const p = await api.projects.setThreadPrompters(CLI_ACTOR, name, who);
  out(t(locale, "cli.project.thread_prompters", { name: p.name, value: p.thread_prompters }));
}

/** A `--thread-prompters` value: `author` or `prompters` (undefined when not given). */
function threadPromptersArgument(value: string | undefined): ThreadPrompters | undefined {
  if (value !== undefined && !THREAD_PROMPTERS.includes(value as ThreadPrompters))
    throw new UsageError(t(cliLocale(), "cli.error.thread_prompters"));
  return value as ThreadPrompters | undefined;
}

/** A `--models` value: `a,b` (the models a request may name with `model=`), or `none`. */
function modelsArgument(value: string): string[] | null {
  if (value.trim() === "none") return null;
  const models = value
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean);
  if (!models.length) throw new UsageError(t(cliLocale(), "cli.error.models"));
  return models;
}

/** A project's allowed models as the CLI says them: listed, or only the configured one. */
const modelsParams = (p: { name: string; allowed_models: string | null }) => ({
  name: p.name,
  models: allowedModels(p).join(", ") || t(cliLocale(), "cli.project.models_default"),
});

/** A `--host`/`--to` value: a host name, or `none` for the coordinator's own machine. */
function hostArgument(value: string): string | null {
  if (value === "none") return null;
  if (!HOST_NAME.test(value)) throw new UsageError(t(cliLocale(), "cli.error.host_name"));
  return value;
}

const where = (host: string | null) =>
  host === null ? t(cliLocale(), "cli.project.coordinator") : t(cliLocale(), "cli.project.on_host", { host });

/**
 * `project move NAME --to HOST|none`: places the project on another host and copies its Codex
 * session files there when both data dirs are on this filesystem (else says what to copy).
 */
async function move(argv: string[]): Promise<number> {
  const { values, positionals } = args(argv, { to: { type: "string" } }, 1);
  if (values.to === undefined) throw new UsageError(t(cliLocale(), "cli.error.host_name"));
  const to = hostArgument(values.to);
  const { db, api, config } = await cliEngine();
  try {
    const moved = await api.projects.move(CLI_ACTOR, positionals[0] as string, to);
    const source = await api.projects.hostDataDir(moved.from);
    const target = await api.projects.hostDataDir(moved.to);
    const names = { name: moved.project.name, from: where(moved.from), to: where(moved.to) };
    if (source && target && fs.existsSync(source) && fs.existsSync(target)) {
      const files = api.projects.copyCodexSessions(source, target, moved.project.id);
      out(t(config.locale, "cli.project.moved", { ...names, files }));
    } else {
      const sessions = (dir: string | null) =>
        dir ? path.join(projectCodexState(dir, moved.project.id), "sessions") : "?";
      out(
        t(config.locale, "cli.project.moved_copy_by_hand", {
          ...names,
          source: sessions(source),
          target: sessions(target),
        }),
      );
    }
    return 0;
  } finally {
    await db.destroy();
  }
}

async function list(argv: string[]): Promise<number> {
  args(argv, {}, 0);
  const { db, api, config } = await cliEngine();
  try {
    const projects = await api.projects.list(CLI_ACTOR);
    if (projects.length === 0) out(t(config.locale, "cli.project.none"));
    for (const p of projects) {
      const flags = [
        p.role !== "project" ? p.role : null,
        t(config.locale, p.full_access ? "cli.project.full_access" : "cli.project.restricted"),
        p.merge_confirmation_required ? t(config.locale, "cli.project.merge_confirmation") : null,
        p.approval_mode === "on-request" ? t(config.locale, "cli.project.approvals_on_request") : null,
        p.steer ? t(config.locale, "cli.project.steer_on") : null,
        p.thread_prompters === "author" ? t(config.locale, "cli.project.thread_author") : null,
        t(
          config.locale,
          p.workspace_mode === "branch" ? "cli.project.workspace_branch" : "cli.project.workspace_direct",
        ),
        p.owner_id
          ? t(config.locale, "cli.project.owner", { id: p.owner_id })
          : t(config.locale, "cli.project.shared"),
        p.channel_id ? t(config.locale, "cli.project.channel", { id: p.channel_id }) : null,
        p.host ? t(config.locale, "cli.project.on_host", { host: p.host }) : null,
        p.allowed_models ? t(config.locale, "cli.project.models", modelsParams(p)) : null,
        networkFlag(config.locale, p),
      ].filter(Boolean);
      out(`${p.name}\t${p.path}\t${flags.join(", ")}`);
    }
    return 0;
  } finally {
    await db.destroy();
  }
}
