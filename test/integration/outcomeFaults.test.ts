import fs from "node:fs";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { Health } from "../../src/bot/health.js";
import type { Config } from "../../src/config.js";
import { writeTransaction, openDatabase } from "../../src/engine/database.js";
import { Engine } from "../../src/engine/engine.js";
import type { WorkerSpawner } from "../../src/engine/dispatch/dispatcher.js";
import { fixedHostLoad } from "../../src/engine/system/hostLoad.js";
import { keptOutcomeFile } from "../../src/engine/conversations/keptOutcome.js";
import { finishItem } from "../../src/engine/conversations/outcome.js";
import { processStartTime } from "../../src/engine/system/processes.js";
import { runWorker, type OutcomeWriter } from "../../src/engine/worker/worker.js";
import { FAKE_KEY_ENV, FAKE_KEY_VALUE } from "../support/codexHome.js";
import { eventually, slackBot } from "../support/slackBot.js";

const enospc = () => Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });

/**
 * Workers that run in the test process (the real Codex binary, the real outcome write behind a
 * switchable full disk), so that the seam can be injected. They record the test process as their pid.
 */
function seamedWorkers(disk: { full: boolean; gone: boolean }) {
  const done: Promise<unknown>[] = [];
  const make =
    (config: Config): WorkerSpawner =>
    async (queueId, attempt) => {
      const db = openDatabase(config.databasePath);
      const engine = new Engine({ config, db, host: fixedHostLoad(), spawner: make(config) });
      const real: OutcomeWriter = (item, outcome) =>
        writeTransaction(db, (trx) => finishItem(trx, engine.clock, engine.hook, item, outcome));
      const writeOutcome: OutcomeWriter = async (item, outcome) => {
        if (disk.gone) return false; // the worker "died": it stops trying
        if (disk.full) throw enospc();
        return real(item, outcome);
      };
      done.push(
        runWorker(engine, queueId, attempt, { writeOutcome, retry: { baseMs: 50, maxMs: 200 } }).finally(() =>
          db.destroy(),
        ),
      );
      return { pid: process.pid };
    };
  return { make, settle: () => Promise.allSettled(done) };
}

describe("outcome writes on a full disk (real Codex, fake model and Slack)", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  let workers: ReturnType<typeof seamedWorkers>;
  const disk = { full: false, gone: false };
  afterEach(async () => {
    disk.gone = true;
    await workers?.settle();
    await bot?.close();
    delete process.env[FAKE_KEY_ENV];
  });

  async function start() {
    process.env[FAKE_KEY_ENV] = FAKE_KEY_VALUE; // in-process workers hand Codex the fake model's key
    Object.assign(disk, { full: true, gone: false });
    workers = seamedWorkers(disk);
    bot = await slackBot({ spawner: workers.make });
  }

  const answers = (text: string) => bot.slack.messages("C1").filter((m) => m.text.includes(text));

  it("full disk: the answer is kept beside the worker log, health fails, and the answer is posted once space returns (once)", async () => {
    await start();
    bot.model.enqueue({ kind: "text", text: "answer kept 4242" });
    expect((await bot.command("ask demo hello")).status).toBe(200);
    const item = await eventually(
      () => bot.db.selectFrom("prompt_queue").selectAll().executeTakeFirst(),
      10_000,
      "the queue item",
    );
    const file = keptOutcomeFile(bot.config, item.id);
    await eventually(() => fs.existsSync(file), 45_000, "the kept outcome");
    expect(fs.readFileSync(file, "utf8")).toContain("answer kept 4242");
    const health = new Health(bot.bot.engine, [], 30_000, {
      write: (f, data) => {
        if (disk.full) throw enospc();
        fs.writeFileSync(f, data);
      },
    });
    const failing = await health.report();
    expect(failing.ok).toBe(false);
    expect(failing.failing).toContain("disk");
    // Several write attempts later, still running and still not told anything false.
    await new Promise((r) => setTimeout(r, 600));
    const meanwhile = await bot.db
      .selectFrom("prompt_queue")
      .select("status")
      .where("id", "=", item.id)
      .executeTakeFirstOrThrow();
    expect(meanwhile.status).toBe("running");
    await bot.bot.engine.tick(); // the reaper sees a live worker: nothing is called interrupted
    expect(answers("answer kept 4242")).toHaveLength(0);

    disk.full = false;
    await eventually(() => answers("answer kept 4242")[0], 20_000, "the answer posted");
    expect((await health.report()).failing).not.toContain("disk");
    const row = await bot.db
      .selectFrom("prompt_queue")
      .select(["status", "error_code"])
      .where("id", "=", item.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "done", error_code: null });
    expect(fs.existsSync(file)).toBe(false);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(answers("answer kept 4242")).toHaveLength(1);
  });

  it("a worker that dies before writing (and before keeping) its answer: the reaper recovers it from Codex's session record", async () => {
    await start();
    bot.model.enqueue({ kind: "text", text: "answer from the session record 7310" });
    expect((await bot.command("ask demo hello")).status).toBe(200);
    const item = await eventually(
      () => bot.db.selectFrom("prompt_queue").selectAll().executeTakeFirst(),
      10_000,
      "the queue item",
    );
    const file = keptOutcomeFile(bot.config, item.id);
    await eventually(() => fs.existsSync(file), 45_000, "the worker to end its turn");
    // The worker dies: it stops trying, its kept file is lost, and its pid names a dead process.
    disk.gone = true;
    fs.rmSync(file);
    const child = spawn("sleep", ["30"]);
    const dead = { pid: child.pid as number, start: processStartTime(child.pid as number) };
    child.kill("SIGKILL");
    await once(child, "exit");
    await bot.db
      .updateTable("prompt_queue")
      .set({ worker_pid: dead.pid, worker_start_time: dead.start })
      .where("id", "=", item.id)
      .execute();
    await eventually(() => answers("answer from the session record 7310")[0], 20_000, "the recovered answer");
    const row = await bot.db
      .selectFrom("prompt_queue")
      .select(["status", "error_code"])
      .where("id", "=", item.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "done", error_code: null });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(answers("answer from the session record 7310")).toHaveLength(1);
  });
});
