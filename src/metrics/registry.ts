// A small Prometheus client with prom-client's shape (Registry, Counter, Gauge, `collect`,
// `metrics()`), because prom-client is not among the installed packages: swapping it in is a
// change of import. Text exposition format 0.0.4: `# HELP`, `# TYPE`, then one sample per label
// set; label values and help texts escaped as the format says.

/** Label values of one sample. */
export type Labels<L extends string> = Partial<Record<L, string | number>>;

/** What every metric family is built from. */
export interface MetricConfig<L extends string> {
  name: string;
  help: string;
  labelNames?: readonly L[];
  /** Registries it joins (none: it is exposed nowhere until registered). */
  registers?: Registry[];
  /** Called before each exposition: sets the family's values from their source. */
  collect?: (this: Metric<L>) => void | Promise<void>;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

const escapeHelp = (s: string) => s.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
const escapeValue = (s: string) => s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");

function formatNumber(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Number.POSITIVE_INFINITY) return "+Inf";
  if (v === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(v);
}

/** A metric family: its samples by label set. */
abstract class Metric<L extends string = string> {
  abstract readonly type: "counter" | "gauge";
  readonly name: string;
  readonly help: string;
  private readonly labelNames: readonly L[];
  private readonly collector: MetricConfig<L>["collect"];
  protected readonly values = new Map<string, { labels: Labels<L>; value: number }>();

  constructor(config: MetricConfig<L>) {
    if (!NAME.test(config.name)) throw new Error(`invalid metric name: ${config.name}`);
    for (const l of config.labelNames ?? []) if (!LABEL.test(l)) throw new Error(`invalid label name: ${l}`);
    this.name = config.name;
    this.help = config.help;
    this.labelNames = config.labelNames ?? [];
    this.collector = config.collect;
    for (const r of config.registers ?? []) r.registerMetric(this);
  }

  /** Forgets every sample (a collector that sets absolute values starts with it). */
  reset(): void {
    this.values.clear();
  }

  protected key(labels: Labels<L>): string {
    for (const k of Object.keys(labels))
      if (!this.labelNames.includes(k as L)) throw new Error(`label ${k} is not one of ${this.name}'s`);
    return this.labelNames.map((l) => `${l}=${labels[l] ?? ""}`).join("\u0000");
  }

  protected add(labels: Labels<L>, delta: number, absolute: boolean): void {
    const key = this.key(labels);
    const sample = this.values.get(key) ?? { labels, value: 0 };
    sample.value = absolute ? delta : sample.value + delta;
    this.values.set(key, sample);
  }

  /** The family in text format, after its collector ran. */
  async exposition(): Promise<string> {
    if (this.collector) await this.collector.call(this);
    const lines = [`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} ${this.type}`];
    // A family without labels always has its one sample (0 before anything happened).
    if (this.labelNames.length === 0 && this.values.size === 0) lines.push(`${this.name} 0`);
    for (const { labels, value } of this.values.values()) {
      const pairs = Object.entries(labels)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${k}="${escapeValue(String(v))}"`);
      lines.push(`${this.name}${pairs.length ? `{${pairs.join(",")}}` : ""} ${formatNumber(value)}`);
    }
    return lines.join("\n");
  }
}

const split = <L extends string>(a?: Labels<L> | number, b?: number): [Labels<L>, number | undefined] =>
  typeof a === "number" || a === undefined ? [{}, a] : [a, b];

/** A value that only goes up (resets on restart); Prometheus computes rates from it. */
export class Counter<L extends string = string> extends Metric<L> {
  readonly type = "counter" as const;

  inc(labels?: Labels<L> | number, value?: number): void {
    const [l, v = 1] = split(labels, value);
    if (v < 0) throw new Error(`a counter only goes up (${this.name})`);
    this.add(l, v, false);
  }
}

/** A value that goes up and down. */
export class Gauge<L extends string = string> extends Metric<L> {
  readonly type = "gauge" as const;

  set(labels: Labels<L> | number, value?: number): void {
    const [l, v] = split(labels, value);
    this.add(l, v ?? 0, true);
  }

  inc(labels?: Labels<L> | number, value?: number): void {
    const [l, v = 1] = split(labels, value);
    this.add(l, v, false);
  }
}

/** What a registry exposes of a family. */
interface Family {
  readonly name: string;
  exposition(): Promise<string>;
}

/** The metric families of one process (never a global default: two bots in one test worker do not mix). */
export class Registry {
  readonly contentType = "text/plain; version=0.0.4; charset=utf-8";
  private readonly families = new Map<string, Family>();

  registerMetric(metric: Family): void {
    if (this.families.has(metric.name)) throw new Error(`metric ${metric.name} is already registered`);
    this.families.set(metric.name, metric);
  }

  getSingleMetric(name: string): Family | undefined {
    return this.families.get(name);
  }

  /** Every family in text format. */
  async metrics(): Promise<string> {
    const parts: string[] = [];
    for (const m of this.families.values()) parts.push(await m.exposition());
    return `${parts.join("\n")}\n`;
  }
}
