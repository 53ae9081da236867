import fs from "node:fs";
import path from "node:path";
import type { Config } from "../../config.js";
import { redactText } from "../../redaction.js";
import { logsDir } from "../system/index.js";

/** Where Codex's stderr goes for this item (the logs directory is made if needed). */
export function codexLogFile(config: Config, queueId: string): string {
  fs.mkdirSync(logsDir(config), { recursive: true });
  return path.join(logsDir(config), `codex-${queueId}.log`);
}

/** Rewrites a log file with every secret redacted (the same redactor as every other log line). */
export function redactFileInPlace(file: string, log: { warn(obj: object, msg: string): void }): void {
  try {
    const text = fs.readFileSync(file, "utf8");
    const clean = redactText(text);
    if (clean !== text) fs.writeFileSync(file, clean);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") log.warn({ err }, "could not redact the Codex log");
  }
}
