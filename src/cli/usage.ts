import { t, type Locale, type MessageKey } from "../i18n/index.js";

// Syntax lines are the commands' grammar, the same in every language; what they do comes from
// the catalogs. Placeholders are upper case, so catalog texts stay free of < and >.
const SYNTAX: Record<string, string[]> = {
  serve: ["serve [--headless]"],
  migrate: ["migrate"],
  doctor: ["doctor"],
  project: [
    "project add NAME PATH [--owner U…] [--full-access] [--merge-confirmation] [--channel C…] [--role project|master|self]",
    "project list",
    "project remove NAME",
    "project set NAME [--approvals never|on-request] [--steer on|off] [--workspace direct|branch] [--prompters-merge on|off] [--thread-prompters author|prompters] [--host HOST|none]",
    "project set NAME [--remote R] [--forge github|gitlab|none] [--forge-url URL|none] [--forge-repo OWNER/NAME|none]",
    "project set NAME [--forge-channel C…|none] [--forge-triggers comments,issues,ci|none] [--forge-webhook-secret -] [--forge-poll on|off]",
    "project set NAME --network off|allowlist|open",
    "project set NAME --memory-writers owners|prompters",
    "project allow-host|deny-host NAME HOST[:PORT]|PRESET…",
    "project move NAME --to HOST|none",
    "project credential NAME --forge-token - | --remove",
    'project set NAME --setup "COMMAND"|none',
    "project secret set NAME KEY (value on standard input) | unset NAME KEY | list NAME",
  ],
  ask: ["ask PROJECT PROMPT [--wait] [--stop-on-exit] [--conversation ID]"],
  answer: ["answer CONVERSATION"],
  stop: ["stop CONVERSATION"],
  decide: ['decide DECISION OPTION[,…] | --text "…"'],
  tick: ["tick"],
  worker: ["worker QUEUE-ID --attempt N"],
  host: ["host [--name NAME]"],
  credential: ["credential --forge-token - | --remove"],
  forge: [
    "forge set NAME [--channel C…|none] [--handle NAME] [--triggers comments,issues,ci|none] [--fix-ci on|off] [--fix-ci-tries N] [--forks on|off] [--webhook-secret - | --remove-webhook-secret]",
    "forge link github|gitlab:LOGIN USER",
    "forge unlink github|gitlab:LOGIN",
  ],
  usage: ["usage [PROJECT] [--days N] [--json]"],
  budget: [
    "budget set project|user NAME [--daily N|none] [--monthly N|none]",
    "budget list",
    "budget clear project|user NAME",
  ],
  schedule: [
    "schedule add PROJECT CRON PROMPT [--tz ZONE] [--channel C…] [--catch-up once|skip]",
    "schedule list [PROJECT]",
    "schedule pause|resume|remove ID",
  ],
  audit: ["audit [--json] [--project NAME] [--user ID] [--since 2026-12-01|7d]"],
  setup: ["setup PROJECT"],
  memory: [
    "memory list PROJECT [--channel ID]",
    "memory add [--channel ID] PROJECT TEXT…",
    "memory forget ID",
  ],
};

/**
 * Commands only codexpi itself runs (the dispatcher spawns `worker`): left out of the general
 * help, still described by `codexpi help worker`. `tick` stays listed: operators run it.
 */
const INTERNAL: readonly string[] = ["worker"];

/** The commands a person may type, for help and "did you mean". */
export const PUBLIC_COMMANDS: readonly string[] = Object.keys(SYNTAX).filter(
  (name) => !INTERNAL.includes(name),
);

// Whether a command is one `usage` knows.
const isCommand = (name: string | undefined): name is string =>
  name !== undefined && Object.hasOwn(SYNTAX, name);

/** Every command's syntax and purpose, or one command's when `command` names one. */
export function usage(locale: Locale, command?: string): string {
  const names = isCommand(command) ? [command] : PUBLIC_COMMANDS;
  const lines = [t(locale, "cli.usage.title")];
  for (const name of names) {
    for (const s of SYNTAX[name] ?? []) lines.push(`  codexpi ${s}`);
    lines.push(`      ${t(locale, `cli.about.${name}` as MessageKey)}`);
  }
  if (!isCommand(command)) lines.push("", t(locale, "cli.usage.help_hint"));
  return `${lines.join("\n")}\n`;
}

/** Whether the arguments ask for help (before any `--`, after which everything is a value). */
export function wantsHelp(argv: string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === "--help" || a === "-h");
}
