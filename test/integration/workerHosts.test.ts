import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { updateGlobalPolicy } from "../../src/engine/projects/policies.js";
import { killGroup } from "../../src/engine/system/processes.js";
import { systemClock } from "../../src/engine/clock.js";
import { openDatabase, type Database } from "../../src/engine/database.js";
import { projectCodexState } from "../../src/engine/isolation/codexJail.js";
import { makeCodexHome, type CodexHome } from "../support/codexHome.js";
import { killRecorded, until } from "../support/codexEngine.js";
import { tempDir } from "../support/engine.js";
import { inputText, startFakeModel, type FakeModel } from "../support/fakeModel.js";
import { testDatabase, type TestDatabase } from "../support/testDatabase.js";
import { removeTree } from "../support/removeTree.js";
import { git, isolateGit } from "../engine/orchestrations/repo.js";

/** A git repository with one commit (a lane's base). */
async function gitRepository(root: string): Promise<void> {
  isolateGit();
  fs.mkdirSync(root);
  await git(root, "init", "-q", "-b", "main");
  await git(root, "commit", "-q", "--allow-empty", "-m", "Base");
}

// Real processes on one database (SQLite file, and PostgreSQL in the postgres project): a
// coordinator (the CLI's tick), two `codexpi host` processes with data dirs of their own, real
// Codex workers against the fake model.

const CLI = path.resolve("dist/bin/main.js");
const TTL_S = 3;

/** Every prompt carries a token; the fake model answers `done <token>`, or hangs on a `hang` token. */
const lastToken = (text: string) => [...text.matchAll(/TOKEN:([\w-]+)/g)].at(-1)?.[1];

describe("worker hosts (codexpi host, real processes, real Codex, fake model)", () => {
  let fake: FakeModel | undefined;
  let home: CodexHome | undefined;
  let dir: string;
  let database: TestDatabase | undefined;
  let db: Database | undefined;
  const hosts: ChildProcess[] = [];

  afterEach(async () => {
    for (const h of hosts.splice(0)) if (h.exitCode === null && h.pid) killGroup(h.pid, "SIGKILL");
    if (db) {
      await killRecorded(db);
      await db.destroy();
      db = undefined;
    }
    await database?.drop();
    await fake?.close();
    if (home) fs.rmSync(home.dir, { recursive: true, force: true });
    await removeTree(dir);
  });

  it("codexpi host --help describes the command in the operator's language", async () => {
    dir = tempDir();
    const help = (locale: string) =>
      execa(process.execPath, [CLI, "host", "--help"], { env: { CODEXPI_LOCALE: locale }, reject: false });
    const [en, fr] = await Promise.all([help("en"), help("fr")]);
    expect(en.exitCode).toBe(0);
    expect(en.stdout).toContain("codexpi host [--name NAME]");
    expect(en.stdout).toContain("run the agents of the projects placed on this machine");
    expect(fr.stdout).toContain("codexpi host [--name NAME]");
    expect(fr.stdout).toContain("exécute les agents des projets placés sur cette machine");
  });

  it("a host whose data dir lies inside a project refuses to start, naming both paths", async () => {
    dir = tempDir();
    database = await testDatabase(dir);
    const databaseUrl =
      database.target.dialect === "postgres" ? database.target.url : `sqlite:${database.target.file}`;
    const env = (dataDir: string) => ({
      CODEXPI_DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      CODEXPI_LOCALE: "en",
    });
    fs.mkdirSync(path.join(dir, "proj"));
    const added = await execa(process.execPath, [CLI, "project", "add", "proj", path.join(dir, "proj")], {
      env: env(path.join(dir, "coordinator")),
      reject: false,
    });
    expect(added.exitCode).toBe(0);
    const refused = await execa(process.execPath, [CLI, "host", "--name", "inside"], {
      env: env(path.join(dir, "proj", "data")),
      reject: false,
      timeout: 30_000,
    });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain("codexpi host refused:");
    expect(refused.stderr).toContain(path.join(dir, "proj"));
    db = openDatabase(database.target);
    expect(await db.selectFrom("hosts").selectAll().execute()).toEqual([]);
  });

  it("each host runs only its projects' items, never one twice; a lost host's item is interrupted after the TTL; a moved project resumes its Codex thread", async () => {
    fake = await startFakeModel({
      respond: (body) => {
        const token = lastToken(inputText(body));
        if (token?.startsWith("hang")) return { kind: "hang" };
        return token ? { kind: "text", text: `done ${token}` } : undefined;
      },
    });
    home = await makeCodexHome(fake.url);
    dir = tempDir();
    database = await testDatabase(dir);
    const databaseUrl =
      database.target.dialect === "postgres" ? database.target.url : `sqlite:${database.target.file}`;
    const dataDir = (who: string) => path.join(dir, who);
    const envOf = (who: string) => ({
      ...home!.env,
      CODEXPI_DATA_DIR: dataDir(who),
      DATABASE_URL: databaseUrl,
      CODEXPI_LOCALE: "en",
      CODEXPI_HOST_TTL: String(TTL_S),
      // Generous: under a full suite on two cores a turn of the fake model can take a minute.
      CODEXPI_TURN_TIMEOUT: "150",
      CODEXPI_IDLE_TIMEOUT: "150",
      LOG_LEVEL: "info",
      NO_PROXY: "127.0.0.1,localhost",
    });
    // The coordinator's CLI (admin commands, ask, tick) runs with its own data dir.
    const cli = (...args: string[]) =>
      execa(process.execPath, [CLI, ...args], { env: envOf("coordinator"), reject: false, timeout: 170_000 });
    const startHost = async (name: string, who = name) => {
      const child = spawn(process.execPath, [CLI, "host", "--name", name], {
        env: { ...process.env, ...envOf(who) },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      hosts.push(child);
      let output = "";
      child.stdout?.on("data", (d) => {
        output += String(d);
      });
      child.stderr?.on("data", (d) => {
        output += String(d);
      });
      await until(
        async () => output.includes(`worker host ${name} started`),
        30_000,
        `host ${name} to start`,
      );
      return { child, output: () => output };
    };

    // Git repositories: added now, they work in lanes (issue 18), so that several conversations of
    // one project run at once, as this test asks (a direct project takes one agent at a time).
    for (const p of ["alpha", "beta"]) await gitRepository(path.join(dir, p));
    expect((await cli("migrate")).exitCode).toBe(0);
    db = openDatabase(database.target);
    await updateGlobalPolicy(
      db,
      systemClock,
      {
        max_concurrent: 4,
        load_pause_percent: 1000,
        memory_pause_percent: 100,
        background_start_hour: 0,
        background_end_hour: 0,
      },
      "test",
    );
    for (const p of ["alpha", "beta"])
      expect((await cli("project", "add", p, path.join(dir, p))).exitCode).toBe(0);

    // Placement refuses a host that never registered.
    const unknown = await cli("project", "set", "alpha", "--host", "hostA");
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toMatch(/no worker host named hostA has registered/i);

    const hostA = await startHost("hostA");
    const hostB = await startHost("hostB");
    // A second live process cannot take a name that is held.
    const twin = await execa(process.execPath, [CLI, "host", "--name", "hostA"], {
      env: envOf("twin"),
      reject: false,
      timeout: 30_000,
    });
    expect(twin.exitCode).toBe(1);
    expect(twin.stderr).toContain("another live codexpi host already runs as hostA");

    expect((await cli("project", "set", "alpha", "--host", "hostA")).stdout).toContain(
      "now runs on host hostA",
    );
    expect((await cli("project", "set", "beta", "--host", "hostB")).exitCode).toBe(0);
    const ids = Object.fromEntries(
      (await db.selectFrom("projects").select(["id", "name"]).execute()).map((p) => [p.name, p.id]),
    ) as Record<string, string>;

    // Several conversations per project at once: each host claims only its own project's items.
    const asks = await Promise.all(
      ["alpha-1", "alpha-2", "beta-1", "beta-2"].map((token) =>
        cli("ask", token.split("-")[0] as string, `say TOKEN:${token}`, "--wait"),
      ),
    );
    // A failed ask shows its exit and what it said, not an empty line.
    expect(
      asks.map(
        (a) => a.stdout.trim() || `exit ${a.exitCode}${a.timedOut ? " (timed out)" : ""}: ${a.stderr}`,
      ),
    ).toEqual(["done alpha-1", "done alpha-2", "done beta-1", "done beta-2"]);
    const items = await db
      .selectFrom("prompt_queue as q")
      .innerJoin("conversations as c", "c.id", "q.conversation_id")
      .select(["q.id", "q.status", "q.attempt", "c.project_id", "c.id as conversation_id"])
      .execute();
    expect(items).toHaveLength(4);
    const ranIn = (queueId: string) =>
      ["hostA", "hostB", "coordinator"].filter((who) =>
        fs.existsSync(path.join(dataDir(who), "logs", `worker-${queueId}.out`)),
      );
    for (const item of items) {
      expect(item).toMatchObject({ status: "done", attempt: 1 });
      // Its worker ran in exactly one place: the host of its project (never the coordinator).
      expect(ranIn(item.id)).toEqual([item.project_id === ids.alpha ? "hostA" : "hostB"]);
    }
    // One model turn per prompt: no item ran twice.
    for (const token of ["alpha-1", "alpha-2", "beta-1", "beta-2"])
      expect(fake.requests.filter((r) => lastToken(inputText(r)) === token)).toHaveLength(1);
    // The Codex session of a project lives in its host's data dir.
    expect(
      fs.existsSync(path.join(projectCodexState(dataDir("hostB"), ids.beta as string), "sessions")),
    ).toBe(true);
    expect(
      fs.existsSync(path.join(projectCodexState(dataDir("hostA"), ids.beta as string), "sessions")),
    ).toBe(false);

    // Moving beta to hostA copies its Codex sessions; its conversation resumes its thread there.
    const betaConversation = items.find((i) => i.project_id === ids.beta)?.conversation_id as string;
    const moved = await cli("project", "move", "beta", "--to", "hostA");
    expect(moved.exitCode).toBe(0);
    expect(moved.stdout).toMatch(
      /project beta moved from host hostB to host hostA: [1-9]\d* Codex session files copied/,
    );
    const followUp = await cli(
      "ask",
      "beta",
      "again TOKEN:beta-3",
      "--conversation",
      betaConversation,
      "--wait",
    );
    expect(followUp.stdout.trim()).toBe("done beta-3");
    const third = await db
      .selectFrom("prompt_queue")
      .select("id")
      .where("conversation_id", "=", betaConversation)
      .orderBy("seq", "desc")
      .executeTakeFirstOrThrow();
    expect(ranIn(third.id)).toEqual(["hostA"]);
    const resumed = fake.requests.find((r) => lastToken(inputText(r)) === "beta-3");
    // The earlier turn's prompt and answer are in the history the model sees (the thread resumed).
    const history = inputText(resumed!);
    expect(history).toMatch(/TOKEN:beta-(1|2)/);
    expect(history).toMatch(/done beta-(1|2)/);

    // A stop from the coordinator's machine reaches a worker on a host (it polls the flag; no pid
    // of another machine is ever signalled from here).
    const stoppable = await cli("ask", "beta", "wait TOKEN:hang-stop", "--conversation", betaConversation);
    const stoppableId = /queued (\S+)/.exec(stoppable.stdout)?.[1] as string;
    await until(
      async () => fake!.requests.some((r) => lastToken(inputText(r)) === "hang-stop"),
      45_000,
      "the turn to stop to reach the model",
    );
    expect((await cli("stop", betaConversation)).exitCode).toBe(0);
    const stopped = await until(
      async () => {
        const row = await db!
          .selectFrom("prompt_queue")
          .select(["status", "error_code"])
          .where("id", "=", stoppableId)
          .executeTakeFirstOrThrow();
        return row.status === "running" ? undefined : row;
      },
      30_000,
      "the stopped item to finish",
    );
    expect(stopped).toEqual({ status: "cancelled", error_code: "cancelled" });

    // hostA dies mid-turn (machine lost: the host and its workers are SIGKILLed).
    const hung = await cli("ask", "alpha", "wait TOKEN:hang-1");
    expect(hung.exitCode).toBe(0);
    const hungId = /queued (\S+)/.exec(hung.stdout)?.[1] as string;
    await until(
      async () => fake!.requests.some((r) => lastToken(inputText(r)) === "hang-1"),
      45_000,
      "the hanging turn to reach the model",
    );
    // A project with a running agent is not moved.
    const busyMove = await cli("project", "move", "alpha", "--to", "hostB");
    expect(busyMove.exitCode).toBe(1);
    expect(busyMove.stderr).toMatch(/has an agent running/);
    killGroup(hostA.child.pid as number, "SIGKILL");
    await killRecorded(db);
    const killedAt = Date.now();
    // Before the TTL the coordinator leaves it running: a dead pid on another machine proves nothing.
    const early = await cli("tick");
    expect(early.exitCode).toBe(0);
    const status = async () =>
      db!
        .selectFrom("prompt_queue")
        .select(["status", "error_code", "attempt"])
        .where("id", "=", hungId)
        .executeTakeFirstOrThrow();
    if (Date.now() - killedAt < (TTL_S - 1) * 1000) expect((await status()).status).toBe("running");
    // After it, the coordinator marks the item interrupted (the usual interrupted path).
    const after = await until(
      async () => {
        await cli("tick");
        const s = await status();
        return s.status !== "running" ? s : undefined;
      },
      30_000,
      "the lost host's item to be interrupted",
    );
    expect(after.error_code).toBe("interrupted");
    // Nothing ran it twice: hostB never took alpha's item, the model saw the turn once.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(fake.requests.filter((r) => lastToken(inputText(r)) === "hang-1")).toHaveLength(1);
    expect(ranIn(hungId)).toEqual(["hostA"]);

    // hostB stops cleanly on SIGTERM.
    hostB.child.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) => hostB.child.once("exit", resolve));
    expect(code).toBe(0);
    expect(hostB.output()).toContain("worker host hostB stopped");
  }, 360_000); // several CLI processes, a host TTL and a resume: over a minute on a loaded machine
});
