import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { openDatabase } from "../../../src/engine/database.js";
import { describe, expect, it } from "vitest";
import { cliHarness, CLI } from "./harness.js";

describe("codexpi project add, doctor and serve on the install's layout (real binary)", () => {
  const t = cliHarness();

  it("serve, doctor and project add refuse a project holding the data directory or the running install, naming both paths", async () => {
    await t.setup();
    const real = fs.realpathSync(t.dir);
    const data = path.join(real, "data");
    const install = fs.realpathSync(path.resolve("."));
    // project add: the directory holding the data, the install, the install through a link.
    const holder = await t.cli("project", "add", "holder", t.dir);
    expect(holder.exitCode).toBe(1);
    expect(holder.stderr).toContain(`Le chemin ${real} contient le dossier de données de codexpi (${data})`);
    const installed = await t.cli("project", "add", "CodexPi (Self)", install, "--role", "self");
    expect(installed.exitCode).toBe(1);
    expect(installed.stderr).toContain(`contient l’installation de codexpi en service (${install})`);
    fs.symlinkSync(install, path.join(t.dir, "install-link"));
    expect((await t.cli("project", "add", "linked", path.join(t.dir, "install-link"))).stderr).toContain(
      `(${install})`,
    );
    // Control: a separate directory is registered, and the layout is reported sound.
    expect((await t.cli("project", "add", "demo", path.join(t.dir, "demo"))).exitCode).toBe(0);
    expect((await t.cli("doctor")).stdout).toMatch(/^✓ emplacements : /m);

    // A project registered before these checks existed, holding the data directory.
    t.db = openDatabase(path.join(t.dir, "data", "codexpi.db"));
    await t.db
      .insertInto("projects")
      .values({
        id: "legacy-id",
        name: "legacy",
        path: t.dir,
        owner_id: null,
        full_access: 0,
        execution_group: null,
        merge_confirmation_required: 0,
        channel_id: null,
        role: "project",
        created_at: Date.now(),
      })
      .execute();
    const doctor = await t.cli("doctor");
    expect(doctor.exitCode).toBe(1);
    expect(doctor.stdout).toContain(
      `✗ emplacements : le répertoire de données ${data} est dans le projet « legacy » (${real})`,
    );
    const serve = await execa(process.execPath, [CLI, "serve"], {
      env: { ...t.env, CODEXPI_HEADLESS: "1", HEALTH_PORT: "0", CODEXPI_METRICS_PORT: "0" },
      reject: false,
      timeout: 30_000,
    });
    expect(serve.exitCode).toBe(1);
    expect(serve.stderr).toContain(
      `codexpi serve refuse de démarrer : le répertoire de données ${data} est dans le projet « legacy » (${real})`,
    );
    // The way out: remove that project (its directory stays), and the layout is sound again.
    expect((await t.cli("project", "remove", "legacy")).exitCode).toBe(0);
    expect(fs.existsSync(t.dir)).toBe(true);
    expect((await t.cli("doctor")).stdout).toMatch(/^✓ emplacements : /m);
    // The same refusal in English for an English-speaking operator.
    t.env.CODEXPI_LOCALE = "en";
    const englishDoctor = await t.cli("doctor");
    expect(englishDoctor.stdout).toMatch(/^✓ layout: no project holds the data directory or the install$/m);
  });
});
