import fs from "node:fs";
import path from "node:path";
import { describeProblem } from "../../../src/cli/layoutCheck.js";
import { afterEach, describe, expect, it } from "vitest";
import { isWithin, layoutProblems, projectProblems, realPath } from "../../../src/engine/projects/layout.js";
import { addProject } from "../../../src/engine/projects/index.js";
import { tempDir, testEngine } from "../../support/engine.js";

const ROOTS = { dataDir: "/srv/codexpi-data", installDir: "/opt/codexpi" };

describe("install layout rules", () => {
  it("a project may hold neither the data directory nor the install; beside or below them is fine", () => {
    expect(projectProblems("home", "/srv", ROOTS)).toEqual([
      { kind: "data_in_project", project: "home", projectPath: "/srv", dataDir: "/srv/codexpi-data" },
    ]);
    expect(projectProblems("self", "/opt/codexpi", ROOTS)).toEqual([
      {
        kind: "install_in_project",
        project: "self",
        projectPath: "/opt/codexpi",
        installDir: "/opt/codexpi",
      },
    ]);
    expect(projectProblems("root", "/", ROOTS).map((p) => p.kind)).toEqual([
      "data_in_project",
      "install_in_project",
    ]);
    // Controls: a sibling whose name merely starts the same, a separate checkout, a specialist's workspace under the data dir.
    expect(projectProblems("sibling", "/srv/codexpi", ROOTS)).toEqual([]);
    expect(projectProblems("source", "/home/ops/codexpi-src", ROOTS)).toEqual([]);
    expect(projectProblems("specialist", "/srv/codexpi-data/specialists/x", ROOTS)).toEqual([]);
    expect(
      layoutProblems(
        [
          { name: "a", path: "/srv/demo" },
          { name: "b", path: "/opt" },
        ],
        ROOTS,
      ),
    ).toHaveLength(1);
    expect(isWithin("/a/b", "/a")).toBe(true);
    expect(isWithin("/ab", "/a")).toBe(false);
  });

  it("every refusal names both paths, in each language", () => {
    for (const p of projectProblems("root", "/", ROOTS)) {
      const text = describeProblem("en", p);
      expect(text).toContain('"root" (/)');
      expect(text).toContain(p.kind === "data_in_project" ? ROOTS.dataDir : ROOTS.installDir);
      const fr = describeProblem("fr", p);
      expect(fr).toContain("« root » (/)");
      expect(fr).toContain(p.kind === "data_in_project" ? ROOTS.dataDir : ROOTS.installDir);
    }
  });

  it("real paths resolve symbolic links, also for a directory that does not exist yet", () => {
    const dir = fs.realpathSync(tempDir());
    try {
      fs.mkdirSync(path.join(dir, "real"));
      fs.symlinkSync(path.join(dir, "real"), path.join(dir, "link"));
      expect(realPath(path.join(dir, "link"))).toBe(path.join(dir, "real"));
      expect(realPath(path.join(dir, "link", "data", "later"))).toBe(path.join(dir, "real", "data", "later"));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    }
  });
});

describe("registering a project with the install's roots", () => {
  let env: Awaited<ReturnType<typeof testEngine>> | undefined;
  afterEach(async () => env?.close());

  it("a path holding the data directory or the install, even through a link, is refused; a separate directory is accepted", async () => {
    env = await testEngine();
    const install = path.join(env.dir, "install");
    fs.mkdirSync(install);
    fs.symlinkSync(install, path.join(env.dir, "install-link"));
    const roots = { dataDir: env.config.dataDir, installDir: install };
    await expect(
      addProject(env.db, env.clock, { name: "holder", path: env.dir }, roots),
    ).rejects.toMatchObject({
      code: "invalid",
      reason: "project_holds_data",
      params: { other: realPath(env.config.dataDir) },
    });
    await expect(
      addProject(
        env.db,
        env.clock,
        { name: "self", path: path.join(env.dir, "install-link"), role: "self" },
        roots,
      ),
    ).rejects.toMatchObject({
      code: "invalid",
      reason: "project_holds_install",
      params: { path: realPath(install) },
    });
    fs.mkdirSync(path.join(env.dir, "source"));
    await expect(
      addProject(
        env.db,
        env.clock,
        { name: "source", path: path.join(env.dir, "source"), role: "self" },
        roots,
      ),
    ).resolves.toMatchObject({ name: "source" });
  });
});
