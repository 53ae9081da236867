import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "./engine.js";
import { installReadableByOthers, othersCanRead } from "./unprivilegedInstall.js";

const NOBODY = 65534;

describe("an install nobody can load", () => {
  let dir: string;
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("S-TEST-02: a package under a root-only directory is laid out again where nobody can load it, its node_modules included", async (ctx) => {
    if (process.getuid?.() !== 0) ctx.skip(); // only root can run a process as nobody
    dir = tempDir(); // 0700, root's: as /root is
    const root = path.join(dir, "clone");
    fs.mkdirSync(path.join(root, "dist", "bin"), { recursive: true });
    fs.mkdirSync(path.join(root, "db"));
    fs.mkdirSync(path.join(root, "node_modules", "dep"), { recursive: true });
    fs.writeFileSync(path.join(root, "package.json"), '{"type":"module"}');
    fs.writeFileSync(path.join(root, "node_modules", "dep", "package.json"), '{"main":"index.js"}');
    fs.writeFileSync(path.join(root, "node_modules", "dep", "index.js"), "module.exports = 'from dep';");
    fs.writeFileSync(
      path.join(root, "dist", "bin", "main.js"),
      'import dep from "dep";\nconsole.log(dep);\n',
    );
    const asNobody = (cli: string) =>
      execa(process.execPath, [cli], { uid: NOBODY, gid: NOBODY, reject: false, timeout: 30_000 });
    // Control: from where it is, nobody cannot load it.
    const there = path.join(root, "dist", "bin", "main.js");
    expect(othersCanRead(there)).toBe(false);
    expect((await asNobody(there)).exitCode).not.toBe(0);
    const install = await installReadableByOthers(root);
    try {
      expect(install.cli).not.toBe(there);
      const run = await asNobody(install.cli);
      expect(run.stderr).toBe("");
      expect(run.stdout).toBe("from dep");
    } finally {
      await install.remove();
    }
    expect(fs.existsSync(install.cli)).toBe(false);
  });

  it("an install others can already read is used where it is", async () => {
    dir = tempDir();
    fs.chmodSync(dir, 0o755);
    fs.mkdirSync(path.join(dir, "dist", "bin"), { recursive: true });
    fs.writeFileSync(path.join(dir, "dist", "bin", "main.js"), "", { mode: 0o644 });
    const install = await installReadableByOthers(dir);
    expect(install.cli).toBe(path.join(dir, "dist", "bin", "main.js"));
  });
});
