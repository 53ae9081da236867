import { CLI_ACTOR } from "../engine/api/model.js";
import { t } from "../i18n/index.js";
import { ForgeLinks } from "../forge/store/links.js";
import { ForgePolling } from "../forge/store/polling.js";
import { DEFAULT_HANDLE, ForgeThreads } from "../forge/store/threads.js";
import { args, cliEngine, cliLocale, out, UsageError } from "./context.js";

// The forge front end's settings from the command line (issue 33): a project's channel, handle,
// triggers, CI fixes (`--fix-ci`, item 5) and webhook secret (read from standard input only, like
// the forge token), and the links between forge accounts and Slack members that an admin makes.
// The operator is an admin.

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

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
  "webhook-secret": { type: "string" },
  "remove-webhook-secret": { type: "boolean" },
  poll: { type: "string" },
} as const;

async function set(argv: string[]): Promise<number> {
  const { values, positionals } = args(argv, SET_OPTIONS, 1);
  const channel = values.channel;
  if (channel !== undefined && channel !== "none" && !/^[CG][A-Z0-9]{2,20}$/.test(channel))
    throw usageError();
  if (values.handle !== undefined && !/^[A-Za-z0-9][A-Za-z0-9_-]{0,38}$/.test(values.handle))
    throw usageError();
  const triggers = values.triggers === "none" ? "" : values.triggers;
  if (triggers !== undefined && !/^((comments|issues|ci)(,(comments|issues|ci))*)?$/.test(triggers))
    throw usageError();
  const fixCi = values["fix-ci"];
  if (fixCi !== undefined && fixCi !== "on" && fixCi !== "off") throw usageError();
  const tries = values["fix-ci-tries"];
  if (tries !== undefined && !/^([1-9]|1[0-9]|20)$/.test(tries)) throw usageError();
  const poll = values.poll;
  if (poll !== undefined && poll !== "on" && poll !== "off") throw usageError();
  const secretArg = values["webhook-secret"];
  if (secretArg !== undefined && secretArg !== "-") throw usageError();
  const secret = secretArg === "-" ? await readStdin() : null;
  const { db, api, config, engine } = await cliEngine();
  try {
    const name = positionals[0] as string;
    const project = await api.projects.forActor(CLI_ACTOR, name);
    if (secret !== null)
      out(
        t(config.locale, "cli.forge.secret_stored", {
          file: await api.forge.setWebhookSecret(CLI_ACTOR, name, secret),
        }),
      );
    if (values["remove-webhook-secret"])
      out(
        t(
          config.locale,
          (await api.forge.removeWebhookSecret(CLI_ACTOR, name))
            ? "cli.forge.secret_removed"
            : "cli.forge.secret_absent",
        ),
      );
    const changes = {
      ...(channel !== undefined ? { channel_id: channel === "none" ? null : channel } : {}),
      ...(values.handle !== undefined ? { handle: values.handle } : {}),
      ...(triggers !== undefined ? { triggers } : {}),
      ...(fixCi !== undefined ? { fix_ci: fixCi as "on" | "off" } : {}),
      ...(tries !== undefined ? { fix_ci_tries: Number(tries) } : {}),
    };
    const now = await new ForgeThreads(db).setSettings(project.id, changes, engine.clock.now());
    out(
      t(config.locale, "cli.forge.settings", {
        name: project.name,
        channel: now.channel_id ?? "-",
        handle: now.handle ?? DEFAULT_HANDLE,
        triggers: now.triggers || "-",
        fixCi: now.fix_ci,
        tries: now.fix_ci_tries,
      }),
    );
    // Polling (no public URL): turned on, it reads from now on, never what came before.
    const polling = new ForgePolling(db);
    const polled =
      poll === undefined
        ? await polling.pollOf(project.id)
        : await polling.setPoll(project.id, poll === "on", engine.clock.now());
    out(t(config.locale, polled.poll === "on" ? "cli.forge.poll_on" : "cli.forge.poll_off"));
    return 0;
  } finally {
    await db.destroy();
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
