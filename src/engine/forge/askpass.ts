import fs from "node:fs";
import path from "node:path";
import type { RemoteTransport } from "./remoteUrl.js";

// How a push gets its token: git asks the program GIT_ASKPASS names, once for a user name and once
// for a password. codexpi's askpass is a small shell script it writes under the data directory
// (outside every repository, 0700; a jail shows it read-only). It answers exactly the two prompts
// git makes for the remote codexpi resolved before pushing — a URL rewritten by the repository's
// configuration towards another host gets nothing — and reads the token from a file that exists
// only inside the push's jail (bubblewrap reads it from a pipe: see isolation's GitRemoteAccess).
// Why a file rather than a variable: a variable is inherited by every process git starts (the
// remote helper, ssh, anything a prompt runs) and shows in /proc/<pid>/environ; the file lives in
// the jail's private /tmp, read-only, and is gone with it. The token is never in git's
// configuration, the remote URL, an argv or the environment.

const SCRIPT = `#!/bin/sh
# Written by codexpi (src/engine/forge/askpass.ts): answers git's prompts for one push, and only
# the prompts codexpi expects; the token comes from the file CODEXPI_ASKPASS_SECRET names.
case "$1" in
  "$CODEXPI_ASKPASS_USER_PROMPT") printf '%s\\n' "$CODEXPI_ASKPASS_USER" ;;
  "$CODEXPI_ASKPASS_PASSWORD_PROMPT") cat -- "$CODEXPI_ASKPASS_SECRET" ;;
  *) exit 1 ;;
esac
`;

/** The directory of the askpass program under a data directory. */
export function askPassDir(dataDir: string): string {
  return path.join(dataDir, "askpass");
}

/** Writes (or rewrites) the askpass program; answers its path. */
export function installAskPass(dataDir: string): string {
  const dir = askPassDir(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  const file = path.join(dir, "codexpi-askpass");
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, SCRIPT, { mode: 0o700 });
  fs.chmodSync(tmp, 0o700);
  fs.renameSync(tmp, file);
  return file;
}

/**
 * The variables the askpass program reads for a push over http(s): the exact prompts git makes
 * for this remote (`Username for 'https://host': `, `Password for 'https://user@host': `) and the
 * user name it answers. A URL naming its own user gets only the password prompt.
 */
export function askPassEnvironment(
  transport: Extract<RemoteTransport, { kind: "http" | "https" }>,
  username: string,
): Record<string, string> {
  const user = transport.user ?? username;
  const withUser = transport.origin.replace("://", `://${user}@`);
  return {
    CODEXPI_ASKPASS_USER_PROMPT: transport.user === null ? `Username for '${transport.origin}': ` : "",
    CODEXPI_ASKPASS_USER: user,
    CODEXPI_ASKPASS_PASSWORD_PROMPT: `Password for '${withUser}': `,
  };
}
