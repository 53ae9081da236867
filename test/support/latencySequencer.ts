import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The order files start in when the latency files run beside the others (vitest.config.ts).
 * Vitest's own order (failed first, then the longest, one project after the other) would start
 * them all at once at the beginning, while every worker is still loading its modules and the
 * PostgreSQL project's files all open their databases: a burst no priority evens out. Here the
 * others keep vitest's order and the latency files are dealt in among them, one every few files,
 * from after the first two rounds of starts to about two thirds of the queue, so that they neither
 * meet the start-up burst nor lengthen the tail of the run.
 */
export class LatencySequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const latency = sorted.filter((f) => f.project.name.endsWith("-latency"));
    const others = sorted.filter((f) => !f.project.name.endsWith("-latency"));
    if (latency.length === 0 || others.length === 0) return sorted;
    const workers = this.ctx.config.maxWorkers || 1;
    const first = Math.min(others.length, 2 * workers);
    const every = Math.max(1, Math.floor(((others.length * 2) / 3 - first) / latency.length));
    const out = others.slice(0, first);
    let next = first;
    for (const file of latency) {
      out.push(file, ...others.slice(next, next + every));
      next += every;
    }
    out.push(...others.slice(next));
    return out;
  }
}
