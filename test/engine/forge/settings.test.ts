import fs from "node:fs";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { createEngineApi } from "../../../src/engine/api/index.js";
import { type Actor, CLI_ACTOR } from "../../../src/engine/api/model.js";
import { type Database, migrate, openDatabase } from "../../../src/engine/database.js";
import { projectForge } from "../../../src/engine/forge/index.js";
import { tempDir, testEngine } from "../../support/engine.js";
import { emptyTestDatabase, type TestDatabase } from "../../support/testDatabase.js";

// Issue 18: a project's remote and forge, admin-set; tokens stored by the API in files, never rows.

const OWNER: Actor = { userId: "UOWNER", isAdmin: false };
const ADMIN: Actor = { userId: "UADMIN", isAdmin: true };
const TOKEN = "settings-token-5e4d3c2b1a";

describe("a project's forge settings", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  it("S-FG-10: a new project pushes to origin with no forge named; only an admin changes it, null clears", async () => {
    env = await testEngine();
    const api = createEngineApi(env.engine).projects;
    expect(env.project).toMatchObject({ remote: "origin", forge: null, forge_url: null, forge_repo: null });
    const changes = {
      remote: "upstream",
      forge: "gitlab" as const,
      forgeUrl: "https://git.corp.example/api/v4/",
      forgeRepo: "team/sub/app",
    };
    await expect(api.setForge(OWNER, "demo", changes)).rejects.toMatchObject({
      code: "forbidden",
      reason: "admins_only",
    });
    // Positive control: the same change by an admin.
    expect(await api.setForge(ADMIN, "demo", changes)).toMatchObject({
      remote: "upstream",
      forge: "gitlab",
      forge_url: "https://git.corp.example/api/v4",
      forge_repo: "team/sub/app",
    });
    expect(await api.setForge(CLI_ACTOR, "demo", { forgeUrl: null, forgeRepo: null })).toMatchObject({
      remote: "upstream",
      forge: "gitlab",
      forge_url: null,
      forge_repo: null,
    });
    await expect(api.setForge(ADMIN, "nowhere", changes)).rejects.toMatchObject({
      reason: "project_not_found",
    });
  });

  it.each([
    [{ forge: "bitbucket" as "github" }, "forge_kind_invalid"],
    [{ remote: "-upload-pack=evil" }, "forge_remote_invalid"],
    [{ forge: "github" as const, forgeUrl: "http://github.corp.example/api/v3" }, "forge_url_invalid"],
    [{ forge: "github" as const, forgeUrl: "https://github.corp.example/api/v4" }, "forge_url_invalid"],
    [{ forge: "gitlab" as const, forgeUrl: "https://gitlab.corp.example/" }, "forge_url_invalid"],
    [{ forgeUrl: "https://user:pw@git.example/api/v4" }, "forge_url_invalid"],
    [{ forge: "github" as const, forgeRepo: "acme/widgets/extra" }, "forge_repo_invalid"],
    [{ forge: "gitlab" as const, forgeRepo: "acme/../other" }, "forge_repo_invalid"],
  ])("S-FG-10: %j is refused (%s) and nothing changes", async (changes, reason) => {
    env = await testEngine();
    const api = createEngineApi(env.engine).projects;
    await expect(api.setForge(ADMIN, "demo", changes)).rejects.toMatchObject({ code: "invalid", reason });
    const row = await env.db
      .selectFrom("projects")
      .selectAll()
      .where("name", "=", "demo")
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ remote: "origin", forge: null, forge_url: null, forge_repo: null });
  });

  it("S-FG-08: the forge is completed from the remote's URL; a self-hosted one from its API's host", async () => {
    env = await testEngine();
    const p = env.project;
    expect(projectForge(p, "git@github.com:acme/widgets.git")).toEqual({
      forge: "github",
      forgeUrl: "https://api.github.com",
      forgeRepo: "acme/widgets",
    });
    expect(projectForge(p, "https://git.corp.example/team/app.git")).toBeNull();
    const selfHosted = { ...p, forge: "gitlab" as const, forge_url: "https://git.corp.example/api/v4" };
    expect(projectForge(selfHosted, "git@git.corp.example:team/sub/app.git")).toEqual({
      forge: "gitlab",
      forgeUrl: "https://git.corp.example/api/v4",
      forgeRepo: "team/sub/app",
    });
    expect(projectForge({ ...selfHosted, forge_repo: "42" }, null)?.forgeRepo).toBe("42");
    expect(
      projectForge({ ...p, forge: "github" as const }, "https://github.com/acme/widgets")?.forgeUrl,
    ).toBe("https://api.github.com");
  });

  it("S-FG-09: tokens are stored by admins in files under credentials/, never in the database", async () => {
    env = await testEngine();
    const api = createEngineApi(env.engine).projects;
    await expect(api.setForgeToken(OWNER, "demo", TOKEN)).rejects.toMatchObject({ reason: "admins_only" });
    await expect(api.setForgeToken(ADMIN, "nowhere", TOKEN)).rejects.toMatchObject({
      reason: "project_not_found",
    });
    const file = await api.setForgeToken(ADMIN, "demo", TOKEN);
    expect(file).toBe(path.join(env.config.dataDir, "credentials", "forge-demo.token"));
    expect(fs.readFileSync(file, "utf8")).toBe(TOKEN);
    const install = await api.setForgeToken(CLI_ACTOR, null, `${TOKEN}-install`);
    expect(path.basename(install)).toBe("forge.token");
    const dbFiles = fs.readdirSync(env.config.dataDir).filter((f) => f.startsWith("codexpi.db"));
    for (const f of dbFiles)
      expect(fs.readFileSync(path.join(env.config.dataDir, f)).includes(TOKEN)).toBe(false);
    expect(await api.removeForgeToken(ADMIN, "demo")).toEqual({ file, removed: true });
    expect(await api.removeForgeToken(ADMIN, "demo")).toEqual({ file, removed: false });
  });
});

describe("migration 0020: a project's remote and forge", () => {
  let target: TestDatabase | undefined;
  let db: Database | undefined;
  afterEach(async () => {
    await db?.destroy();
    await target?.drop();
    db = target = undefined;
  });

  it("an existing project pushes to origin with no forge; migrating again changes nothing", async () => {
    target = await emptyTestDatabase(tempDir());
    db = openDatabase(target.target);
    const raw = db as unknown as Kysely<unknown>;
    await migrate(raw, "0017_engine_forgets_slack");
    await sql`insert into projects (id, name, path, owner_id, full_access, merge_confirmation_required, created_at)
      values ('p1', 'before', '/srv/before', 'U1', 0, 0, 1)`.execute(db);
    expect(await migrate(raw)).toContain("0020_project_forge");
    const row = await db.selectFrom("projects").selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ remote: "origin", forge: null, forge_url: null, forge_repo: null });
    expect(await migrate(raw)).toEqual([]);
  });
});
