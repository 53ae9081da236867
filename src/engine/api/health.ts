import { execa } from "execa";
import { outboxCounts, pingDatabase } from "../read/index.js";
import { failureRunEnd, queueCounts, turnCompletedSince } from "../conversations/index.js";
import { isModelFailure } from "../../i18n/failures.js";
import { codexEnvironment } from "../isolation/index.js";
import type { Kernel } from "../kernel.js";
import { leaseHolder, COORDINATOR_LEASE } from "../leases.js";
import { resolveCodexBinary } from "../codex/index.js";
import { Registry } from "../../metrics/index.js";
import { engineMetrics } from "./engineMetrics.js";
import { probeDatabaseWrite, probeDisk, type DiskProbeOptions } from "../storage.js";
import { readModelProbe } from "../system/index.js";

// The admin health endpoint's figures: what the engine can say about the installation (database,
// disk, Codex, the coordinator's lease, queue and outbox). The bot serves them over HTTP.

/** Extra gauges other features add to the health report (e.g. open incidents). */
export type HealthContributor = (engine: Kernel) => Promise<Record<string, number>>;

/** The health report: `ok` false names the failing checks. */
export interface HealthReport {
  ok: boolean;
  failing: string[];
  database: boolean;
  /** Whether the database takes a write (false: read-only file or mount, full disk, stuck lock). */
  database_writable: boolean;
  disk: { free_bytes: number | null; problem: string | null };
  codex: { found: boolean; path: string | null; version: string | null };
  /**
   * Whether the model answers: `ok` once `doctor`'s probe passed or a turn completed; `failing`
   * when the newest proof is a failed probe, or the last turns (CODEXPI_HEALTH_MODEL_FAILURES, in
   * a row) all failed for it (then `model` is a failing check); `unchecked` before any proof
   * (nothing says the model works, nothing says it does not: run `codexpi doctor`).
   */
  model: { state: "ok" | "failing" | "unchecked"; checked_at: number | null; by: "doctor" | "turn" | null };
  lease: { holder: string | null; expiresAt: number | null };
  last_tick_at: number | null;
  queue: { queued: number; running: number };
  outbox: { pending: number; failed: number };
  gauges: Record<string, number>;
}

const UNCHECKED: HealthReport["model"] = { state: "unchecked", checked_at: null, by: null };

/** Reads the installation's health; never throws (a failing check is reported, not raised). */
export class Health {
  private codexVersion: Promise<string | null> | null = null;
  private turnProof: { since: number; model: HealthReport["model"] } | null = null;
  /** This process's metric families (never a global registry: processes and tests stay apart). */
  readonly registry = new Registry();
  private readonly fill: (report: HealthReport) => Promise<void>;

  constructor(
    private readonly engine: Kernel,
    private readonly contributors: HealthContributor[] = [],
    private readonly leaseTtlMs = 30_000,
    private readonly diskProbe: DiskProbeOptions = {},
  ) {
    this.fill = engineMetrics(this.registry, engine);
  }

  async report(): Promise<HealthReport> {
    const failing: string[] = [];
    const { db, clock } = this.engine;
    let database = true;
    let queue = { queued: 0, running: 0 };
    let outbox = { pending: 0, failed: 0 };
    let lease: HealthReport["lease"] = { holder: null, expiresAt: null };
    const gauges: Record<string, number> = {};
    try {
      await pingDatabase(db);
      queue = await queueCounts(db);
      outbox = await outboxCounts(db);
      const holder = await leaseHolder(db, clock, COORDINATOR_LEASE);
      lease = { holder: holder?.owner ?? null, expiresAt: holder?.expiresAt ?? null };
      for (const c of this.contributors) Object.assign(gauges, await c(this.engine));
    } catch {
      database = false;
      failing.push("database");
    }
    // A bot that reads but cannot write loses every answer: reads alone prove nothing.
    let databaseWritable = database;
    if (database) {
      try {
        await probeDatabaseWrite(db, { noWait: true });
      } catch {
        databaseWritable = false;
        failing.push("database_readonly");
      }
    }
    const disk = probeDisk(this.engine.config.dataDir, this.diskProbe);
    if (disk.problem) failing.push("disk");
    const path = resolveCodexBinary(this.engine.config.codexBin);
    const version = path ? await this.version(path) : null;
    if (!path || !version) failing.push("codex");
    if (database && !lease.holder) failing.push("tick");
    const model = database ? await this.model().catch(() => UNCHECKED) : UNCHECKED;
    if (model.state === "failing") failing.push("model");
    return {
      ok: failing.length === 0,
      failing,
      database,
      database_writable: databaseWritable,
      disk: { free_bytes: disk.freeBytes, problem: disk.problem },
      codex: { found: Boolean(path), path, version },
      model,
      lease,
      last_tick_at: lease.expiresAt ? lease.expiresAt - this.leaseTtlMs : null,
      queue,
      outbox,
      gauges,
    };
  }

  /**
   * Prometheus text exposition (prom-client's format) of this process's registry: the engine's
   * families, filled from one report, and whatever the process added (the bot's Slack calls).
   */
  async metrics(): Promise<string> {
    await this.fill(await this.report());
    return this.registry.metrics();
  }

  /**
   * The newest proof about the model: turns failing in a row for it, else the last probe `doctor`
   * recorded, or a turn completed since it. A turn found after a probe stays the answer until
   * doctor records another probe.
   */
  private async model(): Promise<HealthReport["model"]> {
    const probe = readModelProbe(this.engine.config.dataDir);
    // Turns failing in a row for the model prove it down, until a turn (or a probe) since says otherwise.
    const failedAt = await failureRunEnd(
      this.engine.db,
      this.engine.config.health.modelFailures,
      isModelFailure,
    );
    if (failedAt !== null && !(probe?.ok && probe.at > failedAt))
      return { state: "failing", checked_at: failedAt, by: "turn" };
    if (probe?.ok) return { state: "ok", checked_at: probe.at, by: "doctor" };
    const since = probe?.at ?? 0;
    if (this.turnProof?.since === since) return this.turnProof.model;
    const turnAt = await turnCompletedSince(this.engine.db, since);
    if (turnAt !== null) {
      const model = { state: "ok", checked_at: turnAt, by: "turn" } as const;
      this.turnProof = { since, model };
      return model;
    }
    return probe ? { state: "failing", checked_at: probe.at, by: "doctor" } : UNCHECKED;
  }

  /** Codex's version, asked once (a process start per health probe would be wasteful). */
  private version(path: string): Promise<string | null> {
    // Allow-listed environment: the bot's Slack tokens never reach a Codex process, even this one.
    const env = codexEnvironment(process.env, this.engine.config.agentEnv, {
      CODEX_HOME: this.engine.config.codexHome,
    });
    this.codexVersion ??= execa(path, ["--version"], {
      reject: false,
      timeout: 10_000,
      env,
      extendEnv: false,
    }).then((r) => (r.exitCode === 0 ? r.stdout.trim() : null));
    return this.codexVersion;
  }
}
