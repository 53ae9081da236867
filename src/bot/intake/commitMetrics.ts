import { Counter, type Registry } from "../../metrics/index.js";
import type { IntakeCounters } from "./intake.js";

/**
 * The intake journal's commits, in the process's registry: requests recorded over commits is the
 * size of a group commit (one fsync for a burst of requests, see ../groupCommit.ts).
 */
export function intakeCommitMetrics(registry: Registry): IntakeCounters {
  const existing = (name: string) => registry.getSingleMetric(name) as Counter | undefined;
  const commits =
    existing("codexpi_intake_commits_total") ??
    new Counter({
      name: "codexpi_intake_commits_total",
      help: "Durable commits (fsyncs) of the intake journal, each holding one or more Slack requests",
      registers: [registry],
    });
  const requests =
    existing("codexpi_intake_requests_total") ??
    new Counter({
      name: "codexpi_intake_requests_total",
      help: "Slack requests recorded in the intake journal before their ack",
      registers: [registry],
    });
  return {
    committed(n) {
      commits.inc();
      requests.inc(n);
    },
  };
}
