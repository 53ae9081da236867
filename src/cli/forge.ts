import { CLI_ACTOR } from "../engine/api/model.js";
import { t } from "../i18n/index.js";
import { ForgeLinks } from "../forge/store/links.js";
import { args, cliEngine, cliLocale, out, UsageError } from "./context.js";
import {
  applyForgeFrontEnd,
  checkForgeFrontEnd,
  type ForgeFrontEndOptions,
  type OptionNames,
} from "./forgeSettings.js";

// The forge front end's settings from the command line (issue 33): a project's channel, handle,
// triggers, CI fixes (`--fix-ci`, item 5) and webhook secret (read from standard input only, like
// the forge token), and the links between forge accounts and Slack members that an admin makes.
// The operator is an admin.

const usageError = () => new UsageError(t(cliLocale(), "cli.error.forge"));

/** `github:octocat` → the forge and the login. */
function account(value: string | undefined) {
  const m = /^(github|gitlab):([A-Za-z0-9][A-Za-z0-9_.-]{0,99})$/.exec(value ?? "");
  if (!m) throw usageError();
  return { forge: m[1] as "github" | "gitlab", login: m[2] as string };
}

const SET_OPTIONS = {
  channel: { type: "string" },
  handle: { type: "string" },
  triggers: { type: "string" },
  "fix-ci": { type: "string" },
  "fix-ci-tries": { type: "string" },
  forks: { type: "string" },
  "webhook-secret": { type: "string" },
  "remove-webhook-secret": { type: "boolean" },
  poll: { type: "string" },
} as const;

/** How `forge set` names each setting (for the error that names the option). */
const SET_NAMES: OptionNames = {
  channel: "--channel",
  handle: "--handle",
  triggers: "--triggers",
  fixCi: "--fix-ci",
  fixCiTries: "--fix-ci-tries",
  forks: "--forks",
};

async function set(argv: string[]): Promise<number> {
  const { values, positionals } = args(argv, SET_OPTIONS, 1);
  const options: ForgeFrontEndOptions = {
    settings: {
      channel: values.channel,
      handle: values.handle,
      triggers: values.triggers,
      fixCi: values["fix-ci"],
      fixCiTries: values["fix-ci-tries"],
      forks: values.forks,
    },
    secret: values["webhook-secret"],
    removeSecret: values["remove-webhook-secret"],
    poll: values.poll,
  };
  const changes = checkForgeFrontEnd(options, SET_NAMES, "--webhook-secret", "--poll");
  const cli = await cliEngine();
  try {
    await applyForgeFrontEnd(cli, positionals[0] as string, options, changes);
    return 0;
  } finally {
    await cli.db.destroy();
  }
}

async function link(argv: string[], remove: boolean): Promise<number> {
  const { positionals } = args(argv, {}, remove ? 1 : 2);
  const who = account(positionals[0]);
  const user = positionals[1];
  if (!remove && !/^[UW][A-Z0-9]{2,20}$/.test(user ?? "")) throw usageError();
  const { db, config, engine } = await cliEngine();
  try {
    const links = new ForgeLinks(db);
    if (remove) {
      const removed = await links.unlink(who.forge, who.login);
      out(t(config.locale, removed ? "cli.forge.unlinked" : "cli.forge.not_linked", who));
    } else {
      await links.link(
        { ...who, account_id: null, user_id: user as string },
        CLI_ACTOR.userId,
        engine.clock.now(),
      );
      out(t(config.locale, "cli.forge.linked", { ...who, user: user as string }));
    }
    return 0;
  } finally {
    await db.destroy();
  }
}

/** `codexpi forge set NAME … | link FORGE:LOGIN USER | unlink FORGE:LOGIN`. */
export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "set") return set(rest);
  if (sub === "link") return link(rest, false);
  if (sub === "unlink") return link(rest, true);
  throw usageError();
}
