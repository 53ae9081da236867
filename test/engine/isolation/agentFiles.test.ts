import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  ensurePrivateDirectory,
  ensureRegularFile,
  PlantedPathError,
  readRegularFile,
  regularFilesUnder,
  replaceFile,
} from "../../../src/engine/isolation/agentFiles.js";
import { tempDir } from "../../support/engine.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** An agent-writable root and a host directory outside it (what a planted link points to). */
function rig() {
  const root = tempDir("codexpi-agent-root-");
  const host = tempDir("codexpi-host-");
  dirs.push(root, host);
  return { root, host };
}

describe("file operations under a directory an agent writes", () => {
  it("replaceFile replaces a link planted at the target and leaves the link's target untouched", () => {
    const { root, host } = rig();
    const victim = path.join(host, "victim.txt");
    fs.writeFileSync(victim, "HOST-CONTENT");
    fs.symlinkSync(victim, path.join(root, "auth.json"));
    // Positive control: an ordinary write follows the planted link.
    fs.writeFileSync(path.join(root, "auth.json"), "FOLLOWED");
    expect(fs.readFileSync(victim, "utf8")).toBe("FOLLOWED");
    fs.writeFileSync(victim, "HOST-CONTENT");

    replaceFile(root, "auth.json", "ENGINE-COPY");
    expect(fs.readFileSync(victim, "utf8")).toBe("HOST-CONTENT");
    expect(fs.lstatSync(path.join(root, "auth.json")).isFile()).toBe(true);
    expect(fs.readFileSync(path.join(root, "auth.json"), "utf8")).toBe("ENGINE-COPY");
    expect(fs.statSync(path.join(root, "auth.json")).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(root)).toEqual(["auth.json"]); // no temporary file left behind
  });

  it("replaceFile refuses a link planted as a parent directory and writes nothing where it points", () => {
    const { root, host } = rig();
    fs.symlinkSync(host, path.join(root, ".codexpi"));
    // Positive control: an ordinary write goes through the linked directory.
    fs.writeFileSync(path.join(root, ".codexpi", "probe.md"), "x");
    expect(fs.existsSync(path.join(host, "probe.md"))).toBe(true);
    fs.rmSync(path.join(host, "probe.md"));

    expect(() => replaceFile(root, ".codexpi/inbox.md", "TEXT")).toThrow(PlantedPathError);
    expect(fs.readdirSync(host)).toEqual([]);
  });

  it("replaceFile makes missing directories and replaces a directory planted at the target", () => {
    const { root } = rig();
    fs.mkdirSync(path.join(root, "a"));
    fs.mkdirSync(path.join(root, "a", "f.md"));
    replaceFile(root, "a/f.md", "ONE");
    replaceFile(root, "b/c/g.md", "TWO");
    expect(fs.readFileSync(path.join(root, "a", "f.md"), "utf8")).toBe("ONE");
    expect(fs.readFileSync(path.join(root, "b", "c", "g.md"), "utf8")).toBe("TWO");
  });

  it("ensureRegularFile keeps a regular file and replaces a link, a directory or a FIFO by an empty file", () => {
    const { root, host } = rig();
    fs.writeFileSync(path.join(root, "config.toml"), "KEPT");
    fs.symlinkSync(path.join(host, "absent.md"), path.join(root, "AGENTS.md"));
    fs.mkdirSync(path.join(root, "dir.json"));
    fs.writeFileSync(path.join(root, "dir.json", "inner"), "x");
    const fifo = path.join(root, "fifo.json");
    execFileSync("mkfifo", [fifo]);
    for (const name of ["config.toml", "AGENTS.md", "dir.json", "fifo.json", "new.json"])
      ensureRegularFile(root, name);
    expect(fs.readFileSync(path.join(root, "config.toml"), "utf8")).toBe("KEPT");
    for (const name of ["AGENTS.md", "dir.json", "fifo.json", "new.json"]) {
      expect(fs.lstatSync(path.join(root, name)).isFile()).toBe(true);
      expect(fs.readFileSync(path.join(root, name), "utf8")).toBe("");
    }
    expect(fs.readdirSync(host)).toEqual([]); // nothing made at the link's target
  });

  it("readRegularFile reads a file, and returns null for a link to one or a file behind a linked directory", () => {
    const { root, host } = rig();
    fs.writeFileSync(path.join(host, "secret.jsonl"), "HOST-SECRET");
    fs.mkdirSync(path.join(root, "sessions"));
    fs.writeFileSync(path.join(root, "sessions", "own.jsonl"), "OWN");
    fs.symlinkSync(path.join(host, "secret.jsonl"), path.join(root, "sessions", "link.jsonl"));
    fs.symlinkSync(host, path.join(root, "linked"));
    expect(readRegularFile(root, "sessions/own.jsonl")?.toString()).toBe("OWN"); // positive control
    expect(fs.readFileSync(path.join(root, "sessions", "link.jsonl"), "utf8")).toBe("HOST-SECRET"); // and the link works
    expect(readRegularFile(root, "sessions/link.jsonl")).toBeNull();
    expect(readRegularFile(root, "linked/secret.jsonl")).toBeNull();
    expect(readRegularFile(root, "sessions/missing.jsonl")).toBeNull();
    execFileSync("mkfifo", [path.join(root, "sessions", "fifo.jsonl")]);
    expect(readRegularFile(root, "sessions/fifo.jsonl")).toBeNull(); // and does not hang
  });

  it("regularFilesUnder lists regular files and enters no linked directory, nor a linked start", () => {
    const { root, host } = rig();
    fs.writeFileSync(path.join(host, "theirs.jsonl"), "x");
    fs.mkdirSync(path.join(root, "sessions", "2026"), { recursive: true });
    fs.writeFileSync(path.join(root, "sessions", "2026", "mine.jsonl"), "x");
    fs.symlinkSync(host, path.join(root, "sessions", "elsewhere"));
    fs.symlinkSync(path.join(host, "theirs.jsonl"), path.join(root, "sessions", "theirs.jsonl"));
    expect(regularFilesUnder(root, "sessions")).toEqual([path.join("sessions", "2026", "mine.jsonl")]);
    fs.rmSync(path.join(root, "sessions"), { recursive: true });
    fs.symlinkSync(host, path.join(root, "sessions"));
    expect(fs.readdirSync(path.join(root, "sessions"))).toEqual(["theirs.jsonl"]); // positive control
    expect(regularFilesUnder(root, "sessions")).toEqual([]);
  });

  it("ensurePrivateDirectory keeps a sound state directory and makes again one that is a link or open to others", () => {
    const { root, host } = rig();
    const state = path.join(root, "codex-home");
    expect(ensurePrivateDirectory(state)).toBe(false);
    fs.writeFileSync(path.join(state, "kept"), "x");
    expect(ensurePrivateDirectory(state)).toBe(false);
    expect(fs.existsSync(path.join(state, "kept"))).toBe(true); // positive control: sound, kept

    fs.chmodSync(state, 0o777);
    expect(ensurePrivateDirectory(state)).toBe(true);
    expect(fs.readdirSync(state)).toEqual([]);
    expect(fs.statSync(state).mode & 0o777).toBe(0o700);

    fs.rmSync(state, { recursive: true });
    fs.writeFileSync(path.join(host, "host-file"), "HOST");
    fs.symlinkSync(host, state);
    expect(ensurePrivateDirectory(state)).toBe(true);
    expect(fs.lstatSync(state).isDirectory()).toBe(true);
    expect(fs.readdirSync(host)).toEqual(["host-file"]); // the link went, not what it pointed to
  });
});

describe("mount points made by concurrent turns of one project", () => {
  // Each process makes the same 300 nested names at the same instant; `naive` is the earlier
  // check-then-create (lstat, then mkdir / open with O_EXCL), which the race breaks.
  const racer = (entry: string, root: string, startAt: number, naive: boolean) => `
    import fs from "node:fs";
    import path from "node:path";
    const { ensureRegularFile } = await import(${JSON.stringify(entry)});
    const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
    const naive = (root, rel) => {
      const dir = path.join(root, path.dirname(rel));
      if (!fs.lstatSync(dir, { throwIfNoEntry: false })) fs.mkdirSync(dir, { mode: 0o700 });
      const target = path.join(root, rel);
      if (fs.lstatSync(target, { throwIfNoEntry: false })?.isFile()) return;
      fs.closeSync(fs.openSync(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600));
    };
    while (Date.now() < ${startAt});
    let failures = 0;
    for (let i = 0; i < 300; i++) {
      try { (${naive} ? naive : ensureRegularFile)(${JSON.stringify(root)}, "d" + i + "/auth.json"); }
      catch (err) { if (err.code === "EEXIST") failures++; else throw err; }
    }
    process.stdout.write(String(failures));
  `;
  const race = async (naive: boolean) => {
    const { root } = rig();
    const entry = path.resolve("dist/src/engine/isolation/agentFiles.js");
    const startAt = Date.now() + 1_500;
    const { execa } = await import("execa");
    const runs = await Promise.all(
      [1, 2, 3, 4].map(() =>
        execa(process.execPath, ["--input-type=module", "-e", racer(entry, root, startAt, naive)], {
          timeout: 30_000,
        }),
      ),
    );
    for (let i = 0; i < 300; i++)
      expect(fs.lstatSync(path.join(root, `d${i}`, "auth.json")).isFile()).toBe(true);
    return runs.reduce((sum, r) => sum + Number(r.stdout), 0);
  };

  it("ensureRegularFile made at once by four processes never fails on a name another just made (the naive check-then-create does)", async () => {
    // Positive control: the race is real here (retried a few times: it depends on scheduling).
    let naiveFailures = 0;
    for (let round = 0; round < 5 && naiveFailures === 0; round++) naiveFailures = await race(true);
    expect(naiveFailures).toBeGreaterThan(0);
    expect(await race(false)).toBe(0);
  }, 60_000);
});
