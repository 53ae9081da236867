/** How a Codex turn should run. */
export interface CodexInvocation {
  cwd: string;
  fullAccess: boolean;
  threadId: string | null;
  config?: Record<string, string>;
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
  args.push("-");
  return args;
}
