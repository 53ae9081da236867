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
    "no forge token for project {name}: an admin stores one on the host, never in Slack: `codexpi project credential {name} --forge-token -` (or `codexpi credential --forge-token -` for the whole install)",
  "reason.forge_not_configured":
    "project {name} has no forge: an admin sets it with `/codex project forge {name} --kind github|gitlab --repo OWNER/NAME` (or `codexpi project set {name} --forge github|gitlab --forge-repo OWNER/NAME`)",
  "reason.forge_remote_missing": "the remote {remote} does not exist in this repository",
  "reason.forge_remote_unsupported":
    "the remote {remote} uses a transport codexpi does not push to (only https, ssh or a local path)",
  "reason.forge_remote_insecure": "pushing with a token over plain http to {host} is refused: use https",
  "reason.forge_push_failed": "the push to {remote} failed: {detail}",
  "reason.forge_fetch_failed": "fetching the branch {branch} from {remote} failed: {detail}",
  "reason.forge_push_rejected":
    "the branch {branch} on {remote} has commits the lane does not have (not a fast-forward): nothing was pushed, and nothing is ever forced",
  "reason.forge_token_refused": "the forge refused the token",
  "reason.forge_forbidden": "the forge does not allow this with that token: {detail}",
  "reason.forge_repo_not_found": "repository {repo} not found on the forge, or the token has no access to it",
  "reason.forge_request_refused": "the forge refused the request: {detail}",
  "reason.forge_unreachable": "the forge does not answer: {detail}",

  "reason.forge_token_in_slack":
    "a forge token is never set from Slack, and nothing was changed. A token typed in a message is no longer secret: revoke it on the forge, then store a new one on the host with `codexpi project credential {name} --forge-token -` (read from standard input)",
  "command.project.forge.syntax":
    "/codex project forge <name> [--kind github|gitlab|none] [--repo OWNER/NAME|none] [--url API-URL|none] [--remote NAME]",
  "command.project.forge.help":
    "Shows a project's forge settings (remote, forge, repository, whether a token is stored) or changes them; the token is set on the host only.",
  "forge.view.title": "Forge settings of {name}",
  "forge.view.title_changed": "Forge settings of {name} changed",
  "forge.view.remote": "• Remote: {remote} → {url}",
  "forge.view.no_remote": "_none in the project's checkout_",
  "forge.view.kind": "• Forge: {value}",
  "forge.view.url": "• API: {value}",
  "forge.view.repo": "• Repository: {value}",
  "forge.view.set": "{value} (set)",
  "forge.view.derived": "{value} (from the remote's URL)",
  "forge.view.none": "_none_",
  "forge.view.token_project": "• Token: stored for this project",
  "forge.view.token_install": "• Token: the install's (none for this project)",
  "forge.view.token_none": "• Token: _none stored_",
  "forge.view.lanes": "• Lane cards offer Push branch: {push} · Open pull request: {pr}",
  "forge.view.yes": "yes",
  "forge.view.no": "no",
  "forge.view.change":
    "Change: `/codex project forge {name} --kind github|gitlab|none --repo OWNER/NAME|none --url API-URL|none --remote NAME` (admins).",
  "forge.view.token_cli":
    "The token is never given or shown in Slack: an admin stores it on the host with `codexpi project credential {name} --forge-token -` (read from standard input).",
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
