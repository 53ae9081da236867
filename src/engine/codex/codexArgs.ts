/** How a Codex turn should run. */
export interface CodexInvocation {
  cwd: string;
  fullAccess: boolean;
  threadId: string | null;
  config?: Record<string, string>;
  /** The conversation's `model=` (null: Codex's configured model). */
  model?: string | null;
  /** The conversation's `effort=` (low, medium, high; null: Codex's configured effort). */
  effort?: string | null;
  /** Images given to the model with the prompt (absolute paths inside the workspace). */
  images?: readonly string[];
}

/** A TOML basic string (for a `-c key=value` override): quotes and backslashes escaped. */
const tomlQuoted = (s: string): string => JSON.stringify(s);

/**
 * The `-m` and `-c model_reasoning_effort=` of a turn: per-request options, every turn of the
 * conversation (a resumed thread does not keep a model). Both values were checked when asked
 * (allowed models, the three efforts); they are still argv words, never a shell's.
 */
function modelArgs(inv: Pick<CodexInvocation, "model" | "effort">): string[] {
  const args: string[] = [];
  if (inv.model) args.push("-m", inv.model);
  if (inv.effort) args.push("-c", `model_reasoning_effort=${tomlQuoted(inv.effort)}`);
  return args;
}

/**
 * The argv of one `codex exec` turn, prompt on stdin. Sandbox flags and `-C` go before
 * `resume`; never `--last` (another conversation's thread) nor `--ephemeral` (nothing to resume).
 */
export function codexExecArgs(inv: CodexInvocation): string[] {
  const args = ["exec", "--json", "--skip-git-repo-check", "-C", inv.cwd];
  args.push(
    ...(inv.fullAccess ? ["--dangerously-bypass-approvals-and-sandbox"] : ["--sandbox", "workspace-write"]),
  );
  for (const [k, v] of Object.entries(inv.config ?? {})) args.push("-c", `${k}=${v}`);
  if (inv.threadId) args.push("resume", inv.threadId);
  // After `resume <id>`: its own `-m`/`-c` (the pinned binary's `exec resume --help`), so that a
  // resumed turn surely takes them; a new one takes them there as well.
  // `--image=<file>`, one per image: the `=` form takes exactly one value, so the prompt's `-`
  // is never read as another image (`--image` takes several values).
  args.push(...modelArgs(inv), ...(inv.images ?? []).map((file) => `--image=${file}`), "-");
  return args;
}
