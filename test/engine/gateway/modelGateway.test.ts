/**
 * The model gateway, tried as the agent behind it would: real HTTP on 127.0.0.1, a fake upstream
 * that records what reaches it, the operator's Codex settings in a temp directory. The stand-in
 * token is worth nothing elsewhere or after its turn; the real credential leaves only upstream.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { jwtExpiry } from "../../../src/engine/gateway/chatgptLogin.js";
import { gatewayBaseUrl, jailConfigToml } from "../../../src/engine/gateway/jailConfig.js";
import { type ModelGateway, startModelGateway } from "../../../src/engine/gateway/modelGateway.js";
import { readOperatorConfig, resolveUpstream, UpstreamError } from "../../../src/engine/gateway/upstream.js";

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** An upstream that answers every request with `answer(seen)` (status, headers, body). */
async function fakeUpstream(
  answer: (s: Seen) => { status: number; type?: string; body: string } = () => sse(),
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const s = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      seen.push(s);
      const a = answer(s);
      res.writeHead(a.status, { "content-type": a.type ?? "text/event-stream" });
      res.end(a.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  closers.push(() => new Promise((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

/** A streamed response whose completion reports these tokens. */
function sse(input = 120, output = 30, cached = 20) {
  const completed = {
    type: "response.completed",
    response: {
      id: "r1",
      usage: { input_tokens: input, output_tokens: output, input_tokens_details: { cached_tokens: cached } },
    },
  };
  return {
    status: 200,
    body: `event: response.created\ndata: {"type":"response.created"}\n\nevent: response.completed\ndata: ${JSON.stringify(completed)}\n\n`,
  };
}

function operatorHome(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-gw-home-"));
  for (const [name, text] of Object.entries(files))
    fs.writeFileSync(path.join(dir, name), text, { mode: 0o600 });
  closers.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function gatewayFor(home: string, env: NodeJS.ProcessEnv): Promise<ModelGateway> {
  const g = await startModelGateway({ upstream: resolveUpstream(home, env) });
  closers.push(() => g.end());
  return g;
}

function post(port: number, token: string | null, body = '{"model":"m"}', p = "/v1/responses") {
  return fetch(`http://127.0.0.1:${port}${p}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
  });
}

const providerToml = (url: string) => `model_provider = "corp"
[model_providers.corp]
name = "corp"
base_url = "${url}"
wire_api = "responses"
env_key = "CORP_KEY"
query_params = { "api-version" = "2026-01-01" }
http_headers = { "x-team" = "blue" }
request_max_retries = 0
`;

describe("the model gateway", () => {
  it("swaps the turn's stand-in for the provider's key, passes its query and headers, and counts the usage the upstream reports", async () => {
    const up = await fakeUpstream();
    const home = operatorHome({ "config.toml": providerToml(up.url) });
    const g = await gatewayFor(home, { CORP_KEY: "sk-corp-real-key-123456" });
    const res = await post(g.port, g.token);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("response.completed");
    expect(up.seen).toHaveLength(1);
    const s = up.seen[0] as Seen;
    expect(s.url).toBe("/v1/responses?api-version=2026-01-01");
    expect(s.headers.authorization).toBe("Bearer sk-corp-real-key-123456");
    expect(s.headers["x-team"]).toBe("blue");
    expect(JSON.stringify(s.headers)).not.toContain(g.token);
    expect(s.body).toBe('{"model":"m"}');
    expect(g.usage()).toEqual({ input: 120, cached: 20, output: 30, responses: 1 });
  });

  it("refuses a request without the turn's token, and every request once the turn has ended (positive control: the same request in the turn passes)", async () => {
    const up = await fakeUpstream();
    const home = operatorHome({
      "auth.json": JSON.stringify({ OPENAI_API_KEY: "sk-operator-000000000000" }),
    });
    const g = await startModelGateway({ upstream: resolveUpstream(home, { OPENAI_BASE_URL: up.url }) });
    expect((await post(g.port, "sk-guess")).status).toBe(401);
    expect((await post(g.port, null)).status).toBe(401);
    expect(up.seen).toHaveLength(0);
    expect((await post(g.port, g.token)).status).toBe(200); // positive control
    expect(up.seen[0]?.headers.authorization).toBe("Bearer sk-operator-000000000000");
    await g.end();
    await expect(post(g.port, g.token)).rejects.toThrow();
    expect(up.seen).toHaveLength(1);
  });

  it("with a ChatGPT login, sends the access token and account upstream, and refreshes it on the host after a 401, writing the new tokens back", async () => {
    let valid = "access-old";
    const up = await fakeUpstream((s) =>
      s.headers.authorization === `Bearer ${valid}`
        ? sse()
        : { status: 401, type: "application/json", body: "{}" },
    );
    const refreshes: unknown[] = [];
    const tokenServer = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        refreshes.push(JSON.parse(body));
        valid = "access-new";
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({ access_token: "access-new", refresh_token: "refresh-new", id_token: "id-new" }),
        );
      });
    });
    await new Promise<void>((r) => tokenServer.listen(0, "127.0.0.1", () => r()));
    closers.push(() => new Promise((r) => tokenServer.close(() => r())));
    const tokenUrl = `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}/oauth/token`;
    const auth = {
      tokens: { access_token: "access-old", refresh_token: "refresh-old", account_id: "acct-1" },
    };
    const home = operatorHome({
      "auth.json": JSON.stringify(auth),
      "config.toml": `chatgpt_base_url = "${up.url.replace(/\/v1$/, "")}"\n`,
    });
    valid = "access-expired-by-now";
    const g = await startModelGateway({
      upstream: resolveUpstream(home, { CODEX_REFRESH_TOKEN_URL_OVERRIDE: tokenUrl }),
    });
    closers.push(() => g.end());
    const res = await post(g.port, g.token);
    expect(res.status).toBe(200);
    expect(up.seen.map((s) => [s.url, s.headers.authorization])).toEqual([
      ["/codex/responses", "Bearer access-old"],
      ["/codex/responses", "Bearer access-new"],
    ]);
    expect(up.seen[1]?.headers["chatgpt-account-id"]).toBe("acct-1");
    expect(refreshes).toEqual([
      expect.objectContaining({ grant_type: "refresh_token", refresh_token: "refresh-old" }),
    ]);
    const written = JSON.parse(fs.readFileSync(path.join(home, "auth.json"), "utf8"));
    expect(written.tokens).toMatchObject({
      access_token: "access-new",
      refresh_token: "refresh-new",
      account_id: "acct-1",
    });
  });

  it("says which credential is missing rather than start without one", () => {
    expect(() => resolveUpstream(operatorHome({}), {})).toThrow(UpstreamError);
    const home = operatorHome({ "config.toml": providerToml("http://127.0.0.1:9/v1") });
    expect(() => resolveUpstream(home, {})).toThrow(/CORP_KEY/);
  });

  it("reads a JWT's expiry, and none from a token that is not one", () => {
    const jwt = `x.${Buffer.from(JSON.stringify({ exp: 1_900_000_000 })).toString("base64url")}.y`;
    expect(jwtExpiry(jwt)).toBe(1_900_000_000_000);
    expect(jwtExpiry("opaque")).toBeNull();
  });
});

describe("the jail's config.toml", () => {
  it("keeps the operator's settings but no provider, key, header or login: only the gateway's provider (positive control: the operator's file holds them)", () => {
    const operator = `model = "gpt-5.5"
chatgpt_base_url = "https://chatgpt.example"
${providerToml("https://corp.example/v1")}experimental_bearer_token = "sk-bearer-in-file-0000"
[model_providers.other]
name = "other"
base_url = "https://other.example"
experimental_bearer_token = "sk-other-bearer-1111"
[profiles.fast]
model_provider = "other"
model = "gpt-fast"
`;
    const home = operatorHome({ "config.toml": operator });
    const config = readOperatorConfig(home);
    expect(JSON.stringify(config)).toContain("sk-other-bearer-1111"); // positive control
    const text = jailConfigToml(config, { wireApi: "responses", settings: { request_max_retries: 0 } });
    for (const secret of [
      "sk-bearer-in-file-0000",
      "sk-other-bearer-1111",
      "corp.example",
      "x-team",
      "chatgpt.example",
    ])
      expect(text).not.toContain(secret);
    expect(text).toContain('model = "gpt-5.5"');
    expect(text).toContain('model_provider = "codexpi"');
    expect(text).toContain('env_key = "CODEXPI_MODEL_TOKEN"');
    expect(text).toContain("request_max_retries = 0");
    expect(text).not.toMatch(/model_provider = "other"/);
    expect(gatewayBaseUrl(4242)).toBe("http://127.0.0.1:4242/v1");
  });
});
