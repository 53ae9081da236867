import { Counter, Gauge, type Registry } from "../../metrics/index.js";
import type { Kernel } from "../kernel.js";
import { approvalsWaiting, egressRefusals, turnsByOutcome } from "../read/index.js";
import { allBudgets, usageTotals } from "../usage/index.js";

/** What the metrics read of a health report (health.ts's HealthFigures has these fields). */
interface HealthFigures {
  ok: boolean;
  database: boolean;
  database_writable: boolean;
  disk: { free_bytes: number | null };
  queue: { queued: number; running: number };
  outbox: { pending: number; failed: number };
  model: { state: "ok" | "failing" | "unchecked" };
  last_tick_at: number | null;
  gauges: Record<string, number>;
}

// The engine's metric families (issue 21, item 4), filled at each scrape from the health report
// and the database: counters for what only grows (turns, tokens, agent time, read from the
// recorded history, so every `serve` reports the same), gauges for the rest.

const HEALTH_GAUGES: Array<[name: string, help: string, read: (r: HealthFigures, now: number) => number]> = [
  ["codexpi_up", "1 when every health check passes", (r) => (r.ok ? 1 : 0)],
  ["codexpi_database_up", "1 when the database answers", (r) => (r.database ? 1 : 0)],
  ["codexpi_database_writable", "1 when the database takes a write", (r) => (r.database_writable ? 1 : 0)],
  [
    "codexpi_model_up",
    "1 when a model probe or a turn proved the model, 0 when the newest probe failed, -1 unchecked",
    (r) => (r.model.state === "ok" ? 1 : r.model.state === "failing" ? 0 : -1),
  ],
  [
    "codexpi_disk_free_bytes",
    "Free bytes under the data directory (-1: unknown)",
    (r) => r.disk.free_bytes ?? -1,
  ],
  ["codexpi_queue_queued", "Queue depth: prompts waiting to run", (r) => r.queue.queued],
  ["codexpi_queue_running", "Prompts running now", (r) => r.queue.running],
  ["codexpi_outbox_pending", "Domain events not yet delivered", (r) => r.outbox.pending],
  ["codexpi_outbox_failed", "Domain events that failed for good", (r) => r.outbox.failed],
  [
    "codexpi_last_tick_age_seconds",
    "Seconds since the coordinator's last tick (-1: no coordinator)",
    (r, now) => (r.last_tick_at ? (now - r.last_tick_at) / 1000 : -1),
  ],
];

/** The families read from the database at each scrape. */
function families(registers: Registry[]) {
  const turns = new Counter({
    name: "codexpi_turns_total",
    help: "Finished turns by outcome",
    labelNames: ["outcome"],
    registers,
  });
  const approvals = new Gauge({
    name: "codexpi_approvals_waiting",
    help: "Approvals waiting for a person",
    registers,
  });
  const tokens = new Counter({
    name: "codexpi_tokens_total",
    help: "Tokens used by finished turns, by project and kind (input includes cached)",
    labelNames: ["project", "kind"],
    registers,
  });
  const agent = new Counter({
    name: "codexpi_agent_seconds_total",
    help: "Agent time of finished turns, by project",
    labelNames: ["project"],
    registers,
  });
  // A person's budget is not a series of its own: its subject would be a Slack user id, and
  // metrics leave the operators' hands (dashboards, long-term stores). People's budgets are counted.
  const budget = new Gauge({
    name: "codexpi_budget_tokens",
    help: "Token budgets of projects by scope, subject and period",
    labelNames: ["scope", "subject", "period"],
    registers,
  });
  const used = new Gauge({
    name: "codexpi_budget_used_tokens",
    help: "Tokens used in the current period of each project's budget",
    labelNames: ["scope", "subject", "period"],
    registers,
  });
  const people = new Gauge({
    name: "codexpi_user_budgets",
    help: "People with a token budget for the period",
    labelNames: ["period"],
    registers,
  });
  const reached = new Gauge({
    name: "codexpi_user_budgets_reached",
    help: "People whose token budget for the current period is used up",
    labelNames: ["period"],
    registers,
  });
  const refused = new Counter({
    name: "codexpi_egress_refused_total",
    help: "Connections agents' egress proxies refused, by project (from the audit trail)",
    labelNames: ["project"],
    registers,
  });
  return { turns, approvals, tokens, agent, budget, used, people, reached, refused };
}

/** Registers the engine's families in `registry`; the answer fills them from one health report. */
export function engineMetrics(registry: Registry, kernel: Kernel): (report: HealthFigures) => Promise<void> {
  const registers = [registry];
  const health = HEALTH_GAUGES.map(([name, help, read]) => ({
    gauge: new Gauge({ name, help, registers }),
    read,
  }));
  const { turns, approvals, tokens, agent, budget, used, people, reached, refused } = families(registers);
  const extra = new Map<string, Gauge>();
  return async (report) => {
    const now = kernel.clock.now();
    for (const { gauge, read } of health) gauge.set(read(report, now));
    for (const [k, v] of Object.entries(report.gauges)) {
      const name = `codexpi_${k.replace(/\W/g, "_")}`;
      if (!extra.has(name)) extra.set(name, new Gauge({ name, help: `Health figure ${k}`, registers }));
      extra.get(name)?.set(v);
    }
    if (!report.database) return;
    turns.reset();
    for (const t of await turnsByOutcome(kernel.db)) turns.inc({ outcome: t.outcome }, t.n);
    approvals.set(await approvalsWaiting(kernel.db));
    refused.reset();
    for (const r of await egressRefusals(kernel.db)) refused.inc({ project: r.project }, r.n);
    tokens.reset();
    agent.reset();
    for (const u of await usageTotals(kernel.db)) {
      for (const kind of ["input", "cached", "output"] as const)
        tokens.inc({ project: u.project, kind }, u[kind]);
      agent.inc({ project: u.project }, u.agentMs / 1000);
    }
    for (const g of [budget, used, people, reached]) g.reset();
    for (const period of ["daily", "monthly"] as const) {
      people.set({ period }, 0);
      reached.set({ period }, 0);
    }
    for (const b of await allBudgets(kernel)) {
      for (const period of ["daily", "monthly"] as const) {
        const limit = b.limits[period];
        if (limit === null) continue;
        if (b.scope === "user") {
          people.inc({ period });
          if (b.used[period] >= limit) reached.inc({ period });
          continue;
        }
        const labels = { scope: b.scope, subject: b.name, period };
        budget.set(labels, limit);
        used.set(labels, b.used[period]);
      }
    }
  };
}
