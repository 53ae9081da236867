import { afterEach, describe, expect, it } from "vitest";
import { createEngineApi } from "../../../src/engine/api/index.js";
import { CLI_ACTOR, type Actor, projectNetwork } from "../../../src/engine/api/model.js";
import { testEngine } from "../../support/engine.js";

// Issue 31, item 3: a project's network through the one engine API: its owner and admins set the
// mode and the list; only admins list a private entry, and only admins touch a master or self
// project's network; every change (and refusal) is in the audit trail.

const OWNER: Actor = { userId: "UOWNER", isAdmin: false };
const ADMIN: Actor = { userId: "UADMIN", isAdmin: true };
const STRANGER: Actor = { userId: "USTRANGER", isAdmin: false };

describe("a project's network (engine API)", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  const stored = async (name = "demo") =>
    env.db
      .selectFrom("projects")
      .select(["network_mode", "network_hosts"])
      .where("name", "=", name)
      .executeTakeFirstOrThrow();

  it("a new project is an empty allowlist, full access or not", async () => {
    env = await testEngine();
    expect(projectNetwork(env.project)).toEqual({ mode: "allowlist", hosts: [] });
    expect(await stored()).toEqual({ network_mode: "allowlist", network_hosts: "[]" });
    const full = await env.addProject({ name: "full", fullAccess: true });
    expect(projectNetwork(full)).toEqual({ mode: "allowlist", hosts: [] });
  });

  it("its owner sets the mode and adds and removes hosts and presets; the list keeps each entry once, in order", async () => {
    env = await testEngine();
    const api = createEngineApi(env.engine).projects;
    expect((await api.setNetworkMode(OWNER, "demo", "open")).network_mode).toBe("open");
    const added = await api.allowHosts(OWNER, "demo", ["pypi", "example.com:8080", "https://pypi.org/"]);
    expect(added.changed.map((e) => e.host)).toEqual(["pypi.org", "files.pythonhosted.org", "example.com"]);
    expect(added.network.mode).toBe("open");
    const again = await api.allowHosts(OWNER, "demo", ["PyPI", "*.example.org"]);
    expect(again.changed).toEqual([{ host: "*.example.org", port: null }]);
    expect(await stored()).toEqual({
      network_mode: "open",
      network_hosts: '["pypi.org","files.pythonhosted.org","example.com:8080","*.example.org"]',
    });
    // Without a port, every entry of the host goes; a preset takes its hosts away.
    const denied = await api.denyHosts(OWNER, "demo", ["example.com", "pypi", "nothere.example"]);
    expect(denied.changed.map((e) => `${e.host}:${e.port}`)).toEqual([
      "pypi.org:null",
      "files.pythonhosted.org:null",
      "example.com:8080",
    ]);
    expect(denied.network.hosts).toEqual([{ host: "*.example.org", port: null }]);
    // A port names that entry only.
    await api.allowHosts(OWNER, "demo", ["a.example:81", "a.example:82"]);
    const one = await api.denyHosts(OWNER, "demo", ["a.example:81"]);
    expect(one.network.hosts.map((e) => e.port)).toEqual([null, 82]);
    expect((await api.setNetworkMode(OWNER, "demo", "off")).network_mode).toBe("off");
  });

  it("only admins list a private entry: the owner is refused, naming it, and nothing of the change is kept", async () => {
    env = await testEngine();
    const api = createEngineApi(env.engine).projects;
    for (const host of [
      "127.0.0.1:4873",
      "localhost",
      "10.0.0.5",
      "[::1]:8080",
      "169.254.169.254",
      "*.localhost",
    ])
      await expect(api.allowHosts(OWNER, "demo", ["npm", host]), host).rejects.toMatchObject({
        code: "forbidden",
        reason: "network_private_admins_only",
        params: { name: "demo" },
      });
    expect((await stored()).network_hosts).toBe("[]");
    // Positive control: an admin (and the CLI's operator) lists the same entries.
    const byAdmin = await api.allowHosts(ADMIN, "demo", ["127.0.0.1:4873", "localhost"]);
    expect(byAdmin.changed).toHaveLength(2);
    expect((await api.allowHosts(CLI_ACTOR, "demo", ["10.0.0.5"])).changed).toEqual([
      { host: "10.0.0.5", port: null },
    ]);
    // The owner may still take a private entry away.
    expect((await api.denyHosts(OWNER, "demo", ["localhost"])).changed).toHaveLength(1);
  });

  it("someone else gets not found; a master or self project's network is for admins only", async () => {
    env = await testEngine();
    const api = createEngineApi(env.engine).projects;
    await expect(api.setNetworkMode(STRANGER, "demo", "open")).rejects.toMatchObject({ code: "not_found" });
    await expect(api.allowHosts(STRANGER, "demo", ["npm"])).rejects.toMatchObject({ code: "not_found" });
    await env.addProject({ name: "maître", role: "master", ownerId: "UOWNER" });
    await expect(api.setNetworkMode(OWNER, "maître", "open")).rejects.toMatchObject({
      code: "forbidden",
      reason: "network_role_admins_only",
      params: { name: "maître", role: "master" },
    });
    await expect(api.allowHosts(OWNER, "maître", ["npm"])).rejects.toMatchObject({
      reason: "network_role_admins_only",
    });
    expect((await api.setNetworkMode(ADMIN, "maître", "open")).network_mode).toBe("open");
  });

  it("bad input is invalid before anything changes: a mode, a host, a port, no host at all", async () => {
    env = await testEngine();
    const api = createEngineApi(env.engine).projects;
    await expect(api.setNetworkMode(ADMIN, "demo", "wide" as "open")).rejects.toMatchObject({
      code: "invalid",
      reason: "network_mode_invalid",
    });
    await expect(api.allowHosts(ADMIN, "demo", ["npm", "https://x.example/path"])).rejects.toMatchObject({
      reason: "network_host_invalid",
    });
    await expect(api.allowHosts(ADMIN, "demo", ["x.example:70000"])).rejects.toMatchObject({
      reason: "network_port_invalid",
    });
    await expect(api.denyHosts(ADMIN, "demo", [" , "])).rejects.toMatchObject({
      reason: "network_hosts_missing",
    });
    expect(await stored()).toEqual({ network_mode: "allowlist", network_hosts: "[]" });
  });

  it("every change and refusal is in the audit trail, with what was asked", async () => {
    env = await testEngine();
    const api = createEngineApi(env.engine).projects;
    await api.setNetworkMode(OWNER, "demo", "open");
    await api.allowHosts(OWNER, "demo", ["npm", "example.com:8080"]);
    await api.allowHosts(OWNER, "demo", ["127.0.0.1"]).catch(() => undefined);
    await api.denyHosts(ADMIN, "demo", ["npm"]);
    const trail = await env.db
      .selectFrom("audit_events")
      .select(["actor", "action", "target", "project", "outcome", "reason", "detail"])
      .orderBy("id")
      .execute();
    expect(trail).toEqual([
      expect.objectContaining({
        actor: "UOWNER",
        action: "project.network",
        target: "project:demo",
        outcome: "ok",
        detail: "open",
      }),
      expect.objectContaining({
        action: "project.allow_host",
        project: "demo",
        outcome: "ok",
        detail: "npm example.com:8080",
      }),
      expect.objectContaining({
        action: "project.allow_host",
        outcome: "refused",
        reason: "forbidden: network_private_admins_only",
        detail: "127.0.0.1",
      }),
      expect.objectContaining({ actor: "UADMIN", action: "project.deny_host", outcome: "ok", detail: "npm" }),
    ]);
  });
});
