import { pino, type Logger } from "pino";

/** The project's logger type: always a pino logger, scoped with child() per run/queue item. */
export type { Logger };

/** Creates the root logger; secrets are redacted wherever they might be logged by accident. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: ["token", "*.token", "botToken", "appToken", "signingSecret", "*.botToken", "*.signingSecret", "headers.authorization"],
        censor: "[redacted]",
      },
    },
    destination ?? pino.destination(2),
  );
}

/** A logger that writes nothing, for tests and library use. */
export const silentLogger: Logger = pino({ level: "silent" });
