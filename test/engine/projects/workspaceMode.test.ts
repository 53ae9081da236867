import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { createEngineApi } from "../../../src/engine/api/index.js";
import { CLI_ACTOR, type Actor } from "../../../src/engine/api/model.js";
import { testEngine } from "../../support/engine.js";

// Issue 18: a project's workspace mode is admin-set through the API; `branch` is refused for a
// directory that is no git repository root. A project added through the API that is a repository
// root starts in `branch` mode.

const OWNER: Actor = { userId: "UOWNER", isAdmin: false };
const ADMIN: Actor = { userId: "UADMIN", isAdmin: true };

async function gitRepository(dir: string): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  await execa("git", ["init", "-q", dir]);
}

describe("a project's workspace mode", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  const modeOf = async (name: string) =>
    (
      await env.db
        .selectFrom("projects")
        .select("workspace_mode")
        .where("name", "=", name)
        .executeTakeFirstOrThrow()
    ).workspace_mode;

  it("is direct for a new project, and only an admin sets it (its owner is refused)", async () => {
    env = await testEngine();
    const api = createEngineApi(env.engine).projects;
    expect(env.project.workspace_mode).toBe("direct");
    await expect(api.setWorkspaceMode(OWNER, "demo", "direct")).rejects.toMatchObject({
      code: "forbidden",
      reason: "admins_only",
    });
    // Positive control: the same call by an admin (and by the CLI's operator) is accepted.
    expect((await api.setWorkspaceMode(ADMIN, "demo", "direct")).workspace_mode).toBe("direct");
    expect((await api.setWorkspaceMode(CLI_ACTOR, "demo", "direct")).workspace_mode).toBe("direct");
    await expect(api.setWorkspaceMode(ADMIN, "nowhere", "direct")).rejects.toMatchObject({
      reason: "project_not_found",
    });
  });

  it("branch is refused for a directory that is not a git repository, saying so", async () => {
    env = await testEngine();
    const api = createEngineApi(env.engine).projects;
    await expect(api.setWorkspaceMode(ADMIN, "demo", "branch")).rejects.toMatchObject({
      code: "invalid",
      reason: "workspace_not_a_repository",
      params: { name: "demo", path: env.project.path },
    });
    // A directory inside a repository is not its root: a lane would be a clone of the whole repository.
    await gitRepository(path.join(env.dir, "outer"));
    const inner = path.join(env.dir, "outer", "inner");
    fs.mkdirSync(inner);
    await env.addProject({ name: "inner", path: inner, ownerId: "UOWNER" });
    await expect(api.setWorkspaceMode(ADMIN, "inner", "branch")).rejects.toMatchObject({
      reason: "workspace_not_a_repository",
    });
    expect([await modeOf("demo"), await modeOf("inner")]).toEqual(["direct", "direct"]);
  });

  it("branch is accepted for a git repository root (lanes exist) and an unknown mode is refused", async () => {
    env = await testEngine();
    const api = createEngineApi(env.engine).projects;
    await gitRepository(path.join(env.dir, "repo"));
    await env.addProject({ name: "repo", ownerId: "UOWNER", workspaceMode: "direct" });
    expect(await modeOf("repo")).toBe("direct"); // positive control
    await expect(api.setWorkspaceMode(ADMIN, "repo", "branch")).resolves.toMatchObject({
      workspace_mode: "branch",
    });
    expect(await modeOf("repo")).toBe("branch");
    // An unknown mode (a caller past the front ends' checks) is refused, never written.
    await expect(api.setWorkspaceMode(ADMIN, "repo", "lanes" as "branch")).rejects.toMatchObject({
      reason: "workspace_mode_invalid",
    });
    expect(await modeOf("repo")).toBe("branch");
  });

  it("a project added through the API starts in branch mode when it is a git repository root, direct otherwise; an explicit mode wins", async () => {
    env = await testEngine();
    const api = createEngineApi(env.engine).projects;
    await gitRepository(path.join(env.dir, "repo"));
    fs.mkdirSync(path.join(env.dir, "plain"));
    await gitRepository(path.join(env.dir, "kept"));
    await api.add(ADMIN, { name: "repo", path: path.join(env.dir, "repo") });
    await api.add(ADMIN, { name: "plain", path: path.join(env.dir, "plain") });
    await api.add(ADMIN, { name: "kept", path: path.join(env.dir, "kept"), workspaceMode: "direct" });
    expect([await modeOf("repo"), await modeOf("plain"), await modeOf("kept")]).toEqual([
      "branch",
      "direct",
      "direct",
    ]);
  });
});
