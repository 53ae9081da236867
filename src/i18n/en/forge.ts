import type { forge as fr } from "../fr/forge.js";
import type { Message } from "../message.js";

/** English messages of forges: push, pull (merge) requests, forge settings and tokens. */
export const forge = {
  "reason.forge_kind_invalid": "unknown forge “{value}”: github or gitlab",
  "reason.forge_url_invalid":
    "invalid API address “{value}”: https://api.github.com, https://host/api/v3 (GitHub Enterprise) or https://host/api/v4 (GitLab)",
  "reason.forge_repo_invalid":
    "invalid repository “{value}”: owner/name (GitHub), group/subgroup/name or a numeric id (GitLab)",
  "reason.forge_remote_invalid": "invalid remote name “{value}” (letters, digits, . _ -)",
  "reason.forge_branch_invalid": "branch name refused: {branch}",
  "reason.forge_token_invalid": "token refused: one line of 8 to 4096 printable characters, no blank",
  "reason.forge_token_missing":
    "no forge token for project {name}: `codexpi project credential {name} --forge-token -` (or `codexpi credential --forge-token -` for the whole install)",
  "reason.forge_not_configured":
    "project {name} has no forge: `codexpi project set {name} --forge github|gitlab --forge-repo OWNER/NAME`",
  "reason.forge_remote_missing": "the remote {remote} does not exist in this repository",
  "reason.forge_remote_unsupported":
    "the remote {remote} uses a transport codexpi does not push to (only https, ssh or a local path)",
  "reason.forge_remote_insecure": "pushing with a token over plain http to {host} is refused: use https",
  "reason.forge_push_failed": "the push to {remote} failed: {detail}",
  "reason.forge_token_refused": "the forge refused the token",
  "reason.forge_forbidden": "the forge does not allow this with that token: {detail}",
  "reason.forge_repo_not_found": "repository {repo} not found on the forge, or the token has no access to it",
  "reason.forge_request_refused": "the forge refused the request: {detail}",
  "reason.forge_unreachable": "the forge does not answer: {detail}",

  "cli.project.forge": "project {name} changed: remote {remote}, forge {forge}, API {url}, repository {repo}",
  "cli.about.credential":
    "store (from standard input) or remove the install’s forge token, used for projects without their own",
  "cli.project.forge_none": "none",
  "cli.credential.stored": "forge token stored in {file} (readable by codexpi only)",
  "cli.credential.removed": "forge token removed: {file}",
  "cli.credential.absent": "no forge token to remove ({file})",
  "cli.error.credential":
    "usage: --forge-token - (the token read from standard input, never an argument) or --remove",
} satisfies Record<keyof typeof fr, Message>;
