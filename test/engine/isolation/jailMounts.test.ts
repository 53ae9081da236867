import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { workspaceMounts } from "../../../src/engine/isolation/jail.js";
import { tempDir } from "../../support/engine.js";

// The worker reads the workspace's alternates (agent-written) to bind the object stores a clone
// borrows: an expected store listed in a regular file is bound; a link or a FIFO planted there is
// never followed or opened (a FIFO would hang the worker before Codex starts).
let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function workspaceBorrowing(store: string) {
  const root = tempDir("codexpi-jailmounts-");
  dirs.push(root);
  const workspace = path.join(root, "ws");
  fs.mkdirSync(path.join(workspace, ".git", "objects", "info"), { recursive: true });
  fs.mkdirSync(store, { recursive: true });
  return { root, workspace, alternates: path.join(workspace, ".git", "objects", "info", "alternates") };
}

describe("the workspace's borrowed object stores", () => {
  it("an expected store listed in a regular alternates file is bound read-only (positive control)", () => {
    const store = path.join(tempDir("codexpi-store-"), "objects");
    dirs.push(path.dirname(store));
    const w = workspaceBorrowing(store);
    fs.writeFileSync(w.alternates, `${store}\n`);
    expect(workspaceMounts(w.workspace, true, [store]).map((m) => [m.source, m.writable])).toEqual([
      [w.workspace, true],
      [fs.realpathSync(store), false],
    ]);
  });

  it("alternates planted as a link to a file naming the store, or as a FIFO, bind nothing and never block", () => {
    const store = path.join(tempDir("codexpi-store-"), "objects");
    dirs.push(path.dirname(store));
    const w = workspaceBorrowing(store);
    const elsewhere = path.join(w.root, "elsewhere");
    fs.writeFileSync(elsewhere, `${store}\n`);
    fs.symlinkSync(elsewhere, w.alternates);
    expect(workspaceMounts(w.workspace, true, [store])).toHaveLength(1);
    fs.rmSync(w.alternates);
    execFileSync("mkfifo", [w.alternates]);
    expect(workspaceMounts(w.workspace, true, [store])).toHaveLength(1);
  });
});
