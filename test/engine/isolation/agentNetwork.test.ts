/**
 * The argv of a full-access jail's network namespace (pasta inside bubblewrap), and which turns
 * get one. The end-to-end attack is test/integration/fullAccessNetwork.test.ts.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  agentNetwork,
  loopbackPortsOf,
  mcpLoopbackPorts,
  pastaArgs,
} from "../../../src/engine/isolation/agentNetwork.js";
import { readOperatorConfig } from "../../../src/engine/gateway/upstream.js";
import { jailArgs } from "../../../src/engine/isolation/jail.js";
import { tempDir } from "../../support/engine.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** An operator Codex home whose config.toml is `toml`. */
function operatorHome(toml: string): string {
  const dir = tempDir();
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, "config.toml"), toml);
  return dir;
}

const STACK = { pasta: "/usr/bin/pasta", capsh: "/usr/sbin/capsh" };
const PASTA = { ...STACK, outbound: true, loopbackTcpPorts: [8443, 11434, 8443] };

describe("pasta's argv", () => {
  it("turns every automatic forwarding off, forwards exactly the listed loopback ports (sorted, once each), and starts the command through capsh without capabilities", () => {
    expect(pastaArgs(PASTA, ["codex", "exec", "-"])).toEqual([
      "--config-net",
      "--foreground",
      "--quiet",
      "--tcp-ports",
      "none",
      "--udp-ports",
      "none",
      "--tcp-ns",
      "8443,11434",
      "--udp-ns",
      "none",
      "--no-map-gw",
      "--",
      "/usr/sbin/capsh",
      "--caps=",
      "--shell=codex",
      "--",
      "exec",
      "-",
    ]);
  });

  it("gives the namespace no address and no route unless it is to route out", () => {
    expect(pastaArgs({ ...PASTA, outbound: false }, ["codex"])).not.toContain("--config-net");
  });

  it("forwards no port at all when none is listed (pasta's default would forward every host port)", () => {
    const args = pastaArgs({ ...STACK, outbound: true, loopbackTcpPorts: [] }, ["codex"]);
    expect(args[args.indexOf("--tcp-ns") + 1]).toBe("none");
    expect(args).not.toContain("auto");
  });
});

describe("the jail's argv with a pasta network", () => {
  const spec = { mounts: [], cwd: "/work/p", nestedSandbox: true };

  it("runs Codex under pasta inside the jail, with the tun device and the host's network for pasta", () => {
    const args = jailArgs({ ...spec, network: PASTA }, ["/opt/codex", "exec", "-"]);
    expect(args).not.toContain("--unshare-net"); // pasta itself reaches out from the host's namespace
    const tun = args.indexOf("--dev-bind");
    expect(args.slice(tun, tun + 3)).toEqual(["--dev-bind", "/dev/net/tun", "/dev/net/tun"]);
    const command = args.slice(args.indexOf("--") + 1);
    expect(command[0]).toBe("/usr/bin/pasta");
    expect(command.slice(command.indexOf("--") + 1)).toEqual([
      "/usr/sbin/capsh",
      "--caps=",
      "--shell=/opt/codex",
      "--",
      "exec",
      "-",
    ]);
    // pasta may not map the parent's uid 0 (it drops CAP_SETFCAP): a root jail gives it another id.
    const uid = Number(args[args.indexOf("--uid") + 1]);
    expect(uid).toBe(process.getuid?.() === 0 ? 1000 : process.getuid?.());
  });

  it("keeps today's argv for the host's network and for a private loopback", () => {
    const host = jailArgs({ ...spec, network: true }, ["/opt/codex"]);
    expect(host).not.toContain("--unshare-net");
    expect(host).not.toContain("/dev/net/tun");
    expect(host.slice(host.indexOf("--") + 1)).toEqual(["/opt/codex"]);
    expect(host[host.indexOf("--uid") + 1]).toBe(String(process.getuid?.() ?? 0));
    expect(jailArgs({ ...spec, network: false }, ["/opt/codex"])).toContain("--unshare-net");
  });
});

describe("which turns get a namespace, and which loopback ports they reach", () => {
  const toml = `model_provider = "local"
[model_providers.local]
base_url = "http://127.0.0.1:8080/v1"
[model_providers.remote]
base_url = "https://api.example.com/v1"
[mcp_servers.docs]
url = "http://localhost:7000/mcp"
`;

  it("finds the ports of loopback URLs only (default ports for http and https)", () => {
    expect(loopbackPortsOf(toml).sort()).toEqual([7000, 8080]);
    expect(loopbackPortsOf('base_url = "https://[::1]/v1"\nx = "http://127.0.0.2"')).toEqual([443, 80]);
    expect(loopbackPortsOf('base_url = "http://10.0.0.5:8080/v1"')).toEqual([]);
  });

  it("bridges the MCP servers' loopback ports into every jail, never the model's own (the gateway is its way)", () => {
    expect(mcpLoopbackPorts(readOperatorConfig(operatorHome(toml)))).toEqual([7000]);
  });

  it("gives every turn its own empty namespace; only a routed turn gets pasta (the host's network where pasta is off or missing)", () => {
    expect(agentNetwork({ netns: "auto" }, false, STACK)).toBe(false);
    expect(agentNetwork({ netns: "off" }, false, STACK)).toBe(false);
    expect(agentNetwork({ netns: "auto" }, true, STACK)).toEqual({
      ...STACK,
      outbound: true,
      loopbackTcpPorts: [],
    });
    expect(agentNetwork({ netns: "off" }, true, STACK)).toBe(true);
    expect(agentNetwork({ netns: "auto" }, true, null)).toBe(true);
  });
});
