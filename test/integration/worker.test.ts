import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { answerOf, enqueue, startConversation } from "../../src/engine/conversations/conversations.js";
import { processStartTime } from "../../src/engine/system/processes.js";
import { warmSpawner } from "../../src/engine/dispatch/warmSpawner.js";
import { silentLogger } from "../../src/logger.js";
import { functionCallOutputs, inputText } from "../support/fakeModel.js";
import { codexEngine, finished, outsideDir, until } from "../support/codexEngine.js";
import { processesWithEnv } from "../support/processes.js";

// Real `codexpi worker` processes running the real Codex binary against a fake model. The main
// paths run with both runners (CODEXPI_RUNNER); the others with the default (exec) only.
const withEachRunner = (name: string, body: (runner: "exec" | "app-server") => Promise<void>) => {
  for (const runner of ["exec", "app-server"] as const) it(`${name} (${runner} runner)`, () => body(runner));
};

describe("Codex workers (real binary, fake model)", () => {
  let env: Awaited<ReturnType<typeof codexEngine>>;
  afterEach(async () => env?.close());

  withEachRunner(
    "a new conversation gets the model's answer, with its Codex thread id and usage recorded",
    async (runner) => {
      env = await codexEngine({ env: { CODEXPI_RUNNER: runner } });
      env.fake.enqueue({ kind: "text", text: "Bonjour depuis le faux modèle" });
      const { conversation, item } = await startConversation(
        env.db,
        env.clock,
        env.project,
        "hello",
        "UOWNER",
      );
      await env.engine.dispatch();
      const done = await finished(env.db, item.id);
      expect(done).toMatchObject({ status: "done", error: null });
      expect((await answerOf(env.db, item.id))?.content).toBe("Bonjour depuis le faux modèle");
      const conv = await env.db
        .selectFrom("conversations")
        .selectAll()
        .where("id", "=", conversation.id)
        .executeTakeFirstOrThrow();
      expect(conv.codex_thread_id).toMatch(/\S+/);
      expect(conv.status).toBe("completed");
      expect(JSON.parse(done.usage ?? "null")).toMatchObject({ input_tokens: expect.any(Number) });
      expect(inputText(env.fake.requests[0]!)).toContain("hello");
      // The runner really is the one asked for: Codex names its client in every model request.
      const originator = env.fake.log.find((r) => r.path.endsWith("/responses"))?.headers.originator;
      expect(originator).toBe(runner === "app-server" ? "codexpi" : "codex_exec");
    },
  );

  withEachRunner(
    "a follow-up resumes the same Codex thread: the model sees the earlier turn",
    async (runner) => {
      env = await codexEngine({ env: { CODEXPI_RUNNER: runner } });
      env.fake.enqueue(
        { kind: "text", text: "première réponse 4417" },
        { kind: "text", text: "seconde réponse" },
      );
      const { conversation, item } = await startConversation(
        env.db,
        env.clock,
        env.project,
        "premier message",
        "UOWNER",
      );
      await env.engine.dispatch();
      await finished(env.db, item.id);
      const thread = (
        await env.db
          .selectFrom("conversations")
          .select("codex_thread_id")
          .where("id", "=", conversation.id)
          .executeTakeFirstOrThrow()
      ).codex_thread_id;
      const second = await enqueue(env.db, env.clock, conversation.id, "message suivant");
      await env.engine.dispatch();
      expect(await finished(env.db, second.id)).toMatchObject({ status: "done" });
      expect((await answerOf(env.db, second.id))?.content).toBe("seconde réponse");
      const followUp = inputText(env.fake.requests[1]!);
      expect(followUp).toContain("première réponse 4417");
      expect(followUp).toContain("message suivant");
      const after = await env.db
        .selectFrom("conversations")
        .select("codex_thread_id")
        .where("id", "=", conversation.id)
        .executeTakeFirstOrThrow();
      expect(after.codex_thread_id).toBe(thread);
    },
  );

  withEachRunner("a failed turn fails the item with Codex's message", async (runner) => {
    env = await codexEngine({ env: { CODEXPI_RUNNER: runner } });
    env.fake.enqueue({ kind: "fail", message: "quota dépassé pour ce projet" });
    const { item } = await startConversation(env.db, env.clock, env.project, "hello", "UOWNER");
    await env.engine.dispatch();
    const row = await finished(env.db, item.id);
    expect(row).toMatchObject({ status: "failed", error_code: "codex_failed" });
    expect(row.error).toContain("quota dépassé pour ce projet");
  });

  withEachRunner(
    "a worker killed mid-turn is reaped as interrupted and leaves no Codex process behind",
    async (runner) => {
      env = await codexEngine({ env: { CODEXPI_RUNNER: runner } });
      env.fake.enqueue({ kind: "hang" });
      const { item } = await startConversation(env.db, env.clock, env.project, "hello", "UOWNER");
      await env.engine.dispatch();
      const running = await until(
        async () => {
          const r = await env.db
            .selectFrom("prompt_queue")
            .selectAll()
            .where("id", "=", item.id)
            .executeTakeFirst();
          return r?.codex_pid && r.worker_pid ? r : undefined;
        },
        30_000,
        "codex to start",
      );
      await env.fake.waitForRequests(1, 30_000);
      expect(processStartTime(running.codex_pid!)).toBe(running.codex_start_time); // control: Codex is alive
      process.kill(running.worker_pid!, "SIGKILL");
      await until(async () => processStartTime(running.worker_pid!) === null, 10_000, "worker to die");
      const tick = await env.engine.tick();
      expect(tick).toMatchObject({ state: "processed", reaped: [item.id] });
      expect(await finished(env.db, item.id)).toMatchObject({ status: "failed", error_code: "interrupted" });
      await until(async () => processStartTime(running.codex_pid!) === null, 10_000, "codex to be gone");
      expect(
        fs.existsSync(`/proc/${running.codex_pid}`) ? processStartTime(running.codex_pid!) : null,
      ).toBeNull();
    },
  );

  withEachRunner(
    "a model that never answers is stopped by the watchdog, and Codex's group goes with it",
    async (runner) => {
      env = await codexEngine({ env: { CODEXPI_IDLE_TIMEOUT: "3", CODEXPI_RUNNER: runner } });
      env.fake.enqueue({ kind: "hang" });
      const { item } = await startConversation(env.db, env.clock, env.project, "hello", "UOWNER");
      await env.engine.dispatch();
      const row = await finished(env.db, item.id, 40_000);
      expect(row).toMatchObject({ status: "failed", error_code: "watchdog" });
      expect(row.codex_pid).toBeGreaterThan(0);
      expect(processStartTime(row.codex_pid!)).toBeNull();
    },
  );

  it("full access lifts only Codex's sandbox: it writes the jail's private /tmp, a restricted agent cannot; neither reaches the host outside its workspace", async () => {
    env = await codexEngine();
    const outside = outsideDir();
    const target = (name: string) => path.join(outside, name);
    const restricted = env.project;
    const full = await env.addProject({ name: "full", ownerId: "UOWNER", fullAccess: true });
    const outputs: string[] = [];
    for (const [project, file] of [
      [restricted, "restricted.txt"],
      [full, "full.txt"],
    ] as const) {
      const before = env.fake.requests.length;
      env.fake.enqueue(
        {
          kind: "shell",
          command: [
            "sh",
            "-c",
            `echo inner > /tmp/probe && echo TMP-WRITTEN; echo escaped > ${target(file)} && echo HOST-WRITTEN; true`,
          ],
        },
        { kind: "text", text: "fait" },
      );
      const { item } = await startConversation(env.db, env.clock, project, "écris le fichier", "UOWNER");
      await env.engine.dispatch();
      expect(await finished(env.db, item.id)).toMatchObject({ status: "done" });
      outputs.push(JSON.stringify(functionCallOutputs(env.fake.requests[before + 1] ?? {})));
    }
    // Positive control: full access did change something (Codex's own sandbox was lifted)…
    expect(outputs[0]).not.toContain("TMP-WRITTEN");
    expect(outputs[1]).toContain("TMP-WRITTEN");
    // …but the jail stays: the host directory outside the workspace is out of reach for both.
    expect(outputs.join()).not.toContain("HOST-WRITTEN");
    expect(fs.existsSync(target("restricted.txt"))).toBe(false);
    expect(fs.existsSync(target("full.txt"))).toBe(false);
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it("two prompts queued on one conversation never run at once, and both complete", async () => {
    env = await codexEngine();
    env.fake.enqueue(
      { kind: "shell", command: ["sleep", "1"] },
      { kind: "text", text: "un" },
      { kind: "text", text: "deux" },
    );
    const { conversation, item } = await startConversation(
      env.db,
      env.clock,
      env.project,
      "premier",
      "UOWNER",
    );
    const second = await enqueue(env.db, env.clock, conversation.id, "second");
    await Promise.all([env.engine.dispatch(), env.engine.dispatch()]);
    const a = await finished(env.db, item.id);
    const b = await finished(env.db, second.id); // started by the first worker's own dispatch
    expect([a.status, b.status]).toEqual(["done", "done"]);
    expect(b.started_at!).toBeGreaterThanOrEqual(a.finished_at!);
    // The finishing worker dispatched the follow-up and ran it itself, without a new process.
    expect(b.worker_pid).toBe(a.worker_pid);
    expect((await answerOf(env.db, second.id))?.content).toBe("deux");
  });

  it("the bot's standby worker takes a prompt at once and the next standby replaces it", async () => {
    env = await codexEngine({ warm: true });
    env.fake.enqueue({ kind: "text", text: "réponse du standby" }, { kind: "text", text: "et du suivant" });
    expect(await env.warm!.waitReady(30_000)).toBe(true); // the standby has loaded its modules
    const first = await startConversation(env.db, env.clock, env.project, "un", "UOWNER");
    // Clock ticks since boot (USER_HZ = 100), the unit of a process's start time in /proc.
    const ticksNow = () => Math.floor(Number(fs.readFileSync("/proc/uptime", "utf8").split(" ")[0]) * 100);
    const beforeDispatch = ticksNow();
    const [claim] = (await env.engine.dispatch()).started;
    const row = await finished(env.db, first.item.id);
    expect(row.status).toBe("done");
    // it ran in the process that was waiting, which then left the bot's IPC channel
    expect(row.worker_pid).toBeGreaterThan(0);
    expect(claim?.id).toBe(first.item.id);
    expect(await env.warm!.waitReady(30_000)).toBe(true);
    const second = await startConversation(env.db, env.clock, env.project, "deux", "UOWNER");
    await env.engine.dispatch();
    const row2 = await finished(env.db, second.item.id);
    expect(row2.status).toBe("done");
    expect(row2.worker_pid).not.toBe(row.worker_pid);
    expect((await answerOf(env.db, second.item.id))?.content).toBe("et du suivant");
    // The worker process existed before the item was even dispatched: it was the standby.
    expect(Number(row.worker_start_time)).toBeLessThan(beforeDispatch);
  });

  it("closing the bot's spawner waits until its standby has left, loaded or still loading", async () => {
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    env = await codexEngine({ warm: true });
    expect(await env.warm!.waitReady(30_000)).toBe(true);
    const ready = env.warm!.standbyPid();
    expect(ready).toBeGreaterThan(0);
    expect(alive(ready!)).toBe(true); // positive control: the standby is a live process
    // … found by its data directory, as the start-up test looks for what a failed serve left
    expect(processesWithEnv(`CODEXPI_DATA_DIR=${env.config.dataDir}`)).toContain(ready);
    await env.warm!.close();
    expect(alive(ready!)).toBe(false);
    expect(env.warm!.standbyPid()).toBeNull();
    // A failed start closes the spawner at once, before its standby has even loaded.
    const early = warmSpawner(env.config, silentLogger, env.baseEnv);
    const loading = early.standbyPid();
    expect(loading).toBeGreaterThan(0);
    expect(alive(loading!)).toBe(true);
    await early.close();
    expect(alive(loading!)).toBe(false);
  });

  withEachRunner(
    "stop interrupts a running agent: the item is cancelled and Codex with its command is gone",
    async (runner) => {
      env = await codexEngine({ env: { CODEXPI_RUNNER: runner } });
      const full = await env.addProject({ name: "full", ownerId: "UOWNER", fullAccess: true });
      const marker = `61.${process.pid}${Date.now() % 100_000}`; // a sleep duration no other process has
      // A full-access command runs in a session of its own: stopping must reach it too.
      env.fake.enqueue({ kind: "shell", command: ["sleep", marker] });
      const { conversation, item } = await startConversation(env.db, env.clock, full, "long", "UOWNER");
      await env.engine.dispatch();
      const running = await until(
        async () => {
          const r = await env.db
            .selectFrom("prompt_queue")
            .selectAll()
            .where("id", "=", item.id)
            .executeTakeFirst();
          return r?.codex_pid ? r : undefined;
        },
        30_000,
        "codex to start",
      );
      const findCommand = () =>
        fs
          .readdirSync("/proc")
          .filter((p) => /^\d+$/.test(p))
          .filter((p) => {
            try {
              return fs.readFileSync(`/proc/${p}/cmdline`, "utf8") === `sleep\0${marker}\0`;
            } catch {
              return false;
            }
          });
      await until(async () => findCommand().length > 0, 30_000, "the agent's command to run"); // control
      const { stopConversation } = await import("../../src/engine/conversations/stop.js");
      expect(await stopConversation(env.engine, conversation.id)).toEqual({
        cancelledQueued: 0,
        stoppingRunning: 1,
      });
      expect(await finished(env.db, item.id, 20_000)).toMatchObject({
        status: "cancelled",
        error_code: "cancelled",
      });
      expect(processStartTime(running.codex_pid!)).toBeNull();
      await until(async () => findCommand().length === 0, 10_000, "the agent's command to be gone");
    },
  );
});
