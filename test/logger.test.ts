import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../src/logger.js";
import { clearRegisteredSecrets, registerSecrets } from "../src/redaction.js";

const PEM =
  "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----";

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger("debug", stream) };
}

describe("createLogger", () => {
  beforeAll(() => registerSecrets(["8f3c2a9d0e7b41c6a5d29e08f7b3c1d4"]));
  afterAll(() => clearRegisteredSecrets());

  it("redacts secrets anywhere in a line: message, fields, errors, a PEM block; lines stay valid JSON", () => {
    const { lines, logger } = capture();
    logger.info(
      { detail: { answer: "key sk-proj-Ab3dEfGhIjKlMnOpQrStUvWxYz_0123-456789" }, pem: PEM },
      "posted xoxb-1234567890-1234567890123-AbCdEfGhIjKl",
    );
    logger
      .child({ queueId: "q1" })
      .error({ err: new Error("signing secret 8f3c2a9d0e7b41c6a5d29e08f7b3c1d4 rejected") }, "failed");
    const text = lines.join("");
    for (const secret of [
      "Ab3dEfGhIjKlMnOpQrStUvWxYz",
      "1234567890-1234567890123",
      "8f3c2a9d0e7b41c6a5d29e08f7b3c1d4",
      "MIIEvQIBADANBgkqhkiG9w0",
    ])
      expect(text).not.toContain(secret);
    const [first, second] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(first).toMatchObject({
      msg: "posted xoxb-[redacted]",
      detail: { answer: "key sk-proj-[redacted]" },
      pem: "[redacted private key]",
    });
    expect((second?.err as { message: string } | undefined)?.message).toBe(
      "signing secret [redacted] rejected",
    );
  });

  it("still censors the known secret fields by path, and leaves ordinary lines alone", () => {
    const { lines, logger } = capture();
    logger.info({ token: "short", headers: { authorization: "x" }, task: "task-list" }, "ordinary line");
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      token: "[redacted]",
      headers: { authorization: "[redacted]" },
      task: "task-list",
      msg: "ordinary line",
    });
  });
});
