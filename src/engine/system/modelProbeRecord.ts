import fs from "node:fs";
import path from "node:path";

// `codexpi doctor` proves the model with one real turn; /healthz reports what that proof said
// (a health probe cannot spend a model turn every few seconds). The record is a file in the data
// directory rather than a row: doctor must report a broken database without needing one.

/** The last model probe `doctor` ran with this data directory. */
export interface ModelProbeRecord {
  ok: boolean;
  /** Epoch milliseconds when the probe ended. */
  at: number;
}

const FILE = "model-probe.json";

/** Writes the probe's outcome (whole or not at all: a reader never sees half a file). */
export function recordModelProbe(dataDir: string, record: ModelProbeRecord): void {
  fs.mkdirSync(dataDir, { recursive: true });
  const tmp = path.join(dataDir, `.${FILE}.${process.pid}`);
  fs.writeFileSync(tmp, JSON.stringify({ ok: record.ok, at: record.at }), { mode: 0o600 });
  fs.renameSync(tmp, path.join(dataDir, FILE));
}

/** The last probe's outcome, or null when no probe ran (or its record is unreadable). */
export function readModelProbe(dataDir: string): ModelProbeRecord | null {
  try {
    const r = JSON.parse(fs.readFileSync(path.join(dataDir, FILE), "utf8")) as Partial<ModelProbeRecord>;
    return typeof r.ok === "boolean" && typeof r.at === "number" ? { ok: r.ok, at: r.at } : null;
  } catch {
    return null;
  }
}
