import fs from "node:fs";
import path from "node:path";
import { execa, type ResultPromise } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/engine/database.js";
import { startConversation } from "../../src/engine/conversations/conversations.js";
import { systemClock } from "../../src/engine/clock.js";
import { updateGlobalPolicy } from "../../src/engine/projects/policies.js";
import { processStartTime } from "../../src/engine/system/processes.js";
import { jailAvailable } from "../support/jail.js";
import { makeCodexHome } from "../support/codexHome.js";
import { inputText, startFakeModel, type FakeModel } from "../support/fakeModel.js";
import { finished, killRecorded, until } from "../support/codexEngine.js";
import { tempDir } from "../support/engine.js";
import { removeTree } from "../support/removeTree.js";

const CLI = path.resolve("dist/src/main.js");

describe("codexpi CLI (real binary, fake model)", () => {
  let fake: FakeModel;
  let dir: string;
  let env: Record<string, string>;
  let db: Database | undefined;
  const servers: ResultPromise[] = [];

  async function setup() {
    fake = await startFakeModel();
    const home = await makeCodexHome(fake.url);
    dir = tempDir();
    fs.mkdirSync(path.join(dir, "demo"));
    env = {
      ...home.env,
      CODEXPI_DATA_DIR: path.join(dir, "data"),
      LOG_LEVEL: "warn",
      NO_PROXY: "127.0.0.1,localhost",
    };
  }
  /** The test machine is busy (two cores, parallel tests): never pause on load here. */
  async function relaxPolicy() {
    const h = openDatabase(path.join(dir, "data", "codexpi.db"));
    await updateGlobalPolicy(
      h,
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
    await h.destroy();
  }
  const cli = (...args: string[]) =>
    execa(process.execPath, [CLI, ...args], { env, reject: false, timeout: 60_000 });

  afterEach(async () => {
    for (const s of servers.splice(0)) s.kill("SIGKILL");
    if (db) {
      await killRecorded(db);
      await db.destroy();
      db = undefined;
    }
    await fake?.close();
    await removeTree(dir);
  });

  it("project add then ask --wait prints the model's answer; ask --conversation continues the same Codex thread", async () => {
    await setup();
    fake.enqueue(
      { kind: "text", text: "Réponse du modèle 7731" },
      { kind: "text", text: "Suite de la conversation" },
    );
    const added = await cli("project", "add", "demo", path.join(dir, "demo"));
    expect(added.exitCode).toBe(0);
    expect(added.stdout).toContain("projet demo ajouté");
    await relaxPolicy();

    const first = await cli("ask", "demo", "hello", "--wait");
    expect(first.stdout.trim()).toBe("Réponse du modèle 7731");
    expect(first.exitCode).toBe(0);
    const conversationId = /conversation (\S+)/.exec(first.stderr)?.[1];
    expect(conversationId).toBeTruthy();

    const second = await cli("ask", "demo", "et ensuite ?", "--wait", "--conversation", conversationId!);
    expect(second.stdout.trim()).toBe("Suite de la conversation");
    expect(inputText(fake.requests[1]!)).toContain("Réponse du modèle 7731");
  });

  it("project set --approvals changes a project's approval mode; project list shows it; a bad mode is a usage error", async () => {
    await setup();
    await cli("project", "add", "demo", path.join(dir, "demo"));
    const bad = await cli("project", "set", "demo", "--approvals", "always");
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stderr).toContain("--approvals");
    const set = await cli("project", "set", "demo", "--approvals", "on-request");
    expect(set.exitCode).toBe(0);
    expect(set.stdout).toContain("on-request");
    // The listing reads in the operator's language (French by default).
    expect((await cli("project", "list")).stdout).toContain("approbations à la demande");
    await cli("project", "set", "demo", "--approvals", "never");
    expect((await cli("project", "list")).stdout).not.toContain("approbations");
  });

  it("project set --steer on|off lets replies steer the running turn; project list shows it; a bad value is a usage error", async () => {
    await setup();
    await cli("project", "add", "demo", path.join(dir, "demo"));
    const bad = await cli("project", "set", "demo", "--steer", "maybe");
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stderr).toContain("--steer");
    const set = await cli("project", "set", "demo", "--steer", "on");
    expect(set.exitCode).toBe(0);
    expect(set.stdout).toContain("orientation on");
    expect((await cli("project", "list")).stdout).toContain("les réponses orientent le tour en cours");
    await cli("project", "set", "demo", "--steer", "off");
    expect((await cli("project", "list")).stdout).not.toContain("orientent");
  });

  it("ask --wait prints a decision's question and options (no raw marker), keeps waiting; decide answers it and the conversation resumes", async () => {
    await setup();
    fake.enqueue(
      {
        kind: "text",
        text: 'Deux cibles.\nCODEXPI_DECISION {"title":"Cible","question":"Quelle cible ?","options":[{"id":"staging","label":"Staging"},{"id":"production","label":"Production"}]}',
      },
      { kind: "text", text: "Déployé sur staging 5190" },
    );
    await cli("project", "add", "demo", path.join(dir, "demo"));
    await relaxPolicy();
    const asking = cli("ask", "demo", "déploie", "--wait");
    let printed = "";
    let exited = false;
    void asking.then(() => {
      exited = true;
    });
    asking.stdout?.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
    });
    let waiting = "";
    asking.stderr?.on("data", (chunk: Buffer) => {
      waiting += chunk.toString();
    });
    const decisionId = await until(() => /codexpi decide (\S+) OPTION/.exec(printed)?.[1], 45_000);
    expect(printed).toContain("Deux cibles.");
    expect(printed).toContain("Quelle cible ?");
    expect(printed).toMatch(/staging — Staging/);
    expect(printed).not.toContain("CODEXPI_DECISION");
    // Still waiting through the decision: no exit yet (the control is its exit 0 after the answer).
    expect(exited).toBe(false);

    // `answer` shows the open question too, with how to answer it.
    const pending = await cli("answer", /conversation (\S+)/.exec(waiting)?.[1] as string);
    expect(pending.exitCode).toBe(0);
    expect(pending.stdout).toContain("Quelle cible ?");
    expect(pending.stdout).toContain(`codexpi decide ${decisionId} OPTION`);
    expect(pending.stdout).not.toContain("CODEXPI_DECISION");
    const wrong = await cli("decide", decisionId, "nowhere");
    expect(wrong.exitCode).toBe(1);
    expect(exited).toBe(false);
    const decided = await cli("decide", decisionId, "staging");
    expect(decided.exitCode).toBe(0);
    const done = await asking;
    expect(done.exitCode).toBe(0);
    expect(done.stdout).toContain("Déployé sur staging 5190");
    expect(inputText(fake.requests[1]!)).toContain("Staging");
    const again = await cli("decide", decisionId, "production");
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain("déjà");
    // Free text where the decision allows none is refused; no option and no text is a usage error.
    expect((await cli("decide", decisionId, "--text", "autre")).exitCode).toBe(1);
    expect((await cli("decide", decisionId)).exitCode).toBe(2);
  });

  it("ask --wait exits 1 with Codex's error on a failed turn; bad input gets usage and exit 2", async () => {
    await setup();
    fake.enqueue({ kind: "fail", message: "modèle indisponible" });
    await cli("project", "add", "demo", path.join(dir, "demo"));
    await relaxPolicy();
    const failed = await cli("ask", "demo", "hello", "--wait");
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toContain("modèle indisponible");
    const unknown = await cli("ask", "nope", "hello");
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain("Projet introuvable : nope");
    const usage = await cli("ask", "demo");
    expect(usage.exitCode).toBe(2);
    expect(usage.stderr).toContain("utilisation : codexpi"); // errors and usage in one language
    expect(usage.stderr).toContain("2 argument(s) attendu(s)");
    const badPath = await cli("project", "add", "other", path.join(dir, "missing"));
    expect(badPath.exitCode).toBe(1);
    expect(badPath.stderr).toContain("n’est pas un dossier");
  });

  it("serve, doctor and project add refuse a project holding the data directory or the running install, naming both paths", async () => {
    await setup();
    const real = fs.realpathSync(dir);
    const data = path.join(real, "data");
    const install = fs.realpathSync(path.resolve("."));
    // project add: the directory holding the data, the install, the install through a link.
    const holder = await cli("project", "add", "holder", dir);
    expect(holder.exitCode).toBe(1);
    expect(holder.stderr).toContain(`Le chemin ${real} contient le dossier de données de codexpi (${data})`);
    const installed = await cli("project", "add", "CodexPi (Self)", install, "--role", "self");
    expect(installed.exitCode).toBe(1);
    expect(installed.stderr).toContain(`contient l’installation de codexpi en service (${install})`);
    fs.symlinkSync(install, path.join(dir, "install-link"));
    expect((await cli("project", "add", "linked", path.join(dir, "install-link"))).stderr).toContain(
      `(${install})`,
    );
    // Control: a separate directory is registered, and the layout is reported sound.
    expect((await cli("project", "add", "demo", path.join(dir, "demo"))).exitCode).toBe(0);
    expect((await cli("doctor")).stdout).toMatch(/^✓ emplacements : /m);

    // A project registered before these checks existed, holding the data directory.
    db = openDatabase(path.join(dir, "data", "codexpi.db"));
    await db
      .insertInto("projects")
      .values({
        id: "legacy-id",
        name: "legacy",
        path: dir,
        owner_id: null,
        full_access: 0,
        execution_group: null,
        merge_confirmation_required: 0,
        channel_id: null,
        role: "project",
        created_at: Date.now(),
      })
      .execute();
    const doctor = await cli("doctor");
    expect(doctor.exitCode).toBe(1);
    expect(doctor.stdout).toContain(
      `✗ emplacements : le répertoire de données ${data} est dans le projet « legacy » (${real})`,
    );
    const serve = await execa(process.execPath, [CLI, "serve"], {
      env: { ...env, HEALTH_PORT: "0" },
      reject: false,
      timeout: 30_000,
    });
    expect(serve.exitCode).toBe(1);
    expect(serve.stderr).toContain(
      `codexpi serve refuse de démarrer : le répertoire de données ${data} est dans le projet « legacy » (${real})`,
    );
    // The way out: remove that project (its directory stays), and the layout is sound again.
    expect((await cli("project", "remove", "legacy")).exitCode).toBe(0);
    expect(fs.existsSync(dir)).toBe(true);
    expect((await cli("doctor")).stdout).toMatch(/^✓ emplacements : /m);
    // The same refusal in English for an English-speaking operator.
    env.CODEXPI_LOCALE = "en";
    const englishDoctor = await cli("doctor");
    expect(englishDoctor.stdout).toMatch(/^✓ layout: no project holds the data directory or the install$/m);
  });

  it("doctor reports the jail and proves it with a jailed read outside the workspace; with the jail off it says agents are not isolated", async (ctx) => {
    if (!(await jailAvailable())) ctx.skip();
    await setup();
    env.CODEXPI_LOCALE = "en";
    const on = await cli("doctor");
    expect(on.stdout).toMatch(
      /^✓ jail: bubblewrap [\d.]+ \(user, pid, ipc, uts namespaces; private \/tmp and \/proc\): a jailed process could not read the data directory/m,
    );
    expect(on.stdout).toMatch(/^✓ sandbox: restricted projects can run commands \(inside the jail\)/m);
    env = { ...env, CODEXPI_JAIL: "off" };
    const off = await cli("doctor");
    expect(off.exitCode).toBe(1);
    expect(off.stdout).toContain("✗ jail: none: CODEXPI_JAIL=off: agents and test commands are NOT isolated");
  });

  it("--help of every command exits 0 with its usage, in the configured language", async () => {
    await setup();
    for (const command of [
      "serve",
      "migrate",
      "doctor",
      "project",
      "ask",
      "answer",
      "stop",
      "decide",
      "tick",
      "worker",
    ]) {
      const help = await cli(command, "--help");
      expect(help.exitCode, command).toBe(0);
      expect(help.stdout, command).toContain(`codexpi ${command}`);
      expect(help.stdout, command).toContain("utilisation : codexpi");
    }
    env.CODEXPI_LOCALE = "en";
    expect((await cli("help", "stop")).stdout).toContain("codexpi stop CONVERSATION");
    const en = await cli("ask", "-h");
    expect(en.stdout).toContain("usage: codexpi");
    expect(en.stdout).toContain("--stop-on-exit");
    const wrong = await cli("ask", "demo");
    expect(wrong.stderr).toContain("expected 2 argument(s), got 1");
    expect((await cli("nonsense")).stderr).toContain("unknown command: nonsense");
  });

  it("answer prints a finished conversation's answer (no log line in answers); stop stops a running one: the item ends cancelled and Codex is gone", async () => {
    await setup();
    env.LOG_LEVEL = "debug";
    await cli("project", "add", "demo", path.join(dir, "demo"));
    await relaxPolicy();
    fake.enqueue({ kind: "text", text: "Réponse finie 4411" });
    const first = await cli("ask", "demo", "hello", "--wait");
    expect(first.exitCode).toBe(0);
    // Logs go to stderr or the worker's log file, never into the answer.
    expect(first.stdout.trim()).toBe("Réponse finie 4411");
    const id = /conversation (\S+)/.exec(first.stderr)?.[1] as string;
    db = openDatabase(path.join(dir, "data", "codexpi.db"));
    const item = await db
      .selectFrom("prompt_queue")
      .select("id")
      .where("conversation_id", "=", id)
      .executeTakeFirstOrThrow();
    const log = fs.readFileSync(path.join(dir, "data", "logs", `worker-${item.id}.log`), "utf8");
    expect(log.split("\n").filter((l) => l.startsWith("{")).length).toBeGreaterThan(0); // logs exist
    expect(first.stderr).not.toMatch(/^\{"level"/m); // the CLI's own logs are in its file

    const answer = await cli("answer", id);
    expect(answer.exitCode).toBe(0);
    expect(answer.stdout.trim()).toBe("Réponse finie 4411");

    fake.enqueue({ kind: "shell", command: ["sleep", "30"] }); // never answered: it is stopped
    const asked = await cli("ask", "demo", "long", "--conversation", id);
    const queueId = /queued (\S+)/.exec(asked.stdout)?.[1] as string;
    const running = await until(
      async () => {
        const r = await db!
          .selectFrom("prompt_queue")
          .selectAll()
          .where("id", "=", queueId)
          .executeTakeFirst();
        return r?.codex_pid ? r : undefined;
      },
      30_000,
      "codex to start",
    );
    expect((await cli("answer", id)).exitCode).toBe(3); // still running
    const stopped = await cli("stop", id);
    expect(stopped.exitCode).toBe(0);
    expect(stopped.stdout).toContain(`Conversation ${id} arrêtée`);
    expect((await finished(db, queueId)).status).toBe("cancelled");
    await until(
      async () => processStartTime(running.codex_pid!) !== running.codex_start_time,
      10_000,
      "codex gone",
    );
    const after = await cli("answer", id);
    expect(after.exitCode).toBe(1);
    expect(after.stderr).toContain("cancelled");
  });

  it("Ctrl-C on ask --wait: --stop-on-exit stops the agent; without it and without a TTY the agent keeps running and the follow-up command is printed", async () => {
    await setup();
    await cli("project", "add", "demo", path.join(dir, "demo"));
    await relaxPolicy();
    db = openDatabase(path.join(dir, "data", "codexpi.db"));
    const codexOf = (conversationId: string) =>
      until(
        async () => {
          const r = await db!
            .selectFrom("prompt_queue")
            .selectAll()
            .where("conversation_id", "=", conversationId)
            .executeTakeFirst();
          return r?.codex_pid ? r : undefined;
        },
        30_000,
        "codex to start",
      );
    async function interrupted(...extra: string[]) {
      const asking = cli("ask", "demo", "long", "--wait", ...extra);
      let stderr = "";
      asking.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const id = await until(
        async () => /conversation (\S+)/.exec(stderr)?.[1],
        30_000,
        "the conversation id",
      );
      const item = await codexOf(id);
      asking.kill("SIGINT");
      return { id, item, done: await asking };
    }

    fake.enqueue({ kind: "shell", command: ["sleep", "30"] }); // never answered: it is stopped
    const stopped = await interrupted("--stop-on-exit");
    expect(stopped.done.exitCode).toBe(130);
    expect(stopped.done.stdout).toContain("arrêtée");
    expect((await finished(db, stopped.item.id)).status).toBe("cancelled");
    await until(
      async () => processStartTime(stopped.item.codex_pid!) !== stopped.item.codex_start_time,
      10_000,
      "codex gone",
    );

    fake.enqueue({ kind: "shell", command: ["sleep", "3"] }, { kind: "text", text: "Réponse 8123" });
    const left = await interrupted();
    expect(left.done.exitCode).toBe(130);
    expect(left.done.stderr).toContain(`codexpi answer ${left.id}`);
    // The agent was left running: it finishes, and its answer is read later.
    expect((await finished(db, left.item.id)).status).toBe("done");
    const answer = await cli("answer", left.id);
    expect(answer.stdout.trim()).toBe("Réponse 8123");
  });

  // util-linux `script` provides the terminal; without it there is nothing to type into.
  it.skipIf(!fs.existsSync("/usr/bin/script"))(
    "Ctrl-C on ask --wait in a terminal asks whether to stop the agent, and stops it on yes",
    async () => {
      await setup();
      await cli("project", "add", "demo", path.join(dir, "demo"));
      await relaxPolicy();
      db = openDatabase(path.join(dir, "data", "codexpi.db"));
      fake.enqueue({ kind: "shell", command: ["sleep", "30"] }); // never answered: it is stopped
      // `script` gives the command a real terminal; Ctrl-C and the reply are typed into it.
      const command = [process.execPath, CLI, "ask", "demo", "long", "--wait"].map((a) => `'${a}'`).join(" ");
      const term = execa("script", ["-qfec", command, "/dev/null"], { env, reject: false, timeout: 60_000 });
      let screen = "";
      term.stdout?.on("data", (chunk: Buffer) => {
        screen += chunk.toString();
      });
      const id = await until(
        async () => /conversation (\S+)/.exec(screen)?.[1],
        30_000,
        "the conversation id",
      );
      const item = await until(
        async () => {
          const r = await db!
            .selectFrom("prompt_queue")
            .selectAll()
            .where("conversation_id", "=", id)
            .executeTakeFirst();
          return r?.codex_pid ? r : undefined;
        },
        30_000,
        "codex to start",
      );
      term.stdin?.write("\x03");
      await until(async () => screen.includes("Arrêter l’agent ?"), 10_000, "the question");
      term.stdin?.write("o\r");
      await term;
      expect(screen).toContain("arrêtée");
      expect((await finished(db, item.id)).status).toBe("cancelled");
    },
  );

  it("the bot killed while a worker runs does not stop the worker, whose outcome is recorded", async () => {
    await setup();
    await cli("project", "add", "demo", path.join(dir, "demo"));
    await relaxPolicy();
    // The agent runs a 2 s command, so the worker is mid-turn when the bot dies.
    fake.enqueue({ kind: "shell", command: ["sleep", "2"] }, { kind: "text", text: "survived the bot" });
    const serve = execa(process.execPath, [CLI, "serve"], {
      env: { ...env, CODEXPI_TICK: "*/1 * * * * *", HEALTH_PORT: "0" },
      reject: false,
    });
    servers.push(serve);
    // Queued without dispatching, so that the bot's own tick spawns the worker.
    db = openDatabase(path.join(dir, "data", "codexpi.db"));
    const project = await db
      .selectFrom("projects")
      .selectAll()
      .where("name", "=", "demo")
      .executeTakeFirstOrThrow();
    const queueId = (await startConversation(db, systemClock, project, "long task", "cli")).item.id;
    const running = await until(
      async () => {
        const r = await db!
          .selectFrom("prompt_queue")
          .selectAll()
          .where("id", "=", queueId)
          .executeTakeFirst();
        return r?.codex_pid ? r : undefined;
      },
      30_000,
      "codex to start",
    );
    // spawned by serve: the worker's parent is the bot
    expect(fs.readFileSync(`/proc/${running.worker_pid}/stat`, "utf8").split(") ")[1]?.split(" ")[1]).toBe(
      String(serve.pid),
    );
    serve.kill("SIGKILL");
    await serve;
    expect(processStartTime(running.worker_pid!)).toBe(running.worker_start_time); // the worker outlived the bot
    const row = await finished(db, queueId);
    expect(row.status).toBe("done");
    const answer = await db
      .selectFrom("messages")
      .select("content")
      .where("queue_id", "=", queueId)
      .where("role", "=", "assistant")
      .executeTakeFirstOrThrow();
    expect(answer.content).toBe("survived the bot");
  });
});
