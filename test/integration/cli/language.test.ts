import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { CLI } from "./harness.js";
import { closest, editDistance } from "../../../src/suggest.js";

// The command line speaks one language: English unless CODEXPI_LOCALE says otherwise, with no
// raw (English) library text inside a French sentence; typos get a "did you mean".
const cli = (args: string[], env: Record<string, string> = {}) =>
  execa(process.execPath, [CLI, ...args], {
    // Only what the CLI needs: no CODEXPI_LOCALE from the test's own environment, a French LANG.
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      LANG: "fr_FR.UTF-8",
      CODEXPI_ENV_FILE: "none", // never the checkout's .env (the quick start's real tokens, chmod 600)
      ...env,
    },
    extendEnv: false,
    reject: false,
    timeout: 30_000,
  });

describe("the command line's language", () => {
  it("S-LANG-02: English by default (not from LANG); French with CODEXPI_LOCALE=fr", async () => {
    const en = await cli(["help"]);
    expect(en.exitCode).toBe(0);
    expect(en.stdout).toMatch(/^usage: codexpi COMMAND/);
    const fr = await cli(["help"], { CODEXPI_LOCALE: "fr" });
    expect(fr.stdout).toMatch(/^utilisation : codexpi COMMANDE/);
  });

  it("S-LANG-03: a mistyped option is named in the operator's language, with the option it most likely meant", async () => {
    const en = await cli(["ask", "demo", "hello", "--wiat"]);
    expect(en.exitCode).toBe(2);
    expect(en.stderr.split("\n")[0]).toBe("unknown option --wiat. Did you mean --wait?");
    const fr = await cli(["ask", "demo", "hello", "--wiat"], { CODEXPI_LOCALE: "fr" });
    expect(fr.stderr.split("\n")[0]).toBe("option inconnue : --wiat. Voulais-tu dire --wait ?");
    // Nothing of node's own English message inside the French one.
    expect(fr.stderr).not.toMatch(/Unknown option|To specify a positional/);
    const missing = await cli(["ask", "demo", "hello", "--conversation"], { CODEXPI_LOCALE: "fr" });
    expect(missing.stderr.split("\n")[0]).toBe("l’option --conversation attend une valeur.");
    // Far from every option: no guess.
    const far = await cli(["ask", "demo", "hello", "--zzzzzz"]);
    expect(far.stderr.split("\n")[0]).toBe("unknown option --zzzzzz.");
  });

  it("S-LANG-04: a mistyped command gets the command it most likely meant", async () => {
    const r = await cli(["porject", "list"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.split("\n")[0]).toBe("unknown command: porject. Did you mean project?");
    const far = await cli(["frobnicate"]);
    expect(far.stderr.split("\n")[0]).toBe("unknown command: frobnicate");
    expect(closest("docter", ["doctor", "decide"])).toBe("doctor");
    expect(editDistance("wiat", "wait")).toBe(2);
  });

  it("S-LANG-05: help lists what people run, not the commands only codexpi runs (worker)", async () => {
    const r = await cli(["help"]);
    expect(r.stdout).toContain("codexpi ask PROJECT PROMPT");
    expect(r.stdout).toContain("codexpi tick"); // operators run it
    expect(r.stdout).not.toContain("codexpi worker");
    // Positive control: still described when asked for by name.
    const worker = await cli(["help", "worker"]);
    expect(worker.stdout).toContain("codexpi worker QUEUE-ID");
    // And no "did you mean" an internal command (a public one may be suggested: `forge`).
    const unknown = (await cli(["worke"])).stderr.split("\n")[0];
    expect(unknown).toMatch(/^unknown command: worke\b/);
    expect(unknown).not.toContain("worker");
  });
});
