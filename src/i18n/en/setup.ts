import type { setup as fr } from "../fr/setup.js";
import type { Message } from "../message.js";

/** English messages of a project's setup (issue 31, item 4): its failures, its secrets, its commands. */
export const setup = {
  "setup.failed_exit":
    "The project’s setup failed (exit {code}); the agent did not start. Its last lines:\n```{tail}```",
  "setup.failed_timeout":
    "The project’s setup went over its time limit (CODEXPI_SETUP_TIMEOUT) and was stopped; the agent did not start. Its last lines:\n```{tail}```",
  "setup.failed_unusable": "The project’s setup could not be used: {tail}",
  "failure.setup_failed": "The project’s setup failed before the agent started.",
  "failure.next.setup_failed":
    "Try next: fix the setup (`.codexpi/setup` in the repository, or `project set NAME --setup`), then send the request again: it runs again.",
  "reason.setup_secret_key_invalid":
    "secret name refused “{key}”: upper-case letters, digits and _ (at most 64), neither one of codexpi’s variables nor PATH, HOME, LANG…",
  "reason.setup_secret_value_invalid": "value refused: empty, over 64 KiB, or a NUL byte",
  "reason.setup_command_invalid": "setup command refused: one non-empty line of at most 4,000 characters",
  "reason.setup_not_configured":
    "project {name} has no setup: neither a `.codexpi/setup` in its repository nor an admin’s `--setup`",
  "reason.setup_direct_only": "project {name} is in `branch` mode: each new lane runs its setup itself",
  "reason.orch_setup_failed":
    "the project’s setup failed in the orchestration’s clone; its last lines:\n```{detail}```",
  "cli.project.setup_set": "{name}: setup set ({source})",
  "cli.project.setup_cleared": "{name}: no admin setup any more (the repository’s `.codexpi/setup`, if any)",
  "cli.secret.stored": "{name}: secret {key} stored in {file}",
  "cli.secret.removed": "{name}: secret {key} removed",
  "cli.secret.absent": "{name}: no secret {key}",
  "cli.secret.none": "{name}: no setup secret",
  "cli.error.secret":
    "usage: codexpi project secret set NAME KEY (the value read from standard input) | unset NAME KEY | list NAME",
  "cli.about.setup":
    "Runs a `direct` project’s setup in its checkout (owner or admin) and prints the result; exit code 1 when it failed.",
  "cli.error.setup": "usage: codexpi setup NAME",
  "setup.started": "Setup of {name} started; its result follows here.",
  "setup.result.ok": "Setup of {name} succeeded in {seconds} s.",
  "setup.result.failed": "Setup of {name} failed ({why}). Its last lines:\n```{tail}```",
  "setup.result.none": "{name} has no setup.",
  "command.setup.syntax": "/codex setup <project>",
  "command.setup.help":
    "Runs a `direct`-mode project’s setup in its directory (owner or admin) and answers with the result.",
} satisfies Record<keyof typeof fr, Message>;
