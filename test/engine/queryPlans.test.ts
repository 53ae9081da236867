import type { CompiledQuery } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { enqueue, startConversation } from "../../src/engine/conversations/conversations.js";
import { updateGlobalPolicy, setProjectLimit } from "../../src/engine/projects/policies.js";
import { testEngine } from "../support/engine.js";
import { loggingDatabase, planned, tableScans } from "../support/queryPlans.js";

/**
 * The tick must cost what live work costs, not what history costs: every query it runs is
 * explained against a database holding finished history (EXPLAIN QUERY PLAN on SQLite, EXPLAIN
 * with sequential scans disabled on PostgreSQL: see tableScans), and none may scan a whole table.
 */
describe("tick query plans", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  it("no query of a tick (reaping, claiming and finishing included) scans a whole table", async () => {
    env = await testEngine();
    await updateGlobalPolicy(
      env.db,
      env.clock,
      {
        max_concurrent: 3,
        load_pause_percent: 90,
        memory_pause_percent: 90,
        background_start_hour: 0,
        background_end_hour: 0,
      },
      "U",
    );
    const other = await env.addProject({ name: "other", ownerId: "U" });
    await setProjectLimit(env.db, env.clock, other.id, 1, "U");
    for (let i = 0; i < 30; i++) {
      const { item } = await startConversation(
        env.db,
        env.clock,
        i % 2 ? other : env.project,
        `history ${i}`,
        "U",
      );
      await env.db
        .updateTable("prompt_queue")
        .set({ status: "done", finished_at: env.clock.now() })
        .where("id", "=", item.id)
        .execute();
    }
    const busy = await startConversation(env.db, env.clock, env.project, "busy", "U");
    await enqueue(env.db, env.clock, busy.conversation.id, "waits behind busy");
    await env.engine.dispatch(); // busy runs; its follow-up waits
    await env.db
      .updateTable("prompt_queue")
      .set({ worker_pid: 999_999_9, worker_start_time: "1" })
      .where("id", "=", busy.item.id)
      .execute(); // lost
    for (let i = 0; i < 5; i++)
      await startConversation(env.db, env.clock, i % 2 ? other : env.project, `queued ${i}`, "U");
    // Coordination's steps have work too: an open incident to send to self-repair.
    await env.addProject({ name: "CodexPi (Self)", role: "self" });
    await env.db
      .insertInto("incidents")
      .values({
        id: "inc",
        conversation_id: busy.conversation.id,
        queue_id: "q-inc",
        project_id: env.project.id,
        user_id: "U",
        status: "OPEN",
        error: "boom",
        error_code: "codex_failed",
        auto_repair: 1,
        repair_project_id: null,
        repair_conversation_id: null,
        repair_queue_id: null,
        resolution: null,
        created_at: 0,
        updated_at: 0,
      })
      .execute();

    // Approvals' step has work too: a request past its deadline (and the lost item's pending one,
    // abandoned when the reaper finishes it).
    for (const [id, item, expires] of [
      ["ap-due", "q-other", 0],
      ["ap-lost", busy.item.id, env.clock.now() + 60_000],
    ] as const)
      await env.db
        .insertInto("approvals")
        .values({
          id,
          conversation_id: busy.conversation.id,
          queue_id: item,
          attempt: 1,
          user_id: "U",
          codex_thread_id: "t",
          turn_id: "u",
          item_id: id,
          approval_id: id,
          kind: "command",
          command: "npm install",
          cwd: null,
          reason: null,
          diff: null,
          answered_by: null,
          answered_at: null,
          created_at: 0,
          expires_at: expires,
        })
        .execute();

    const queries: CompiledQuery[] = [];
    const logged = loggingDatabase(env.config, queries);
    const { Engine } = await import("../../src/engine/engine.js");
    const engine = new Engine({
      config: env.config,
      db: logged,
      clock: env.clock,
      host: env.engine.host,
      spawner: env.spawner,
      owner: "planner",
    });
    const result = await engine.tick();
    await logged.destroy();
    expect(result).toMatchObject({ state: "processed", reaped: [busy.item.id], incidents_repairing: 2 }); // reap (whose failure opens an incident), repair and claim really ran
    expect((result as { started: string[] }).started.length).toBeGreaterThan(0);
    expect(result).toMatchObject({ expired: ["ap-due"] });
    expect(
      (await env.db.selectFrom("approvals").select("status").where("id", "=", "ap-lost").executeTakeFirst())
        ?.status,
    ).toBe("abandoned");

    const statements = queries.filter((q) => planned(q) && !/^\s*insert into "outbox"/i.test(q.sql));
    expect(statements.length).toBeGreaterThan(10);
    const scans = await tableScans(env, statements);
    // Positive control: the detector does see a scan of the history.
    const control = env.db.selectFrom("prompt_queue").select("id").where("content", "=", "x").compile();
    expect(await tableScans(env, [control])).toEqual([
      expect.stringMatching(/^(SCAN prompt_queue|Seq Scan on prompt_queue)/),
    ]);
    expect(scans).toEqual([]);
  });

  it("the detector flags a read of a whole table or index, not a lookup nor max() from an index's end (control)", async () => {
    env = await testEngine();
    const q = env.db.selectFrom("prompt_queue");
    const flagged = async (query: { compile(): CompiledQuery }) => tableScans(env, [query.compile()]);
    expect(await flagged(q.select("id").where("content", "=", "x"))).toHaveLength(1);
    expect(await flagged(q.select("seq").orderBy("seq"))).toEqual([
      expect.stringMatching(/^(SCAN prompt_queue USING COVERING INDEX|(Bitmap )?Index (Only )?Scan on)/),
    ]);
    expect(await flagged(q.select("id").where("id", "=", "x"))).toEqual([]);
    expect(await flagged(q.select((eb) => eb.fn.max("seq").as("top")))).toEqual([]);
    // A partial index holding the live rows: the active run's.
    expect(
      await flagged(
        env.db.selectFrom("remediation_runs").selectAll().where("status", "in", ["RUNNING", "BLOCKED"]),
      ),
    ).toEqual([]);
  });
});
