import type { forgeSetup as fr } from "../fr/forgeSetup.js";
import type { Message } from "../message.js";

/** English messages of a forge's set-up (issue 33): its settings, `doctor`'s questions to the forge, forks. */
export const forgeSetup = {
  "cli.error.forge_setting": "{option} takes {syntax}, not “{value}”",
  "cli.error.forge_secret_stdin":
    "{option} takes only - (the secret on standard input): an argument shows in ps and in the shell history",
  "project.forge_secret_in_slack":
    "A webhook secret is never set from Slack, and nothing was changed. The one typed in this message is no longer secret: make a new one, store it on the bot's machine with `codexpi project set {name} --forge-webhook-secret -` (read from standard input), and give it to the forge's webhook.",
  "project.forge_setting_invalid": "Nothing was changed: {option} takes {syntax}, not “{value}”.",
  "project.forge_front_end": "Project *{name}* from the forge: channel {channel}, triggers {triggers}.",
  "reason.lane_from_fork":
    "this work started from a fork's pull request ({branch}): codexpi never pushes it, nor opens it as a pull request (someone can bring its commits in by hand)",
  "forge.push.fork":
    "Not pushed: this pull request comes from a fork, and codexpi never pushes a fork's work, to the fork or anywhere else. The commits stay in codexpi's lane (see the Slack thread).",
  "cli.forge.forks": "project {name}: pull requests from forks {forks}",
  "cli.doctor.name.forge_project": "forge of {project}",
  "cli.doctor.forge_token_scopes": "token scopes: {scopes}",
  "cli.doctor.forge_token_lacks_github":
    "the token lacks the {needed} scope (pushes, pull requests, issues, reading checks; it has: {scopes}): make a classic token with repo, then `codexpi project credential {name} --forge-token -` (the token on standard input)",
  "cli.doctor.forge_token_lacks_gitlab":
    "the token lacks the {needed} scope (merge requests, notes, pipelines, pushes; it has: {scopes}): make a token with api, then `codexpi project credential {name} --forge-token -` (the token on standard input)",
  "cli.doctor.forge_token_fine_grained":
    "a fine-grained token: GitHub does not tell its permissions, so they cannot be read; on {repo} it needs Contents, Pull requests and Issues read and write, Checks and Actions read",
  "cli.doctor.forge_token_refused":
    "the forge refuses the token (401): store a valid one with `codexpi project credential {name} --forge-token -` (the token on standard input)",
  "cli.doctor.forge_unreachable":
    "the forge does not answer as expected (status {status}): check --forge-url",
  "cli.doctor.forge_webhook_none":
    "no webhook of {repo} calls …{path}: add one (docs/forges.md, “The webhook on the forge”)",
  "cli.doctor.forge_webhook_unreadable_github":
    "the token may not read {repo}'s webhooks ({status}), so their last delivery is unknown (a classic token needs admin:repo_hook or read:repo_hook, a fine-grained one Webhooks read)",
  "cli.doctor.forge_webhook_unreadable_gitlab":
    "the token may not read {repo}'s webhooks ({status}), so their state is unknown (it needs the Maintainer role)",
  "cli.doctor.forge_webhook_unknown": "the forge did not tell its webhooks (status {status})",
  "cli.doctor.forge_webhook_enabled": "webhook {url} enabled",
  "cli.doctor.forge_webhook_disabled":
    "webhook {url}: {status} until {until} (GitLab stopped calling it after failures): fix the cause, then enable it again (project → Settings → Webhooks → Test)",
  "cli.doctor.forge_webhook_no_delivery": "webhook {url}: no delivery yet",
  "cli.doctor.forge_webhook_delivered": "webhook {url}: last delivery {status} at {at}",
  "cli.doctor.forge_webhook_401":
    "webhook {url}: last delivery refused (401) at {at}: the secrets differ; set the same on both sides: `codexpi forge set {name} --webhook-secret -` (the secret on standard input) and the webhook's Secret on GitHub",
  "cli.doctor.forge_webhook_failed":
    "webhook {url}: last delivery failed ({status}) at {at}: see its Recent Deliveries on GitHub; does the bot run in HTTP mode, reachable at that address?",
  "cli.doctor.forge_journal_last": "last delivery codexpi journaled: {event} at {at} ({outcome})",
  "cli.doctor.forge_journal_none": "codexpi has journaled no delivery for this project yet",
} satisfies Record<keyof typeof fr, Message>;
