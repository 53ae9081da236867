import os from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_METRICS_PORT, isLoopbackHost, parseConfig } from "../../src/config.js";
import { codexEnvironment, workerEnvironment } from "../../src/engine/isolation/environment.js";
import { configuredSecrets } from "../../src/redaction.js";
import { parsePrometheusText } from "../support/promText.js";
import { eventually, slackBot } from "../support/slackBot.js";

// Issue 31, item 5: /healthz is liveness for anyone; its detail and /metrics are for bearers of
// CODEXPI_METRICS_TOKEN, or for anyone on the loopback metrics listener when no token is set. Real
// bots (signed HTTP or Socket Mode) on 127.0.0.1, real HTTP requests.

const TOKEN = "health-access-test-token-5f3a9c";
const bearer = (token = TOKEN) => ({ authorization: `Bearer ${token}` });
/** A Slack member id as Slack writes them (the test helpers' UOWNER is too short to look like one). */
const ALICE = "U07ALICE42";
const SLACK_ID = /^[UW][A-Z0-9]{6,}$/;

/** Every label value of an exposition that looks like a Slack user id. */
function slackIdsInLabels(exposition: string): string[] {
  const ids: string[] = [];
  for (const family of parsePrometheusText(exposition).values())
    for (const sample of family.samples)
      for (const value of Object.values(sample.labels)) if (SLACK_ID.test(value)) ids.push(value);
  return ids;
}

type Bot = Awaited<ReturnType<typeof slackBot>>;

describe("who may read health and metrics", () => {
  let bot: Bot | undefined;
  afterEach(async () => {
    await bot?.close();
    bot = undefined;
  });

  it("on Slack's listener /metrics without credentials is refused (401, Bearer, where to scrape instead); with the token it is Prometheus text", async () => {
    bot = await slackBot({ env: { CODEXPI_METRICS_TOKEN: TOKEN } });
    const refused = await fetch(`${bot.base}/metrics`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer /);
    const said = await refused.text();
    expect(said).toContain("CODEXPI_METRICS_TOKEN");
    expect(said).toContain(`http://127.0.0.1:${bot.bot.metricsPort}/metrics`);
    expect(said).not.toContain("codexpi_up");
    // The positive control: the same request with the token.
    const served = await fetch(`${bot.base}/metrics`, { headers: bearer() });
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toContain("text/plain; version=0.0.4");
    expect(await served.text()).toMatch(/^codexpi_up 1$/m);
  });

  it("a wrong token, or another scheme, is refused on /metrics and /healthz with 401 and WWW-Authenticate: Bearer", async () => {
    bot = await slackBot({ env: { CODEXPI_METRICS_TOKEN: TOKEN } });
    for (const path of ["/metrics", "/healthz"])
      for (const authorization of [
        `Bearer ${TOKEN}x`,
        `Bearer ${TOKEN.slice(0, -1)}`,
        "Bearer ",
        `Basic ${Buffer.from(`u:${TOKEN}`).toString("base64")}`,
      ]) {
        const res = await fetch(`${bot.base}${path}`, { headers: { authorization } });
        expect(res.status, `${path} with ${authorization}`).toBe(401);
        expect(res.headers.get("www-authenticate")).toBe('Bearer realm="codexpi", error="invalid_token"');
        expect(await res.text()).not.toContain("codexpi_up");
      }
    // The metrics listener checks a token it is sent too, though it would serve without one.
    const wrong = await fetch(`${bot.metricsBase}/metrics`, { headers: bearer("not-the-token-at-all") });
    expect(wrong.status).toBe(401);
  });

  it("anonymous /healthz is bare {ok}; with the token it has the checks, versions, lease and gauges", async () => {
    bot = await slackBot({ env: { CODEXPI_METRICS_TOKEN: TOKEN } });
    const bare = await fetch(`${bot.base}/healthz`);
    expect(bare.status).toBe(200);
    expect(await bare.json()).toEqual({ ok: true });
    const detail = await fetch(`${bot.base}/healthz`, { headers: bearer() });
    expect(detail.status).toBe(200);
    const body = (await detail.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ ok: true, failing: [], database: true, codex: { found: true } });
    expect((body.codex as { version: string }).version).toContain("0.171.0");
    expect((body.lease as { holder: string }).holder).toBe(bot.bot.engine.owner);
    expect(Object.keys(body)).toEqual(
      expect.arrayContaining(["queue", "outbox", "gauges", "model", "disk", "last_tick_at"]),
    );
    // With a token set, the metrics listener wants it too: anonymous callers get the verdict only.
    expect(await (await fetch(`${bot.metricsBase}/healthz`)).json()).toEqual({ ok: true });
    expect((await fetch(`${bot.metricsBase}/metrics`)).status).toBe(401);
    expect((await fetch(`${bot.metricsBase}/metrics`, { headers: bearer() })).status).toBe(200);
  });

  it("without a token, Slack's listener answers /metrics 404 naming the metrics listener, which serves /metrics and the detail to anyone on loopback", async () => {
    bot = await slackBot();
    const elsewhere = await fetch(`${bot.base}/metrics`);
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.text()).toContain(`http://127.0.0.1:${bot.bot.metricsPort}/metrics`);
    // No token opens anything when none is configured.
    expect((await fetch(`${bot.base}/metrics`, { headers: bearer() })).status).toBe(401);
    expect(await (await fetch(`${bot.base}/healthz`)).json()).toEqual({ ok: true });
    const metrics = await fetch(`${bot.metricsBase}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^codexpi_up 1$/m);
    const detail = (await (await fetch(`${bot.metricsBase}/healthz`)).json()) as Record<string, unknown>;
    expect(detail).toMatchObject({ ok: true, database: true, lease: { holder: bot.bot.engine.owner } });
    expect((await fetch(`${bot.metricsBase}/slack/events`)).status).toBe(404); // only health there
  });

  it("the metrics listener binds loopback by default: another address of this machine does not answer", async () => {
    bot = await slackBot();
    expect(bot.bot.metricsPort).toBeGreaterThan(0);
    expect((await fetch(`${bot.metricsBase}/healthz`)).status).toBe(200); // the positive control
    const outside = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a && a.family === "IPv4" && !a.internal)?.address;
    if (!outside) {
      process.stdout.write("no non-loopback IPv4 address here: only the default host is checked\n");
    } else {
      const reached = await fetch(`http://${outside}:${bot.bot.metricsPort}/healthz`).then(
        () => true,
        () => false,
      );
      expect(reached, `the metrics listener answered on ${outside}`).toBe(false);
    }
    expect(bot.config.metrics.host).toBe("127.0.0.1");
  });

  it("in Socket Mode the health port answers liveness only; the detail takes the token", async () => {
    bot = await slackBot({ socket: true, env: { CODEXPI_METRICS_TOKEN: TOKEN } });
    const url = `http://127.0.0.1:${bot.bot.healthPort}`;
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ ok: true });
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    const detail = (await (await fetch(`${url}/healthz`, { headers: bearer() })).json()) as object;
    expect(detail).toHaveProperty("codex.found", true);
  });

  it("no Slack user id is a label value of /metrics after a person's turn and budget (and the check finds one where there is)", async () => {
    // The check's positive control: a labelled person is caught.
    const crafted =
      '# HELP codexpi_budget_tokens x\n# TYPE codexpi_budget_tokens gauge\ncodexpi_budget_tokens{scope="user",subject="U07ALICE42",period="daily"} 5\n';
    expect(slackIdsInLabels(crafted)).toEqual([ALICE]);

    bot = await slackBot({ env: { CODEXPI_LOCALE: "en", CODEXPI_ADMINS: ALICE } });
    const b = bot;
    await b.command("ask demo hello from a person", ALICE);
    await eventually(
      async () =>
        (
          await b.db
            .selectFrom("prompt_queue")
            .select("status")
            .where("status", "in", ["done", "failed"])
            .execute()
        )[0]?.status,
      90_000,
      "the turn finished",
    );
    const set = await b.command(`budget set user <@${ALICE}> --daily 1000000`, ALICE);
    expect((await b.response(set.responseId)).text).toContain("1000000");
    const text = await (await fetch(`${b.metricsBase}/metrics`)).text();
    // The activity is there (a turn, a person's budget) ...
    expect(text).toMatch(/^codexpi_turns_total\{outcome="(done|failed)"\} 1$/m);
    expect(text).toMatch(/^codexpi_user_budgets\{period="daily"\} 1$/m);
    // ... and the person is not.
    expect(slackIdsInLabels(text)).toEqual([]);
    expect(text).not.toContain(ALICE);
  });
});

describe("the metrics settings", () => {
  it("default to a listener on 127.0.0.1:9464 and no token; off turns the listener off", () => {
    const c = parseConfig({});
    expect(c.metrics).toEqual({ host: "127.0.0.1", port: DEFAULT_METRICS_PORT, token: null });
    expect(DEFAULT_METRICS_PORT).toBe(9464);
    expect(parseConfig({ CODEXPI_METRICS_PORT: "off" }).metrics.port).toBeNull();
    expect(parseConfig({ CODEXPI_METRICS_PORT: "0" }).metrics.port).toBe(0);
  });

  it("a malformed port or token is an error naming its variable", () => {
    expect(() => parseConfig({ CODEXPI_METRICS_PORT: "metrics" })).toThrow(/CODEXPI_METRICS_PORT/);
    expect(() => parseConfig({ CODEXPI_METRICS_PORT: "70000" })).toThrow(/CODEXPI_METRICS_PORT/);
    expect(() => parseConfig({ CODEXPI_METRICS_TOKEN: "short" })).toThrow(/CODEXPI_METRICS_TOKEN.*16/);
    expect(() => parseConfig({ CODEXPI_METRICS_TOKEN: "has a space in it, long enough" })).toThrow(
      /CODEXPI_METRICS_TOKEN/,
    );
    expect(parseConfig({ CODEXPI_METRICS_TOKEN: TOKEN }).metrics.token).toBe(TOKEN);
  });

  it("a metrics listener outside loopback without a token is refused, naming CODEXPI_METRICS_HOST; with a token, or off, it is allowed", () => {
    for (const host of ["0.0.0.0", "::", "192.168.1.10", "metrics.example.org"]) {
      expect(() => parseConfig({ CODEXPI_METRICS_HOST: host }), host).toThrow(ConfigError);
      expect(() => parseConfig({ CODEXPI_METRICS_HOST: host }), host).toThrow(
        /CODEXPI_METRICS_HOST: .* not a loopback address.*CODEXPI_METRICS_TOKEN/,
      );
    }
    expect(parseConfig({ CODEXPI_METRICS_HOST: "0.0.0.0", CODEXPI_METRICS_TOKEN: TOKEN }).metrics.host).toBe(
      "0.0.0.0",
    );
    expect(
      parseConfig({ CODEXPI_METRICS_HOST: "0.0.0.0", CODEXPI_METRICS_PORT: "off" }).metrics.port,
    ).toBeNull();
    for (const host of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "::ffff:127.0.0.1"])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ["0.0.0.0", "::", "10.0.0.1", "example.org", "128.0.0.1"])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it("the token is a secret: redacted like Slack's, never given to a worker or Codex, and refused in CODEXPI_AGENT_ENV", () => {
    const config = parseConfig({ CODEXPI_METRICS_TOKEN: TOKEN, SLACK_SIGNING_SECRET: "signing" });
    expect(configuredSecrets(config, {})).toEqual(["signing", TOKEN]);
    const env = { PATH: "/usr/bin", OPENAI_API_KEY: "sk", CODEXPI_METRICS_TOKEN: TOKEN };
    // Even named as a model credential (a typo the configuration refuses anyway), it stays out.
    for (const names of [["OPENAI_API_KEY"], ["OPENAI_API_KEY", "CODEXPI_METRICS_TOKEN"]]) {
      const worker = workerEnvironment(env, names, {});
      expect(worker.OPENAI_API_KEY).toBe("sk"); // the positive control: allowed names pass
      expect(Object.values(worker)).not.toContain(TOKEN);
      expect(Object.values(codexEnvironment(env, names, {}))).not.toContain(TOKEN);
    }
    expect(() => parseConfig({ CODEXPI_AGENT_ENV: "CODEXPI_METRICS_TOKEN" })).toThrow(/CODEXPI_AGENT_ENV/);
  });
});
