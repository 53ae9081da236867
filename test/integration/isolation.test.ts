/**
 * Isolation, tried as an attacker would: real `codexpi worker` processes run the real Codex
 * binary (against a fake model on 127.0.0.1) inside the jail, and the "agent" runs whatever
 * command the fake model asks for. Each attack has a positive control showing the same command
 * does reach what it is allowed to, so that "nothing leaked" cannot pass by accident.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startConversation } from "../../src/engine/conversations/conversations.js";
import { projectCodexState } from "../../src/engine/isolation/codexJail.js";
import { codexEngine, finished, until } from "../support/codexEngine.js";
import { functionCallOutputs } from "../support/fakeModel.js";
import { jailAvailable } from "../support/jail.js";
import { tempDir } from "../support/engine.js";
import { removeTree } from "../support/removeTree.js";

const SLACK_TOKEN = `xoxb-${"7".repeat(12)}-${"8".repeat(13)}-isolationtesttoken`;
const SIGNING_SECRET = "c0ffee".repeat(6);
let env: Awaited<ReturnType<typeof codexEngine>> | undefined;
let jail = false;

beforeAll(async () => {
  jail = await jailAvailable();
});

afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** Runs one shell command as the agent of `project` and returns what the command printed. */
async function agentRuns(project: { id: string }, script: string): Promise<string> {
  const e = env!;
  const before = e.fake.requests.length;
  e.fake.enqueue({ kind: "shell", command: ["sh", "-c", script] }, { kind: "text", text: "fait" });
  const { item } = await startConversation(e.db, e.clock, project as never, "lis", "UOWNER");
  await e.engine.dispatch();
  expect(await finished(e.db, item.id)).toMatchObject({ status: "done" });
  return JSON.stringify(functionCallOutputs(e.fake.requests[before + 1] ?? {}));
}

describe("isolation between agents, projects and codexpi (real Codex in the jail)", () => {
  it("finding 5: a full-access agent cannot read another owner's project, codexpi's database or WAL, nor another project's Codex sessions; it reads its own workspace", async (ctx) => {
    if (!jail) ctx.skip();
    env = await codexEngine({ env: { SLACK_BOT_TOKEN: SLACK_TOKEN } });
    const mine = await env.addProject({ name: "mine", ownerId: "UOWNER", fullAccess: true });
    const theirs = await env.addProject({ name: "theirs", ownerId: "UOTHER" });
    fs.writeFileSync(path.join(mine.path, "own.txt"), "MY-OWN-FILE");
    fs.writeFileSync(path.join(theirs.path, "source.ts"), "THEIR-PRIVATE-SOURCE");
    // Their agent runs first, so that their project has a Codex session on disk and a title in the database.
    env.fake.enqueue({ kind: "text", text: "THEIR-PRIVATE-ANSWER" });
    const theirTurn = await startConversation(
      env.db,
      env.clock,
      theirs,
      "THEIR-PRIVATE-TITLE please",
      "UOTHER",
    );
    await env.engine.dispatch();
    expect(await finished(env.db, theirTurn.item.id)).toMatchObject({ status: "done" });
    const theirState = projectCodexState(env.config.dataDir, theirs.id);
    expect(fs.readdirSync(path.join(theirState, "sessions"), { recursive: true }).length).toBeGreaterThan(0);

    // The markers are split in the script so that only a real read could print them whole.
    const out = await agentRuns(
      mine,
      [
        `cat own.txt`,
        `cat ${theirs.path}/source.ts`,
        `cat ${env.config.databasePath} ${env.config.databasePath}-wal 2>/dev/null | grep -a -o 'THEIR-PRIVATE-''TITLE'`,
        `grep -r -a -o 'THEIR-PRIVATE-''ANSWER' ${theirState} /codex-home 2>/dev/null`,
        `ls ${env.config.dataDir} && echo DATA-DIR-VISIBLE`,
        `true`,
      ].join("; "),
    );
    expect(out).toContain("MY-OWN-FILE"); // positive control: the command ran and read its workspace
    expect(out).not.toContain("THEIR-PRIVATE-SOURCE");
    expect(out).not.toContain("THEIR-PRIVATE-TITLE");
    expect(out).not.toContain("THEIR-PRIVATE-ANSWER");
    expect(out).not.toContain("DATA-DIR-VISIBLE");
  });

  it("finding 6: no Slack secret in a worker's environment nor anywhere an unsandboxed agent can look (its env, /proc)", async (ctx) => {
    if (!jail) ctx.skip();
    env = await codexEngine({ env: { SLACK_BOT_TOKEN: SLACK_TOKEN, SLACK_SIGNING_SECRET: SIGNING_SECRET } });
    const full = await env.addProject({ name: "full", ownerId: "UOWNER", fullAccess: true });
    // The worker is started from an environment that holds the bot's secrets, as `serve` does.
    expect(env.baseEnv.SLACK_BOT_TOKEN).toBe(SLACK_TOKEN);
    const out = await agentRuns(
      full,
      `env; for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < $f; done 2>/dev/null; echo CODEX-HOME-IS-$CODEX_HOME`,
    );
    expect(out).toContain("PATH="); // positive control: the agent did print environments
    expect(out).toContain("CODEX-HOME-IS-");
    expect(out).not.toContain(SLACK_TOKEN);
    expect(out).not.toContain(SIGNING_SECRET);
    expect(out).not.toContain("SLACK_");
    expect(out).not.toContain(env.config.dataDir);
  });

  it("finding 6: the worker process itself, read from the host while its agent runs, holds its settings and no Slack secret", async (ctx) => {
    if (!jail) ctx.skip();
    env = await codexEngine({ env: { SLACK_BOT_TOKEN: SLACK_TOKEN, SLACK_SIGNING_SECRET: SIGNING_SECRET } });
    env.fake.enqueue({ kind: "shell", command: ["sleep", "3"] }, { kind: "text", text: "fait" });
    const { item } = await startConversation(env.db, env.clock, env.project, "attends", "UOWNER");
    await env.engine.dispatch();
    const environ = await until(
      async () => {
        const row = await env!.db
          .selectFrom("prompt_queue")
          .select(["worker_pid", "codex_pid"])
          .where("id", "=", item.id)
          .executeTakeFirst();
        return row?.codex_pid ? readEnviron(row.worker_pid) : undefined;
      },
      30_000,
      "the worker to start Codex",
    );
    expect(environ).toContain("CODEXPI_DATA_DIR="); // positive control: we did read the worker's environment
    expect(environ).not.toContain("SLACK_");
    expect(environ).not.toContain(SLACK_TOKEN);
    expect(environ).not.toContain(SIGNING_SECRET);
    expect(await finished(env.db, item.id)).toMatchObject({ status: "done" });
  });

  it("finding 5: an agent sees only its own processes, never the worker, the bot or other agents", async (ctx) => {
    if (!jail) ctx.skip();
    env = await codexEngine();
    const full = await env.addProject({ name: "full", ownerId: "UOWNER", fullAccess: true });
    const out = await agentRuns(
      full,
      `ls /proc | grep -c '^[0-9]' | sed 's/^/PROCS-/'; test -e /proc/${process.pid} && echo SAW-TEST-RUNNER; true`,
    );
    const count = Number(/PROCS-(\d+)/.exec(out)?.[1]);
    expect(count).toBeGreaterThan(0); // positive control: it can list its own
    expect(count).toBeLessThan(20);
    expect(out).not.toContain("SAW-TEST-RUNNER");
  });
});

describe("logs of a Codex turn", () => {
  it("finding 7: what Codex writes to its stderr log is redacted once the turn ends; the rest of the line stays", async (ctx) => {
    if (!jail) ctx.skip();
    const dir = tempDir("codexpi-stand-in-");
    const standIn = path.join(dir, "codex");
    fs.writeFileSync(
      standIn,
      `#!/bin/sh\necho "provider said: ${SLACK_TOKEN} and Bearer abcdefghijklmnop1234" >&2\necho '{"type":"thread.started","thread_id":"th-1"}'\necho '{"type":"turn.started"}'\necho '{"type":"item.completed","item":{"id":"i1","type":"agent_message","text":"fait"}}'\necho '{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":1}}'\n`,
      { mode: 0o755 },
    );
    env = await codexEngine({ env: { CODEX_BIN: standIn } });
    const { item } = await startConversation(env.db, env.clock, env.project, "go", "UOWNER");
    await env.engine.dispatch();
    expect(await finished(env.db, item.id)).toMatchObject({ status: "done" });
    const logFile = path.join(env.config.dataDir, "logs", `codex-${item.id}.log`);
    const text = fs.readFileSync(logFile, "utf8");
    expect(text).toContain("provider said:"); // positive control: the stand-in's stderr was logged
    expect(text).not.toContain(SLACK_TOKEN);
    expect(text).not.toContain("abcdefghijklmnop1234");
    await removeTree(dir);
  });
});

function readEnviron(pid: number | null): string | null {
  if (!pid) return null;
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, "utf8").replaceAll("\0", "\n");
  } catch {
    return null; // the worker already exited (it was a one-item worker)
  }
}
