import SQLite from "better-sqlite3";
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from "kysely";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { enqueue, startConversation } from "../../../src/engine/conversations/conversations.js";
import { addProject, CLI_ACTOR, removeProject, updateProject } from "../../../src/engine/projects/index.js";
import { projectOverlaps, realPath } from "../../../src/engine/projects/layout.js";
import { openDatabase, type Database } from "../../../src/engine/database.js";
import { EngineError } from "../../../src/engine/errors.js";
import { postgresDialect } from "../../../src/engine/postgres.js";
import type { DB } from "../../../src/engine/schema.js";
import { engineErrorText } from "../../../src/i18n/index.js";
import { testEngine } from "../../support/engine.js";

// Another process (bot, worker, CLI) writes the same database. The seam: just before the engine
// runs a matching statement, a second connection writes what that process would write there. It
// waits at most 100 ms for a lock, as a real process would wait for the transaction to end.
//
// - SQLite: a raw better-sqlite3 connection on the same file (any write takes the file's lock),
//   run synchronously from a kysely plugin.
// - PostgreSQL: a pool of its own (lock_timeout 100 ms) running the engine's own operation, as the
//   other process would (its locks are the engine's); the engine's statement waits for it (a
//   plugin cannot wait, so the engine's handle is a pool whose connections run the seam first).

type Env = Awaited<ReturnType<typeof testEngine>>;
type Outcome = "written" | "locked out" | "not reached";

/** The engine's statement the other process's write comes just before. */
interface Moment {
  kind: "DeleteQueryNode" | "UpdateQueryNode" | "InsertQueryNode";
  table: string;
}

/** What the other process writes: raw SQL on SQLite, the engine's operation on PostgreSQL. */
interface OtherWrite {
  sqlite(conn: SQLite.Database): void;
  postgres(other: Database): Promise<unknown>;
}

const SQL_OF_KIND = {
  DeleteQueryNode: "delete from",
  UpdateQueryNode: "update",
  InsertQueryNode: "insert into",
};

class Meanwhile implements KyselyPlugin {
  outcome: Outcome = "not reached";
  constructor(
    private readonly moment: Moment,
    private readonly write: () => void,
  ) {}
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const { node } = args;
    if (
      this.outcome === "not reached" &&
      node.kind === this.moment.kind &&
      JSON.stringify(node).includes(`"${this.moment.table}"`)
    ) {
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

/** `inner` whose connections run `before(query)` ahead of each query (transactions' own statements aside). */
function beforeEachQuery(inner: Dialect, before: (query: CompiledQuery) => Promise<void>): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createDriver() {
      const driver = inner.createDriver();
      const inners = new WeakMap<DatabaseConnection, DatabaseConnection>();
      const unwrap = (c: DatabaseConnection) => inners.get(c) ?? c;
      return {
        init: () => driver.init(),
        destroy: () => driver.destroy(),
        async acquireConnection() {
          const conn = await driver.acquireConnection();
          const wrapped: DatabaseConnection = {
            executeQuery: async (q) => {
              await before(q);
              return conn.executeQuery(q);
            },
            streamQuery: (q, chunkSize) => conn.streamQuery(q, chunkSize),
          };
          inners.set(wrapped, conn);
          return wrapped;
        },
        beginTransaction: (c, settings) => driver.beginTransaction(unwrap(c), settings),
        commitTransaction: (c) => driver.commitTransaction(unwrap(c)),
        rollbackTransaction: (c) => driver.rollbackTransaction(unwrap(c)),
        releaseConnection: (c) => driver.releaseConnection(unwrap(c)),
      };
    },
  };
}

const closers: Array<() => Promise<void> | void> = [];

/**
 * A handle for the engine's call under test, and what became of the other process's write, made
 * just before the engine's first statement of `moment`.
 */
function meanwhile(env: Env, moment: Moment, write: OtherWrite): { db: Database; outcome(): Outcome } {
  const target = env.config.database;
  if (target.dialect === "sqlite") {
    const conn = new SQLite(target.file);
    conn.pragma("busy_timeout = 100");
    conn.pragma("foreign_keys = ON");
    closers.push(() => conn.close());
    const seam = new Meanwhile(moment, () => write.sqlite(conn));
    return { db: env.db.withPlugin(seam) as Database, outcome: () => seam.outcome };
  }
  const url = new URL(target.url);
  url.searchParams.set("options", "-c lock_timeout=100");
  const other = openDatabase({ dialect: "postgres", url: url.toString() });
  closers.push(() => other.destroy());
  let outcome: Outcome = "not reached";
  const prefix = `${SQL_OF_KIND[moment.kind]} "${moment.table}"`;
  const db = new Kysely<DB>({
    dialect: beforeEachQuery(postgresDialect(target.url), async (q) => {
      if (outcome !== "not reached" || !q.sql.startsWith(prefix)) return;
      try {
        await write.postgres(other);
        outcome = "written";
      } catch (err) {
        if ((err as { code?: unknown }).code !== "55P03") throw err; // lock_not_available
        outcome = "locked out";
      }
    }),
  });
  closers.push(() => db.destroy());
  return { db, outcome: () => outcome };
}

describe("project administration under concurrent writers", () => {
  let env: Env;
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await env?.close();
  });

  it("work enqueued by another process while a project is removed is never deleted with it", async () => {
    env = await testEngine();
    const { conversation, item } = await startConversation(env.db, env.clock, env.project, "first", "UOWNER");
    await env.db.updateTable("prompt_queue").set({ status: "done" }).where("id", "=", item.id).execute();
    let enqueued = "enqueued-meanwhile";
    const seam = meanwhile(
      env,
      { kind: "DeleteQueryNode", table: "runtime_policies" },
      {
        sqlite(other) {
          const columns = (
            other.prepare("PRAGMA table_info(prompt_queue)").all() as Array<{ name: string }>
          ).map((c) => c.name);
          const copy = columns
            .map((c) =>
              c === "id"
                ? "'enqueued-meanwhile'"
                : c === "status"
                  ? "'queued'"
                  : c === "seq"
                    ? "seq + 1000"
                    : c,
            )
            .join(", ");
          other
            .prepare(
              `INSERT INTO prompt_queue (${columns.join(", ")}) SELECT ${copy} FROM prompt_queue WHERE id = ?`,
            )
            .run(item.id);
        },
        async postgres(other) {
          enqueued = (await enqueue(other, env.clock, conversation.id, "meanwhile")).id;
        },
      },
    );

    const removed = await removeProject(seam.db, CLI_ACTOR, env.project.name).then(
      () => "removed",
      (err: unknown) => err,
    );

    expect(seam.outcome()).not.toBe("not reached");
    const survivor = await env.db
      .selectFrom("prompt_queue")
      .select("id")
      .where("id", "=", enqueued)
      .executeTakeFirst();
    if (seam.outcome() === "written") {
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
    const seam = meanwhile(
      env,
      { kind: "UpdateQueryNode", table: "projects" },
      {
        sqlite: (other) => other.prepare("UPDATE projects SET role = 'master' WHERE id = ?").run(rival.id),
        postgres: (other) => updateProject(other, CLI_ACTOR, rival.name, { role: "master" }),
      },
    );

    const outcome = await updateProject(seam.db, CLI_ACTOR, env.project.name, {
      role: "master",
    }).then(
      (p) => p.role,
      (err: unknown) => err,
    );

    expect(seam.outcome()).not.toBe("not reached");
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
    // Its own directory: projects never overlap, so a second project at scratch's path is refused for that.
    const dir = path.join(env.dir, "twin");
    fs.mkdirSync(dir);
    const seam = meanwhile(
      env,
      { kind: "InsertQueryNode", table: "projects" },
      {
        sqlite: (other) =>
          other
            .prepare(
              "INSERT INTO projects (id, name, path, owner_id, full_access, execution_group, merge_confirmation_required, channel_id, role, created_at) VALUES ('meanwhile', 'twin', ?, NULL, 0, NULL, 0, NULL, 'project', 0)",
            )
            .run(dir),
        postgres: (other) => addProject(other, env.clock, { name: "twin", path: dir }),
      },
    );

    const outcome = await addProject(seam.db, env.clock, {
      name: "twin",
      path: dir,
    }).then(
      (p) => p.id,
      (err: unknown) => err,
    );

    expect(seam.outcome()).not.toBe("not reached");
    if (seam.outcome() === "written") {
      expect(outcome).toMatchObject({ code: "conflict", reason: "project_exists" });
      expect(engineErrorText("en", outcome as EngineError)).toBe("A project named twin already exists");
    } else {
      expect(typeof outcome).toBe("string");
    }
    expect(
      await env.db.selectFrom("projects").select("id").where("name", "=", "twin").execute(),
    ).toHaveLength(1);
  });

  it("a project added meanwhile inside the new one's directory never leaves two overlapping projects registered", async () => {
    env = await testEngine();
    const outer = path.join(env.dir, "outer");
    const inner = path.join(outer, "services", "billing");
    fs.mkdirSync(inner, { recursive: true });
    const seam = meanwhile(
      env,
      { kind: "InsertQueryNode", table: "projects" },
      {
        sqlite: (other) =>
          other
            .prepare(
              "INSERT INTO projects (id, name, path, owner_id, full_access, execution_group, merge_confirmation_required, channel_id, role, created_at) VALUES ('meanwhile', 'billing', ?, NULL, 0, NULL, 0, NULL, 'project', 0)",
            )
            .run(inner),
        postgres: (other) => addProject(other, env.clock, { name: "billing", path: inner }),
      },
    );

    const outcome = await addProject(seam.db, env.clock, { name: "outer", path: outer }).then(
      (p) => p.name,
      (err: unknown) => err,
    );

    expect(seam.outcome()).not.toBe("not reached");
    if (seam.outcome() === "written") expect(outcome).toMatchObject({ reason: "project_overlaps" });
    else expect(outcome).toBe("outer");
    const registered = await env.db.selectFrom("projects").select(["name", "path"]).execute();
    expect(projectOverlaps(registered.map((p) => ({ name: p.name, path: realPath(p.path) })))).toEqual([]);
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
