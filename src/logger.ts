import { pino, type Logger } from "pino";
import { redactText } from "./redaction.js";

/** The project's logger type: always a pino logger, scoped with child() per run/queue item. */
export type { Logger };

/**
 * Creates the root logger. Known secret fields are censored by path, and every serialized line
 * passes the redactor, since a token can hide in any message or error text (an agent's answer, a
 * failure, a Slack error echoing its request).
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          "token",
          "*.token",
          "botToken",
          "appToken",
          "signingSecret",
          "*.botToken",
          "*.signingSecret",
          "headers.authorization",
        ],
        censor: "[redacted]",
      },
      hooks: { streamWrite: redactText },
    },
    destination ?? pino.destination(2),
  );
}

/** A logger that writes nothing, for tests and library use. */
export const silentLogger: Logger = pino({ level: "silent" });
