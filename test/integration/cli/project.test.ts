import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { openDatabase } from "../../../src/engine/database.js";
import { jailAvailable } from "../../support/jail.js";
import { describe, expect, it } from "vitest";
import { cliHarness, CLI } from "./harness.js";

describe("codexpi project, doctor and help (real binary)", () => {
  const t = cliHarness();

  it("project set --approvals changes a project's approval mode; project list shows it; a bad mode is a usage error", async () => {
    await t.setup();
    await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    const bad = await t.cli("project", "set", "demo", "--approvals", "always");
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stderr).toContain("--approvals");
    const set = await t.cli("project", "set", "demo", "--approvals", "on-request");
    expect(set.exitCode).toBe(0);
    expect(set.stdout).toContain("on-request");
    // The listing reads in the operator's language (French: the harness sets CODEXPI_LOCALE=fr).
    expect((await t.cli("project", "list")).stdout).toContain("approbations à la demande");
    await t.cli("project", "set", "demo", "--approvals", "never");
    expect((await t.cli("project", "list")).stdout).not.toContain("approbations");
  });

  it("S-OPT-02: project set --models a,b lists the models a request may name, shown by project list; none goes back to the configured one; a bad name changes nothing", async () => {
    await t.setup();
    await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    expect((await t.cli("project", "list")).stdout).not.toContain("modèles");
    const bad = await t.cli("project", "set", "demo", "--models", "gpt-5.5,bad name");
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stderr).toContain("bad name");
    expect((await t.cli("project", "list")).stdout).not.toContain("modèles"); // the refusal changed nothing
    const set = await t.cli("project", "set", "demo", "--models", "gpt-5.5, gpt-5.6-terra");
    expect(set.exitCode).toBe(0);
    expect(set.stdout).toContain("demo : modèles permis : gpt-5.5, gpt-5.6-terra");
    expect((await t.cli("project", "list")).stdout).toContain("modèles gpt-5.5, gpt-5.6-terra");
    const none = await t.cli("project", "set", "demo", "--models", "none");
    expect(none.stdout).toContain("le modèle configuré seulement");
    expect((await t.cli("project", "list")).stdout).not.toContain("modèles");
  });

  it("project set --steer on|off lets replies steer the running turn; project list shows it; a bad value is a usage error", async () => {
    await t.setup();
    await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    const bad = await t.cli("project", "set", "demo", "--steer", "maybe");
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stderr).toContain("--steer");
    const set = await t.cli("project", "set", "demo", "--steer", "on");
    expect(set.exitCode).toBe(0);
    expect(set.stdout).toContain("orientation on");
    expect((await t.cli("project", "list")).stdout).toContain("les réponses orientent le tour en cours");
    await t.cli("project", "set", "demo", "--steer", "off");
    expect((await t.cli("project", "list")).stdout).not.toContain("orientent");
  });

  it("project set --workspace: direct is set and listed; branch is refused for a directory that is no repository and set for a repository; a bad value is a usage error", async () => {
    await t.setup();
    await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    const bad = await t.cli("project", "set", "demo", "--workspace", "lanes");
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stderr).toContain("--workspace");
    const set = await t.cli("project", "set", "demo", "--workspace", "direct");
    expect(set.exitCode).toBe(0);
    expect(set.stdout).toContain("espace de travail direct");
    expect((await t.cli("project", "list")).stdout).toContain(
      "direct (un agent à la fois dans sa copie de travail)",
    );
    const noRepository = await t.cli("project", "set", "demo", "--workspace", "branch");
    expect(noRepository.exitCode).not.toBe(0);
    expect(noRepository.stderr).toContain("n’est pas la racine d’un dépôt git");
    await execa("git", ["init", "-q", path.join(t.dir, "demo")]);
    expect((await t.cli("project", "list")).stdout).toContain("direct (un agent à la fois"); // positive control
    const branch = await t.cli("project", "set", "demo", "--workspace", "branch");
    expect(branch.exitCode).toBe(0);
    expect(branch.stdout).toContain("espace de travail branch");
    expect((await t.cli("project", "list")).stdout).toContain("branche (une voie par conversation)");
  });

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
      env: { ...t.env, HEALTH_PORT: "0" },
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

  it("doctor reports the jail and proves it with a jailed read outside the workspace; with the jail off it says agents are not isolated", async (ctx) => {
    if (!(await jailAvailable())) ctx.skip();
    await t.setup();
    t.env.CODEXPI_LOCALE = "en";
    const on = await t.cli("doctor");
    expect(on.stdout).toMatch(
      /^✓ jail: bubblewrap [\d.]+ \(user, pid, ipc, uts namespaces; private \/tmp and \/proc\): a jailed process could not read the data directory/m,
    );
    expect(on.stdout).toMatch(/^✓ sandbox: restricted projects can run commands \(inside the jail\)/m);
    t.env = { ...t.env, CODEXPI_JAIL: "off" };
    const off = await t.cli("doctor");
    expect(off.exitCode).toBe(1);
    expect(off.stdout).toContain("✗ jail: none: CODEXPI_JAIL=off: agents and test commands are NOT isolated");
  });

  it("--help of every command exits 0 with its usage, in the configured language", async () => {
    await t.setup();
    for (const command of [
      "serve",
      "migrate",
      "doctor",
      "project",
      "ask",
      "answer",
      "stop",
      "decide",
      "tick",
      "worker",
    ]) {
      const help = await t.cli(command, "--help");
      expect(help.exitCode, command).toBe(0);
      expect(help.stdout, command).toContain(`codexpi ${command}`);
      expect(help.stdout, command).toContain("utilisation : codexpi");
    }
    t.env.CODEXPI_LOCALE = "en";
    expect((await t.cli("help", "stop")).stdout).toContain("codexpi stop CONVERSATION");
    const en = await t.cli("ask", "-h");
    expect(en.stdout).toContain("usage: codexpi");
    expect(en.stdout).toContain("--stop-on-exit");
    const wrong = await t.cli("ask", "demo");
    expect(wrong.stderr).toContain("expected 2 argument(s), got 1");
    expect((await t.cli("nonsense")).stderr).toContain("unknown command: nonsense");
  });
});
