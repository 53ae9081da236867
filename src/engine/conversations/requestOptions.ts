import type { Kernel } from "../kernel.js";
import { EngineError } from "../errors.js";
import { repoGitOrNull } from "../isolation/index.js";
import type { Project } from "../schema.js";

// Issue 19, item 4 (DESIGN "Per-request options"): `key=value` words right after the project name
// choose the conversation's model, reasoning effort and lane base, the same in `/codex ask`,
// mentions and DMs (every front end's prompt reaches `ask`, which reads them here). Every option is
// checked before anything is written or queued: a refused one changes nothing.

/** The reasoning efforts a request may ask for. */
const EFFORTS = ["low", "medium", "high"] as const;
type Effort = (typeof EFFORTS)[number];

/** What one request chose; null (or absent): the default. */
export interface RequestOptions {
  model: string | null;
  effort: Effort | null;
  branch: string | null;
}

const KEYS = ["model", "effort", "branch"] as const;
type OptionKey = (typeof KEYS)[number];

/** Why a request's options were refused, with what is allowed (for the catalogue's sentence). */
export interface OptionRefusal {
  option: OptionKey;
  value: string;
  /** The allowed values, when there is a closed list (efforts). */
  allowed: readonly string[];
  why: "empty" | "repeated" | "not_allowed";
}

export type ParsedRequest =
  | { ok: true; options: RequestOptions; prompt: string }
  | { ok: false; refusal: OptionRefusal };

const NO_OPTIONS: RequestOptions = { model: null, effort: null, branch: null };
const OPTION_WORD = /^(model|effort|branch)=(\S*)$/;

const isEffort = (v: string): v is Effort => (EFFORTS as readonly string[]).includes(v);

/**
 * Reads the options at the start of a prompt (the words after the project name) and returns them
 * with the rest of the prompt, or the first refusal. Only `model=`, `effort=` and `branch=` are
 * options, and only before the first other word: any other `key=value` word (`a=b`, `x=1`) is the
 * prompt's own text, and so is everything after it, since a prompt may well say `a=b` or
 * `effort=high` in its middle. Pure: the project's allowed models and branches are `ask`'s checks.
 */
export function parseRequestOptions(text: string): ParsedRequest {
  const options: RequestOptions = { ...NO_OPTIONS };
  const seen = new Set<OptionKey>();
  let rest = text.trimStart();
  for (;;) {
    const word = /^\S+/.exec(rest)?.[0] ?? "";
    const m = OPTION_WORD.exec(word);
    if (!m) break;
    const option = m[1] as OptionKey;
    const value = m[2] ?? "";
    if (!value) return refuse(option, value, "empty");
    if (seen.has(option)) return refuse(option, value, "repeated");
    seen.add(option);
    if (option === "effort") {
      if (!isEffort(value)) return refuse(option, value, "not_allowed");
      options.effort = value;
    } else options[option] = value;
    rest = rest.slice(word.length).trimStart();
  }
  return { ok: true, options, prompt: rest.trim() };
}

function refuse(option: OptionKey, value: string, why: OptionRefusal["why"]): ParsedRequest {
  return { ok: false, refusal: { option, value, allowed: option === "effort" ? EFFORTS : [], why } };
}

/** The models an admin allows in a project (`allowed_models`, a JSON array); [] when none is. */
export function allowedModels(project: Pick<Project, "allowed_models">): string[] {
  if (!project.allowed_models) return [];
  try {
    const list: unknown = JSON.parse(project.allowed_models);
    return Array.isArray(list) ? list.filter((m): m is string => typeof m === "string") : [];
  } catch {
    return []; // an unreadable list allows nothing beyond the default, never everything
  }
}

/** A parse refusal as the person reads it: an EngineError naming the option and what is allowed. */
export function refusalError(r: OptionRefusal): EngineError {
  if (r.why === "empty") return new EngineError("invalid", "request_option_empty", { option: r.option });
  if (r.why === "repeated")
    return new EngineError("invalid", "request_option_repeated", { option: r.option });
  return new EngineError("invalid", "request_effort_invalid", {
    value: r.value,
    allowed: r.allowed.join(", "),
  });
}

/**
 * A git branch name as `branch=` takes it: letters, digits and `._/-`, no `..`, no leading `-`
 * or `/`, no `.lock` end. Stricter than git: `main~1` or `main@{1}` would name a commit, not a
 * branch, and the lane's base is a branch.
 */
const BRANCH_NAME = /^(?![-/.])(?!.*\.\.)(?!.*\/\/)(?!.*\.lock$)(?!.*[/.]$)[A-Za-z0-9._/-]{1,200}$/;

/**
 * Checks a request's options against its project, before anything is written: the model in the
 * admin's list, the branch an existing branch of the project's repository (read through the
 * jailed, read-only repoGit: an agent may have written the checkout), only in branch mode.
 */
export async function checkRequestOptions(
  engine: Pick<Kernel, "config">,
  project: Project,
  options: RequestOptions,
): Promise<void> {
  if (options.model !== null) {
    const allowed = allowedModels(project);
    if (!allowed.length)
      throw new EngineError("invalid", "request_model_none", { model: options.model, name: project.name });
    if (!allowed.includes(options.model))
      throw new EngineError("invalid", "request_model_not_allowed", {
        model: options.model,
        name: project.name,
        allowed: allowed.join(", "),
      });
  }
  if (options.branch !== null) await checkBranch(engine, project, options.branch);
}

async function checkBranch(engine: Pick<Kernel, "config">, project: Project, branch: string): Promise<void> {
  if (project.workspace_mode !== "branch")
    throw new EngineError("invalid", "request_branch_direct", { name: project.name });
  const exists =
    BRANCH_NAME.test(branch) &&
    (await repoGitOrNull({ jail: engine.config.jail, cwd: project.path }, [
      "rev-parse",
      "--verify",
      "-q",
      `refs/heads/${branch}^{commit}`,
    ])) !== null;
  if (exists) return;
  const branches = await repoGitOrNull({ jail: engine.config.jail, cwd: project.path }, [
    "for-each-ref",
    "--count=20",
    "--format=%(refname:short)",
    "refs/heads/",
  ]);
  throw new EngineError("invalid", "request_branch_missing", {
    branch,
    name: project.name,
    allowed: (branches ?? "").split("\n").filter(Boolean).join(", "),
  });
}
