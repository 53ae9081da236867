import SQLite from "better-sqlite3";
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../../src/engine/agents/conversations.js";
import { addProject, CLI_ACTOR, removeProject, updateProject } from "../../../src/engine/agents/projects.js";
import type { Database } from "../../../src/engine/database.js";
import { EngineError } from "../../../src/engine/errors.js";
import { engineErrorText } from "../../../src/i18n/index.js";
import { testEngine } from "../../support/engine.js";

// Another process (bot, worker, CLI) writes the same database file. The seam: just before the
// engine runs a matching query, a second connection writes what that process would write there.
// It waits at most 100 ms for the lock, as a real process would wait for the transaction to end.

type Env = Awaited<ReturnType<typeof testEngine>>;

class Meanwhile implements KyselyPlugin {
  outcome: "written" | "locked out" | "not reached" = "not reached";
  constructor(
    private readonly match: (node: RootOperationNode) => boolean,
    private readonly write: () => void,
  ) {}
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.outcome === "not reached" && this.match(args.node)) {
      try {
        this.write();
        this.outcome = "written";
      } catch (err) {
        if (!/locked|busy/i.test(String(err))) throw err;
        this.outcome = "locked out";
      }
    }
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

function otherProcess(env: Env): SQLite.Database {
  const conn = new SQLite(env.config.databasePath);
  conn.pragma("busy_timeout = 100");
  conn.pragma("foreign_keys = ON");
  return conn;
}

/** The write that follows the checks: the window in which another process must not get in. */
const writeOn = (kind: RootOperationNode["kind"], table: string) => (node: RootOperationNode) =>
  node.kind === kind && JSON.stringify(node).includes(`"${table}"`);

describe("project administration under concurrent writers", () => {
  let env: Env;
  const conns: SQLite.Database[] = [];
  afterEach(async () => {
    for (const c of conns.splice(0)) c.close();
    await env?.close();
  });

  it("work enqueued by another process while a project is removed is never deleted with it", async () => {
    env = await testEngine();
    const { conversation, item } = await startConversation(env.db, env.clock, env.project, "first", "UOWNER");
    await env.db.updateTable("prompt_queue").set({ status: "done" }).where("id", "=", item.id).execute();
    const other = otherProcess(env);
    conns.push(other);
    const columns = (other.prepare("PRAGMA table_info(prompt_queue)").all() as Array<{ name: string }>).map(
      (c) => c.name,
    );
    const copy = columns
      .map((c) =>
        c === "id" ? "'enqueued-meanwhile'" : c === "status" ? "'queued'" : c === "seq" ? "seq + 1000" : c,
      )
      .join(", ");
    const seam = new Meanwhile(writeOn("DeleteQueryNode", "runtime_policies"), () =>
      other
        .prepare(
          `INSERT INTO prompt_queue (${columns.join(", ")}) SELECT ${copy} FROM prompt_queue WHERE id = ?`,
        )
        .run(item.id),
    );

    const removed = await removeProject(
      env.db.withPlugin(seam) as Database,
      CLI_ACTOR,
      env.project.name,
    ).then(
      () => "removed",
      (err: unknown) => err,
    );

    expect(seam.outcome).not.toBe("not reached");
    const survivor = await env.db
      .selectFrom("prompt_queue")
      .select("id")
      .where("id", "=", "enqueued-meanwhile")
      .executeTakeFirst();
    if (seam.outcome === "written") {
      // The other process got in after the check: its work must not vanish with the project.
      expect(survivor).toBeDefined();
    } else {
      // The removal held the lock from its check to its delete: the other write had to wait.
      expect(removed).toBe("removed");
      expect(
        await env.db
          .selectFrom("conversations")
          .select("id")
          .where("id", "=", conversation.id)
          .executeTakeFirst(),
      ).toBeUndefined();
    }
  });

  it("a master role given to another project meanwhile is a conflict, never a raw database error", async () => {
    env = await testEngine();
    const rival = await env.addProject({ name: "rival" });
    const other = otherProcess(env);
    conns.push(other);
    const seam = new Meanwhile(writeOn("UpdateQueryNode", "projects"), () =>
      other.prepare("UPDATE projects SET role = 'master' WHERE id = ?").run(rival.id),
    );

    const outcome = await updateProject(env.db.withPlugin(seam) as Database, CLI_ACTOR, env.project.name, {
      role: "master",
    }).then(
      (p) => p.role,
      (err: unknown) => err,
    );

    expect(seam.outcome).not.toBe("not reached");
    if (outcome !== "master") {
      expect(outcome).toBeInstanceOf(EngineError);
      expect(outcome).toMatchObject({ code: "conflict" });
    }
    expect(
      await env.db.selectFrom("projects").select("id").where("role", "=", "master").execute(),
    ).toHaveLength(1);
  });

  it("a project of the same name added meanwhile is a conflict with a catalogued message, never a raw database error", async () => {
    env = await testEngine();
    const dir = (await env.addProject({ name: "scratch" })).path;
    const other = otherProcess(env);
    conns.push(other);
    const seam = new Meanwhile(writeOn("InsertQueryNode", "projects"), () =>
      other
        .prepare(
          "INSERT INTO projects (id, name, path, owner_id, full_access, execution_group, merge_confirmation_required, slack_channel_id, role, created_at) VALUES ('meanwhile', 'twin', ?, NULL, 0, NULL, 0, NULL, 'project', 0)",
        )
        .run(dir),
    );

    const outcome = await addProject(env.db.withPlugin(seam) as Database, env.clock, {
      name: "twin",
      path: dir,
    }).then(
      (p) => p.id,
      (err: unknown) => err,
    );

    expect(seam.outcome).not.toBe("not reached");
    if (seam.outcome === "written") {
      expect(outcome).toMatchObject({ code: "conflict", reason: "project_exists" });
      expect(engineErrorText("en", outcome as EngineError)).toBe("A project named twin already exists");
    } else {
      expect(typeof outcome).toBe("string");
    }
    expect(
      await env.db.selectFrom("projects").select("id").where("name", "=", "twin").execute(),
    ).toHaveLength(1);
  });

  it("an unknown project is not found, and a busy one is refused with its catalogued reason", async () => {
    env = await testEngine();
    await expect(updateProject(env.db, CLI_ACTOR, "nope", { fullAccess: true })).rejects.toMatchObject({
      code: "not_found",
      reason: "project_not_found",
    });
    await startConversation(env.db, env.clock, env.project, "busy", "UOWNER");
    const refused = await removeProject(env.db, CLI_ACTOR, env.project.name).catch(
      (err: unknown) => err as EngineError,
    );
    expect(refused).toMatchObject({ code: "conflict", reason: "project_busy" });
    expect(engineErrorText("fr", refused as EngineError)).toBe(
      "Le projet demo a encore du travail en file ou en cours",
    );
  });
});
