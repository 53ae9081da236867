import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  collectOutbox,
  deliverToInbox,
  fileKindOf,
  pruneStaleFiles,
  safeFileName,
  stagingDirOf,
} from "../../../src/engine/files/index.js";
import { codexExecArgs } from "../../../src/engine/codex/codexArgs.js";
import { tokenMayGoTo } from "../../../src/bot/files/download.js";

// Issue 19, items 2 and 3: the pure rules (names, kinds, where the token may go, exec's argv) and
// the file moves in and out of a workspace an agent may have written (no link followed).

const LIMITS = { maxOutBytes: 1024, maxOutCount: 2 };

describe("files: names, kinds, token hosts, exec argv", () => {
  it("S-FILE-06: names are made safe, kinds are an allow-list, the token goes to Slack only, each image is one --image=", () => {
    expect(safeFileName("../../etc/passwd")).toBe("passwd");
    expect(safeFileName("..\\..\\boot.ini")).toBe("boot.ini");
    expect(safeFileName(".bashrc")).toBe("bashrc");
    expect(safeFileName("..")).toBe("file");
    expect(safeFileName("rapport d'été (v2).csv")).toBe("rapport_d_ete_v2_.csv");
    const long = safeFileName(`${"x".repeat(300)}.png`);
    expect([long.length, long.endsWith(".png")]).toEqual([100, true]);

    expect(fileKindOf("Screen.PNG")).toEqual({ kind: "image" });
    expect(fileKindOf("notes.txt")).toEqual({ kind: "file" });
    expect(fileKindOf("spec.pdf")).toEqual({ kind: "file" });
    expect(fileKindOf("README", "text/plain")).toEqual({ kind: "file" });
    expect(fileKindOf("setup.exe", "text/plain")).toEqual({ refused: "executable" });
    expect(fileKindOf("src.tar.gz")).toEqual({ refused: "archive" });
    expect(fileKindOf("movie.mp4", "video/mp4")).toEqual({ refused: "kind" });

    expect(tokenMayGoTo("https://files.slack.com/files-pri/T1-F1/a.png", undefined)).toBe(true);
    expect(tokenMayGoTo("https://files.slack-gov.com/files-pri/T1-F1/a.png", undefined)).toBe(true);
    expect(tokenMayGoTo("http://files.slack.com/files-pri/T1-F1/a.png", undefined)).toBe(false);
    expect(tokenMayGoTo("https://evil.example/slack.com/a.png", undefined)).toBe(false);
    expect(tokenMayGoTo("https://slack.com.evil.example/a.png", undefined)).toBe(false);
    expect(tokenMayGoTo("http://127.0.0.1:9/files-pri/F1/a", "http://127.0.0.1:9/api/")).toBe(true);
    expect(tokenMayGoTo("http://127.0.0.1:8/files-pri/F1/a", "http://127.0.0.1:9/api/")).toBe(false);

    const args = codexExecArgs({
      cwd: "/w",
      fullAccess: false,
      threadId: "t1",
      images: ["/w/a.png", "/w/b.gif"],
    });
    expect(args.slice(-3)).toEqual(["--image=/w/a.png", "--image=/w/b.gif", "-"]);
    expect(args.indexOf("resume")).toBeLessThan(args.indexOf("--image=/w/a.png"));
    expect(
      codexExecArgs({ cwd: "/w", fullAccess: false, threadId: null }).some((a) => a.startsWith("--image")),
    ).toBe(false);
  });
});

describe("files: moves in and out of a workspace", () => {
  let dir: string;
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A data directory with one staged file per name, and an empty workspace. */
  function setUp(files: Record<string, string>) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-files-"));
    const dataDir = path.join(dir, "data");
    const workdir = path.join(dir, "work");
    fs.mkdirSync(workdir, { recursive: true });
    const staging = stagingDirOf(dataDir, "Ev1");
    fs.mkdirSync(staging, { recursive: true });
    const attachments = Object.entries(files).map(([name, content]) => {
      fs.writeFileSync(path.join(staging, name), content);
      return { name, kind: "file" as const, size: content.length, staged: path.join(staging, name) };
    });
    return { dataDir, workdir, attachments };
  }

  it("S-FILE-07: a taken name gets a number; a staged path outside the staging area is not read; a planted .codexpi link is never written through", () => {
    const { dataDir, workdir, attachments } = setUp({ "a.txt": "one" });
    fs.mkdirSync(path.join(workdir, ".codexpi", "inbox"), { recursive: true });
    fs.writeFileSync(path.join(workdir, ".codexpi", "inbox", "a.txt"), "earlier");
    const secret = path.join(dir, "secret.txt");
    fs.writeFileSync(secret, "SECRET");
    const outside = { name: "s.txt", kind: "file" as const, size: 6, staged: secret };
    const got = deliverToInbox(dataDir, workdir, [...attachments, outside], "en");
    expect(got.note).toContain(".codexpi/inbox/a-2.txt");
    expect(got.note).not.toContain("s.txt");
    expect(fs.readdirSync(path.join(workdir, ".codexpi", "inbox")).sort()).toEqual(["a-2.txt", "a.txt"]);

    // The positive control above wrote; a link as `.codexpi` is refused and its target untouched.
    const elsewhere = path.join(dir, "elsewhere");
    fs.mkdirSync(elsewhere);
    fs.rmSync(path.join(workdir, ".codexpi"), { recursive: true });
    fs.symlinkSync(elsewhere, path.join(workdir, ".codexpi"));
    expect(() => deliverToInbox(dataDir, workdir, attachments, "en")).toThrow(/not a directory/);
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });

  it("S-FILE-07: the outbox's regular files are moved out within the limits; links and folders are refused and removed, their targets untouched; an outbox that is a link is not read", () => {
    const { dataDir, workdir } = setUp({});
    const outbox = path.join(workdir, ".codexpi", "outbox");
    fs.mkdirSync(outbox, { recursive: true });
    const target = path.join(dir, "target.txt");
    fs.writeFileSync(target, "TARGET");
    fs.writeFileSync(path.join(outbox, "a.txt"), "A");
    fs.writeFileSync(path.join(outbox, "big.bin"), Buffer.alloc(2048));
    fs.writeFileSync(path.join(outbox, "c.txt"), "C");
    fs.writeFileSync(path.join(outbox, "d.txt"), "D");
    fs.symlinkSync(target, path.join(outbox, "link.txt"));
    fs.mkdirSync(path.join(outbox, "sub"));
    const dest = path.join(dataDir, "files", "out", "q1");
    const got = collectOutbox(workdir, dest, LIMITS);
    expect(got.files).toEqual([
      { name: "a.txt", size: 1 },
      { name: "c.txt", size: 1 },
    ]);
    expect(got.refused).toEqual([
      { name: "big.bin", reason: "too_large", size: 2048 },
      { name: "d.txt", reason: "too_many" },
      { name: "link.txt", reason: "not_a_file" },
      { name: "sub", reason: "not_a_file" },
    ]);
    expect(fs.readdirSync(outbox)).toEqual([]);
    expect(fs.readdirSync(dest).sort()).toEqual(["a.txt", "c.txt"]);
    expect(fs.readFileSync(target, "utf8")).toBe("TARGET");

    // An outbox that is a link to a directory of files: nothing is read or removed there.
    const other = path.join(dir, "other");
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, "x.txt"), "X");
    fs.rmSync(outbox, { recursive: true });
    fs.symlinkSync(other, outbox);
    expect(collectOutbox(workdir, dest, LIMITS)).toEqual({ files: [], refused: [] });
    expect(fs.readdirSync(other)).toEqual(["x.txt"]);
  });

  it("S-FILE-08: housekeeping removes staged and handed-back folders older than its bound, and keeps the recent ones", () => {
    const { dataDir } = setUp({ "a.txt": "one" });
    const out = path.join(dataDir, "files", "out", "q-old");
    fs.mkdirSync(out, { recursive: true });
    const old = (Date.now() - 10 * 24 * 3600_000) / 1000;
    fs.utimesSync(out, old, old);
    const staged = stagingDirOf(dataDir, "Ev1");
    expect(pruneStaleFiles(dataDir, Date.now() - 7 * 24 * 3600_000)).toBe(1);
    expect([fs.existsSync(out), fs.existsSync(staged)]).toEqual([false, true]);
    fs.utimesSync(staged, old, old);
    expect(pruneStaleFiles(dataDir, Date.now() - 7 * 24 * 3600_000)).toBe(1);
    expect(fs.existsSync(staged)).toBe(false);
  });
});
