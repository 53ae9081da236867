import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig, requireSlack } from "../src/config.js";

describe("configuration", () => {
  it("defaults: data dir ./data, SQLite file inside it, English (S-LANG-01), tick every 5 s", () => {
    const c = parseConfig({});
    expect(c.dataDir).toBe(path.resolve("data"));
    expect(c.databasePath).toBe(path.resolve("data", "codexpi.db"));
    expect(c.locale).toBe("en");
    // Not from LANG: a service's LANG is its machine's, not its people's.
    expect(parseConfig({ LANG: "fr_FR.UTF-8", LC_ALL: "fr_FR.UTF-8" }).locale).toBe("en");
    expect(parseConfig({ CODEXPI_LOCALE: "fr" }).locale).toBe("fr");
    expect(c.tick).toBe("*/5 * * * * *");
    expect(c.admins).toEqual([]);
  });

  it("a malformed variable fails with one message that names it", () => {
    expect(() => parseConfig({ CODEXPI_ADMINS: "alice" })).toThrow(ConfigError);
    expect(() => parseConfig({ CODEXPI_ADMINS: "alice" })).toThrow(/CODEXPI_ADMINS/);
    expect(() => parseConfig({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => parseConfig({ SLACK_BOT_TOKEN: "xapp-1" })).toThrow(/SLACK_BOT_TOKEN/);
    expect(() => parseConfig({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => parseConfig({ DATABASE_URL: "postgres://x" })).toThrow(/DATABASE_URL/); // no database name
    expect(() => parseConfig({ CODEXPI_LOCALE: "de" })).toThrow(/CODEXPI_LOCALE/);
  });

  it("S-USE-04: CODEXPI_PRICES is a price table (JSON or a file holding it); a malformed one names the variable", () => {
    const table = { currency: "EUR", models: { default: { input: 1, output: 2 } } };
    expect(parseConfig({ CODEXPI_PRICES: JSON.stringify(table) }).prices).toEqual(table);
    expect(parseConfig({}).prices).toBeNull();
    expect(() => parseConfig({ CODEXPI_PRICES: '{"models":{"x":{"input":"cheap"}}}' })).toThrow(
      /CODEXPI_PRICES/,
    );
    expect(() => parseConfig({ CODEXPI_PRICES: "/nonexistent/prices.json" })).toThrow(/CODEXPI_PRICES/);
  });

  it("an invalid CODEXPI_TICK is a configuration error naming it; a valid one is kept", () => {
    expect(() => parseConfig({ CODEXPI_TICK: "every five seconds" })).toThrow(ConfigError);
    expect(() => parseConfig({ CODEXPI_TICK: "every five seconds" })).toThrow(/CODEXPI_TICK/);
    expect(parseConfig({ CODEXPI_TICK: "0 * * * *" }).tick).toBe("0 * * * *");
  });

  it("CODEXPI_RUNNER is exec by default, app-server on request, and anything else a configuration error naming it", () => {
    expect(parseConfig({}).runner).toBe("exec");
    expect(parseConfig({ CODEXPI_RUNNER: "app-server" }).runner).toBe("app-server");
    expect(() => parseConfig({ CODEXPI_RUNNER: "appserver" })).toThrow(ConfigError);
    expect(() => parseConfig({ CODEXPI_RUNNER: "appserver" })).toThrow(/CODEXPI_RUNNER/);
  });

  it("streaming is automatic and interim posts come once a minute by default; both are validated", () => {
    expect(parseConfig({}).progress).toEqual({ streaming: "auto", interimMs: 60_000, doneDmAfterMs: 60_000 });
    expect(parseConfig({ CODEXPI_STREAMING: "off", CODEXPI_INTERIM_SECONDS: "0" }).progress).toEqual({
      streaming: "off",
      interimMs: 0,
      doneDmAfterMs: 60_000,
    });
    expect(parseConfig({ CODEXPI_INTERIM_SECONDS: "15" }).progress.interimMs).toBe(15_000);
    expect(() => parseConfig({ CODEXPI_STREAMING: "always" })).toThrow(/CODEXPI_STREAMING/);
    expect(() => parseConfig({ CODEXPI_INTERIM_SECONDS: "-1" })).toThrow(/CODEXPI_INTERIM_SECONDS/);
    expect(() => parseConfig({ CODEXPI_INTERIM_SECONDS: "soon" })).toThrow(/CODEXPI_INTERIM_SECONDS/);
  });

  it("S-CTX-05: the thread-context budget is 50 messages and 20,000 characters by default; 0 messages turns it off; both are validated", () => {
    expect(parseConfig({}).threadContext).toEqual({ messages: 50, chars: 20_000 });
    expect(
      parseConfig({ CODEXPI_THREAD_CONTEXT_MESSAGES: "0", CODEXPI_THREAD_CONTEXT_CHARS: "500" })
        .threadContext,
    ).toEqual({ messages: 0, chars: 500 });
    expect(() => parseConfig({ CODEXPI_THREAD_CONTEXT_MESSAGES: "-1" })).toThrow(
      /CODEXPI_THREAD_CONTEXT_MESSAGES/,
    );
    expect(() => parseConfig({ CODEXPI_THREAD_CONTEXT_CHARS: "10" })).toThrow(/CODEXPI_THREAD_CONTEXT_CHARS/);
  });

  it("S-QUIET-02, S-FAIL-02: done DMs after 60 s of work and a connection limit of 120 s by default; both are settings", () => {
    expect(parseConfig({}).connectTimeoutMs).toBe(120_000);
    expect(parseConfig({ CODEXPI_CONNECT_TIMEOUT: "5" }).connectTimeoutMs).toBe(5_000);
    expect(parseConfig({ CODEXPI_DONE_DM_SECONDS: "0" }).progress.doneDmAfterMs).toBe(0);
    expect(() => parseConfig({ CODEXPI_CONNECT_TIMEOUT: "0" })).toThrow(/CODEXPI_CONNECT_TIMEOUT/);
    expect(() => parseConfig({ CODEXPI_DONE_DM_SECONDS: "soon" })).toThrow(/CODEXPI_DONE_DM_SECONDS/);
  });

  it("a relative CODEX_HOME is resolved against the working directory; unset stays unset (~/.codex)", () => {
    expect(parseConfig({ CODEX_HOME: "codex-home" }).codexHome).toBe(path.resolve("codex-home"));
    expect(parseConfig({ CODEX_HOME: "/srv/codex" }).codexHome).toBe("/srv/codex");
    expect(parseConfig({}).codexHome).toBeUndefined();
  });

  it("parses admins, timeouts and a sqlite DATABASE_URL", () => {
    const c = parseConfig({
      CODEXPI_ADMINS: "U1, U2",
      CODEXPI_TURN_TIMEOUT: "90",
      DATABASE_URL: "sqlite:/tmp/x.db",
    });
    expect(c.admins).toEqual(["U1", "U2"]);
    expect(c.turnTimeoutMs).toBe(90_000);
    expect(c.databasePath).toBe("/tmp/x.db");
  });

  it("a postgres:// DATABASE_URL selects PostgreSQL; people only ever see it without its password", () => {
    const url = "postgresql://codexpi:s3cr@t!@db.example:5433/codexpi?sslmode=require";
    const c = parseConfig({ DATABASE_URL: url });
    expect(c.database).toEqual({ dialect: "postgres", url });
    expect(c.databasePath).toBe("postgresql://codexpi:[redacted]@db.example:5433/codexpi?sslmode=require");
    expect(parseConfig({ DATABASE_URL: "postgres://db/x" }).database.dialect).toBe("postgres");
    // The default and sqlite: URLs stay what they were.
    expect(parseConfig({}).database).toEqual({ dialect: "sqlite", file: path.resolve("data", "codexpi.db") });
    expect(parseConfig({ DATABASE_URL: "sqlite:/tmp/x.db" }).database).toEqual({
      dialect: "sqlite",
      file: "/tmp/x.db",
    });
  });

  it("a malformed postgres URL fails without echoing it (it may hold a password)", () => {
    let message = "";
    try {
      parseConfig({ DATABASE_URL: "postgres://user:hunter2-secret@" });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/DATABASE_URL/);
    expect(message).not.toContain("hunter2");
  });

  it("serving needs a bot token and either a signing secret (HTTP) or an app token (Socket Mode)", () => {
    expect(() => requireSlack(parseConfig({}))).toThrow(/SLACK_BOT_TOKEN/);
    expect(() => requireSlack(parseConfig({ SLACK_BOT_TOKEN: "xoxb-1" }))).toThrow(/SLACK_SIGNING_SECRET/);
    expect(() =>
      requireSlack(parseConfig({ SLACK_BOT_TOKEN: "xoxb-1", SLACK_APP_TOKEN: "xapp-1" })),
    ).not.toThrow();
  });
});
