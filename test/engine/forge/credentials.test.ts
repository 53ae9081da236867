import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { installAskPass } from "../../../src/engine/forge/askpass.js";
import {
  forgeTokenPath,
  readForgeToken,
  removeForgeToken,
  writeForgeToken,
} from "../../../src/engine/forge/index.js";
import { tempDir } from "../../support/engine.js";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});
const dataDir = () => {
  const d = tempDir("codexpi-cred-");
  dirs.push(d);
  return d;
};
const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe("forge tokens under the data directory", () => {
  it("S-FG-09: a project's token, else the install's; files 0600 in a 0700 directory; removable", () => {
    const d = dataDir();
    expect(readForgeToken(d, "Widgets")).toBeNull();
    const install = writeForgeToken(d, null, "install-token-123456\n");
    expect(readForgeToken(d, "Widgets")).toEqual({ token: "install-token-123456", scope: "install" });
    const own = writeForgeToken(d, "Widgets", "project-token-abcdef");
    expect(own).toBe(forgeTokenPath(d, "Widgets"));
    expect(path.basename(own)).toBe("forge-Widgets.token");
    expect(readForgeToken(d, "Widgets")).toEqual({ token: "project-token-abcdef", scope: "project" });
    expect(mode(own)).toBe(0o600);
    expect(mode(install)).toBe(0o600);
    expect(mode(path.dirname(own))).toBe(0o700);
    expect(removeForgeToken(d, "Widgets")).toBe(true);
    expect(removeForgeToken(d, "Widgets")).toBe(false);
    expect(readForgeToken(d, "Widgets")?.scope).toBe("install");
  });

  it("S-FG-09: a token with a blank, a second line or too short is refused", () => {
    const d = dataDir();
    for (const bad of ["short", "two words-here", "line-one-123\nline-two-456", ""])
      expect(() => writeForgeToken(d, null, bad)).toThrow(/forge_token_invalid/);
    expect(fs.existsSync(forgeTokenPath(d, null))).toBe(false);
  });

  it("a link planted in place of a token file is not followed", () => {
    const d = dataDir();
    writeForgeToken(d, null, "install-token-123456");
    const elsewhere = path.join(d, "elsewhere");
    fs.writeFileSync(elsewhere, "linked-token-999999");
    fs.symlinkSync(elsewhere, forgeTokenPath(d, "Widgets"));
    expect(readForgeToken(d, "Widgets")).toEqual({ token: "install-token-123456", scope: "install" });
  });
});

describe("the askpass helper", () => {
  it("S-FG-02: answers git's two prompts for the expected remote only, the password from the secret file", async () => {
    const d = dataDir();
    const program = installAskPass(d);
    expect(mode(program)).toBe(0o700);
    expect(mode(path.dirname(program))).toBe(0o700);
    const secret = path.join(d, "secret");
    fs.writeFileSync(secret, "the-token-value-42");
    const env = {
      CODEXPI_ASKPASS_USER_PROMPT: "Username for 'https://git.example.com': ",
      CODEXPI_ASKPASS_PASSWORD_PROMPT: "Password for 'https://x-access-token@git.example.com': ",
      CODEXPI_ASKPASS_USER: "x-access-token",
      CODEXPI_ASKPASS_SECRET: secret,
    };
    const ask = (prompt: string) => execa(program, [prompt], { env, extendEnv: false, reject: false });
    expect((await ask(env.CODEXPI_ASKPASS_USER_PROMPT)).stdout).toBe("x-access-token");
    expect((await ask(env.CODEXPI_ASKPASS_PASSWORD_PROMPT)).stdout).toBe("the-token-value-42");
    for (const other of [
      "Password for 'https://x-access-token@evil.example': ",
      "Username for 'https://evil.example': ",
      "Password for 'https://x-access-token@git.example.com.evil.example': ",
      "",
    ]) {
      const r = await ask(other);
      expect(r.stdout).toBe("");
      expect(r.exitCode).not.toBe(0);
    }
    expect(fs.readFileSync(program, "utf8")).not.toContain("the-token-value-42");
  });
});
