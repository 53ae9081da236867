import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../support/engine.js";

// `npm start` runs scripts/build-if-stale.mjs first (prestart): a start must not spend a minute
// rebuilding a dist/ built from the same sources (issue 20). The script is run here from a copy
// in a scratch checkout whose compiler is a stand-in that records each build.
const FAKE_TSC = `import fs from "node:fs";
fs.appendFileSync("build.log", "tsc\\n");
fs.mkdirSync("dist/scripts", { recursive: true });
fs.writeFileSync("dist/scripts/bundle-cli.js", 'import fs from "node:fs"; fs.mkdirSync("dist/bin", { recursive: true }); fs.writeFileSync("dist/bin/main.js", "");');
`;

describe("npm start's build step", () => {
  let dir = "";
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("S-FH-05: builds when dist/ is missing or older than a source (edited, added or removed), once; never when up to date", async () => {
    dir = tempDir();
    fs.mkdirSync(path.join(dir, "scripts"));
    fs.copyFileSync("scripts/build-if-stale.mjs", path.join(dir, "scripts", "build-if-stale.mjs"));
    fs.mkdirSync(path.join(dir, "node_modules", "typescript", "bin"), { recursive: true });
    fs.writeFileSync(path.join(dir, "node_modules", "typescript", "bin", "tsc"), FAKE_TSC);
    fs.writeFileSync(path.join(dir, "package.json"), '{ "type": "module" }\n');
    fs.mkdirSync(path.join(dir, "src"));
    fs.writeFileSync(path.join(dir, "src", "a.ts"), "export {};\n");
    const start = async () => {
      const r = await execa(process.execPath, [path.join(dir, "scripts", "build-if-stale.mjs")], {
        cwd: dir,
        reject: false,
        timeout: 20_000,
      });
      expect(r.exitCode).toBe(0);
      return fs.readFileSync(path.join(dir, "build.log"), "utf8").split("\n").filter(Boolean).length;
    };
    expect(await start()).toBe(1); // no dist/: built
    expect(await start()).toBe(1); // twice: built once
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(dir, "src", "a.ts"), later, later);
    expect(await start()).toBe(2); // an edited source
    expect(await start()).toBe(2);
    fs.writeFileSync(path.join(dir, "src", "b.ts"), "export {};\n");
    expect(await start()).toBe(3); // a new one
    fs.rmSync(path.join(dir, "src", "b.ts"));
    expect(await start()).toBe(4); // a removed one
    fs.rmSync(path.join(dir, "dist", "bin", "main.js"));
    expect(await start()).toBe(5); // an output gone
    expect(await start()).toBe(5);
  });
});
