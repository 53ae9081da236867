import type { forgeFront as fr } from "../fr/forgeFront.js";
import type { Message } from "../message.js";

/** English messages of the forge front end (issue 33): webhooks, links, replies on the forge. */
export const forgeFront = {
  "reason.forge_webhook_secret_invalid":
    "webhook secret refused: one line of 16 to 256 printable characters, no blank",
  "forge.reply.not_linked":
    "@{login}, your account is not linked to a Slack member of this team, so nothing ran. In Slack, run `/codex forge link {forge}` and post the code it gives you here as a comment (or ask an admin: `codexpi forge link {forge}:{login} U…`).",
  "forge.reply.fork": "@{login}, pull requests from forks do not run here, so nothing ran.",
  "forge.reply.no_channel":
    "This repository has no Slack channel for codexpi yet (`codexpi forge set PROJECT --channel C…`), so nothing ran.",
  "forge.reply.refused": "@{login}, nothing ran: {reason}",
  "forge.reply.linked": "@{login} is now linked to their Slack account.",
  "forge.reply.code_unknown":
    "@{login}, that link code is unknown, used or expired: ask Slack for a new one (`/codex forge link {forge}`).",
  "forge.reply.answer": "{answer}\n\n— [the conversation in Slack]({link})",
  "forge.reply.answer_no_link": "{answer}\n\n— the conversation continues in Slack",
  "forge.push.pushed": "Pushed to the pull request's branch `{branch}` (`{sha}`).",
  "forge.push.refused": "Not pushed to the pull request's branch: {reason}",
  "forge.issue.pr_opened": "Opened {url}, which closes #{number} once merged.",
  "forge.issue.pr_refused": "No pull request opened for this issue: {reason}",
  "forge.reply.failed": "The turn ended without an answer: {reason}",
  "forge.issue.prompt":
    "Work on the issue {ref} quoted above (the words of the people who wrote it): make the change it asks for in this repository, and say what you did.",
  "forge.root": "*{login}* on {link} {title}: {prompt}",
  "forge.link.code":
    "Post this comment on a pull request or issue of a repository linked to codexpi, from your {forge} account, within an hour: `{code}`",
  "command.forge.syntax": "/codex forge link github|gitlab",
  "command.forge.help":
    "link your GitHub or GitLab account to your Slack account: a one-time code to post on the forge",
  "reason.forge_not_running": "the forge front end does not run in this bot",
  "cli.doctor.name.forge": "forge webhooks",
  "cli.doctor.forge_missing": "project {project} lacks: {missing}",
  "cli.doctor.forge_socket_mode":
    "webhooks need HTTP mode (SLACK_APP_TOKEN is set: Socket Mode has no public URL)",
  "cli.doctor.forge_ok": "{n} project(s) receive forge webhooks: repository, webhook secret and token stored",
  "cli.about.forge":
    "From the forge: a project's Slack channel, handle and webhook secret (on standard input); forge accounts linked to Slack members",
  "cli.forge.linked": "{forge} account {login} linked to {user}",
  "cli.forge.unlinked": "{forge} account {login}: link removed",
  "cli.forge.not_linked": "{forge} account {login} was not linked",
  "cli.forge.settings":
    "project {name}: forge channel {channel}, handle @{handle}, triggers {triggers}, fix CI {fixCi} (at most {tries} tries per pull request)",
  "cli.forge.secret_stored": "webhook secret stored in {file}",
  "cli.forge.secret_removed": "webhook secret removed",
  "cli.forge.secret_absent": "no webhook secret was stored",
  "cli.forge.poll_on":
    "polling on: the forge is read every CODEXPI_FORGE_POLL_SECONDS (no webhook needed; only comments written since it was turned on)",
  "cli.forge.poll_off": "polling off (comments reach codexpi by webhook only)",
  "cli.error.forge":
    "usage: codexpi forge set NAME [--channel C…|none] [--handle NAME] [--triggers comments,issues,ci|none] [--fix-ci on|off] [--fix-ci-tries N] [--forks on|off] [--poll on|off] [--webhook-secret -|--remove-webhook-secret] | forge link github|gitlab:LOGIN USER | forge unlink github|gitlab:LOGIN",
} satisfies Record<keyof typeof fr, Message>;
