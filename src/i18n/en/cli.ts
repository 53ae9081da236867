import type { Message } from "../message.js";

/** The command line's texts (usage, help, answers to `answer`, `stop` and an interrupted `ask`). */
export const cli = {
  "cli.usage.title": "usage: codexpi COMMAND [--help]",
  "cli.usage.help_hint": "codexpi COMMAND --help describes one command.",
  "cli.usage.unknown": "unknown command: {name}",
  "cli.about.serve": "run the bot, dispatcher and ticker",
  "cli.about.migrate": "upgrade the database schema",
  "cli.about.doctor": "check configuration, database, Codex, git, sandbox, Slack",
  "cli.about.project": "add, list or remove a project",
  "cli.about.ask":
    "ask a project's agent (a new conversation, or --conversation to continue one); --wait prints the answer, --stop-on-exit stops the agent on Ctrl-C",
  "cli.about.answer":
    "print a conversation's latest answer (exit 1 if it failed, 3 while it is still running)",
  "cli.about.stop": "stop a conversation: its running agent and its queued prompts",
  "cli.about.decide": "answer an agent's decision",
  "cli.about.tick": "run one tick now",
  "cli.about.worker": "(internal) run one queued prompt",
  "cli.error.arguments": "expected {n} argument(s), got {got}",
  "cli.error.invalid": "invalid arguments: {detail}",
  "cli.answer.running": "Conversation {id} is still running. Follow it with: codexpi answer {id}",
  "cli.answer.none": "Conversation {id} has no answer yet.",
  "cli.stop.done": "Conversation {id} stopped ({running} running, {queued} queued cancelled).",
  "cli.stop.nothing": "Conversation {id}: nothing left to stop.",
  "cli.ask.confirm_stop": "Stop the agent? [y/N] ",
  "cli.ask.left_running":
    "The agent keeps running. Its answer: codexpi answer {id} (to stop it: codexpi stop {id})",
  "cli.error.project_command": "unknown project command: {name} (add, list or remove)",
  "cli.error.role": "--role must be one of {roles}",
  "cli.error.owner": "--owner must be a Slack user id like U123ABC",
  "cli.error.channel": "--channel must be a Slack channel id like C123ABC",
  "cli.error.attempt": "--attempt must be a positive integer",
  "cli.error.decide_arguments": "expected a decision id and an option or --text, got {n} argument(s)",
  "cli.project.added": "project {name} added ({id}) at {path}",
  "cli.project.added_full_access": "project {name} added ({id}) at {path} [full access]",
  "cli.project.removed": "project {name} removed ({path} itself is left as it is)",
  "cli.project.none": "no projects yet: codexpi project add NAME PATH",
  "cli.ask.paused": "queued: new work is paused ({reasons})",
  "cli.ask.still_waiting": "still waiting",
  "cli.migrate.applied": "applied: {names}",
  "cli.migrate.up_to_date": "database is up to date",
} satisfies Record<string, Message>;
