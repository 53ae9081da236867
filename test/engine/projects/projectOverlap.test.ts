/**
 * Projects never overlap (issue 16, finding 4): an agent may write anywhere in its project's
 * directory, `.git` included below its top, so a project inside another's would have its files and
 * git hooks written by the outer project's agents. Every way a project gets a directory refuses one
 * inside, containing or equal to another's, symlinks resolved on both sides.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { installLayoutProblems, realPath } from "../../../src/engine/projects/layout.js";
import { addProject, CLI_ACTOR, updateProject } from "../../../src/engine/projects/index.js";
import { createSpecialist } from "../../../src/engine/coordination/specialists.js";
import type { EngineError } from "../../../src/engine/errors.js";
import { newId } from "../../../src/engine/ids.js";
import { engineErrorText } from "../../../src/i18n/index.js";
import { testEngine } from "../../support/engine.js";

let env: Awaited<ReturnType<typeof testEngine>> | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** A fresh engine and a directory `rel` under its temp dir, made on the way. */
async function setUp() {
  env = await testEngine();
  const e = env;
  const dir = (rel: string) => {
    const p = path.join(e.dir, "tree", rel);
    fs.mkdirSync(p, { recursive: true });
    return p;
  };
  const add = (name: string, p: string) => addProject(e.db, e.clock, { name, path: p });
  return { env: e, dir, add };
}

/** What registering `name` at `p` came to: the project's name, or the refusal. */
const outcome = (attempt: Promise<{ name: string }>) =>
  attempt.then(
    (p) => p.name,
    (err: unknown) => err as EngineError,
  );

describe("projects never overlap", () => {
  it("a project inside another's directory is refused with a reason naming the other project", async () => {
    const { dir, add } = await setUp();
    await add("outer", dir("x"));
    await expect(add("billing", dir("x/services/billing"))).rejects.toMatchObject({
      code: "invalid",
      reason: "project_overlaps",
      params: { name: "outer", other: realPath(dir("x")) },
    });
    // A directory whose name starts with two dots is inside all the same.
    await expect(add("dotted", dir("x/..hidden"))).rejects.toMatchObject({ params: { name: "outer" } });
  });

  it("a project containing another's directory is refused", async () => {
    const { dir, add } = await setUp();
    await add("billing", dir("x/services/billing"));
    await expect(add("outer", dir("x"))).rejects.toMatchObject({
      reason: "project_overlaps",
      params: { name: "billing" },
    });
  });

  it("a project at the same directory as another is refused, spelled differently or not", async () => {
    const { dir, add } = await setUp();
    await add("first", dir("x"));
    await expect(add("second", dir("x"))).rejects.toMatchObject({ params: { name: "first" } });
    await expect(add("third", `${dir("x")}/./sub/..`)).rejects.toMatchObject({ params: { name: "first" } });
  });

  it("a symlink hides no overlap, on the new project's side or on the registered one's", async () => {
    const { env, dir, add } = await setUp();
    dir("x/services/billing");
    fs.symlinkSync(dir("x"), path.join(env.dir, "link-to-x"));
    fs.symlinkSync(dir("x/services/billing"), path.join(env.dir, "link-to-billing"));
    // Registered through a link, met by its real path.
    await add("outer", path.join(env.dir, "link-to-x"));
    await expect(add("billing", dir("x/services/billing"))).rejects.toMatchObject({
      reason: "project_overlaps",
      params: { name: "outer" },
    });
    // Met through a link: the same directory as outer's, and one inside it.
    await expect(add("twin", dir("x"))).rejects.toMatchObject({ params: { name: "outer" } });
    await expect(add("billing", path.join(env.dir, "link-to-billing"))).rejects.toMatchObject({
      params: { name: "outer" },
    });
    expect(await env.db.selectFrom("projects").select("name").orderBy("name").execute()).toEqual([
      { name: "demo" },
      { name: "outer" },
    ]);
  });

  it("positive control: a sibling whose name only starts like another's (/x/ab beside /x/a) is accepted", async () => {
    const { dir, add } = await setUp();
    await add("a", dir("x/a"));
    expect(await outcome(add("ab", dir("x/ab")))).toBe("ab");
    expect(await outcome(add("a-dot", dir("x/a.d")))).toBe("a-dot");
    expect(await outcome(add("dots", dir("x/..a")))).toBe("dots");
  });

  it("project set --path onto another's directory is refused and the project stays; a separate directory is accepted", async () => {
    const { env, dir, add } = await setUp();
    await add("outer", dir("x"));
    const billing = await add("billing", dir("elsewhere/billing"));
    await expect(
      updateProject(env.db, CLI_ACTOR, "billing", { path: dir("x/services/billing") }),
    ).rejects.toMatchObject({ reason: "project_overlaps", params: { name: "outer" } });
    await expect(updateProject(env.db, CLI_ACTOR, "billing", { path: dir("x") })).rejects.toMatchObject({
      params: { name: "outer" },
    });
    expect(
      (await env.db.selectFrom("projects").select("path").where("id", "=", billing.id).executeTakeFirst())
        ?.path,
    ).toBe(dir("elsewhere/billing"));
    // Its own directory, or a move below where it already is, overlaps nothing but itself.
    const moved = await updateProject(env.db, CLI_ACTOR, "billing", { path: dir("elsewhere/billing/v2") });
    expect(moved.path).toBe(dir("elsewhere/billing/v2"));
  });

  it("a project with work queued or running is not moved: its agent works in the old directory", async () => {
    const { env, dir } = await setUp();
    await startConversation(env.db, env.clock, env.project, "busy", "UOWNER");
    await expect(updateProject(env.db, CLI_ACTOR, "demo", { path: dir("new-home") })).rejects.toMatchObject({
      code: "conflict",
      reason: "project_busy",
    });
  });

  it("the refusal names the other project and its directory, in English and in French", async () => {
    const { dir, add } = await setUp();
    await add("outer", dir("x"));
    const refused = (await outcome(add("billing", dir("x/services/billing")))) as EngineError;
    const real = realPath(dir("x"));
    expect(engineErrorText("en", refused)).toContain(`overlaps the project outer (${real})`);
    expect(engineErrorText("fr", refused)).toContain(`chevauche le projet outer (${real})`);
  });

  it("a specialist's new workspace is refused where a project holds the directory it would go in", async () => {
    const { env, add } = await setUp();
    const specialists = path.join(env.config.dataDir, "specialists");
    fs.mkdirSync(specialists, { recursive: true });
    await add("squatter", specialists);
    await expect(
      createSpecialist(env.engine, CLI_ACTOR, {
        name: "Studio Interface",
        description: "Conçoit les interfaces mobiles et leurs règles d’intégration.",
        capabilities: ["design.interface"],
      }),
    ).rejects.toMatchObject({ reason: "project_overlaps", params: { name: "squatter" } });
  });

  it("overlapping projects already registered (an older database) are reported once per pair, the inner one first", async () => {
    const { env, dir } = await setUp();
    const insert = (name: string, p: string) =>
      env.db
        .insertInto("projects")
        .values({
          id: newId(),
          name,
          path: p,
          owner_id: null,
          full_access: 0,
          execution_group: null,
          merge_confirmation_required: 0,
          channel_id: null,
          role: "project",
          created_at: 0,
        })
        .execute();
    await insert("outer", dir("x"));
    await insert("billing", dir("x/services/billing"));
    await insert("twin", dir("x"));
    await insert("ab", dir("ab"));
    const roots = { dataDir: env.config.dataDir, installDir: dir("install") };
    const found = (await installLayoutProblems(env.db, roots)).map((p) =>
      p.kind === "project_overlap" ? [p.project, p.other, p.same] : p.kind,
    );
    expect(found).toHaveLength(3);
    expect(found).toEqual(
      expect.arrayContaining([
        ["billing", "outer", false],
        ["billing", "twin", false],
        [expect.stringMatching(/^(outer|twin)$/), expect.stringMatching(/^(outer|twin)$/), true],
      ]),
    );
  });
});
