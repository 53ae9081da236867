// A strict parser of the Prometheus text exposition format 0.0.4 (prom-client's own parser is not
// public and no other is installed): every sample belongs to a family announced by `# HELP` and
// `# TYPE` before it, names and labels follow the format's grammar, values are floats, a family
// appears once, and counters are named `_total`. Throws on the first line that breaks a rule.

/** One sample: its metric name, labels and value. */
export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A family: its help, type and samples. */
export interface PromFamily {
  name: string;
  help: string;
  type: "counter" | "gauge" | "histogram" | "summary" | "untyped";
  samples: PromSample[];
}

const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const HELP = new RegExp(`^# HELP (${NAME}) (.*)$`);
const TYPE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: (-?\\d+))?$`);
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\\\|\\"|\\n)*)"(?:,|$)/;

function parseValue(text: string, line: number): number {
  if (text === "NaN") return Number.NaN;
  if (text === "+Inf") return Number.POSITIVE_INFINITY;
  if (text === "-Inf") return Number.NEGATIVE_INFINITY;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text))
    throw new Error(`line ${line}: bad value ${text}`);
  return Number(text);
}

function parseLabels(text: string | undefined, line: number): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text ?? "";
  while (rest.length) {
    const m = LABEL.exec(rest);
    if (!m) throw new Error(`line ${line}: bad labels ${rest}`);
    const [whole, name, raw] = m as unknown as [string, string, string];
    if (Object.hasOwn(labels, name)) throw new Error(`line ${line}: label ${name} twice`);
    labels[name] = raw.replace(/\\(["\\n])/g, (_, c: string) => (c === "n" ? "\n" : c));
    rest = rest.slice(whole.length);
  }
  return labels;
}

/** Parses an exposition into its families, or throws naming the line that breaks the format. */
export function parsePrometheusText(text: string): Map<string, PromFamily> {
  if (!text.endsWith("\n")) throw new Error("the exposition must end with a newline");
  const families = new Map<string, PromFamily>();
  const helps = new Map<string, string>();
  let current: PromFamily | null = null;
  text
    .slice(0, -1)
    .split("\n")
    .forEach((raw, i) => {
      const line = i + 1;
      const help = HELP.exec(raw);
      const type = TYPE.exec(raw);
      if (help) {
        if (helps.has(help[1] as string) || families.has(help[1] as string))
          throw new Error(`line ${line}: family ${help[1]} announced twice`);
        helps.set(help[1] as string, help[2] as string);
      } else if (type) {
        const name = type[1] as string;
        if (!helps.has(name)) throw new Error(`line ${line}: TYPE of ${name} without HELP before it`);
        if (families.has(name)) throw new Error(`line ${line}: TYPE of ${name} twice`);
        current = { name, help: helps.get(name) as string, type: type[2] as PromFamily["type"], samples: [] };
        if (current.type === "counter" && !name.endsWith("_total"))
          throw new Error(`line ${line}: counter ${name} is not named _total`);
        families.set(name, current);
      } else if (raw === "") {
        // The format ignores empty lines (prom-client writes one between families).
      } else if (raw.startsWith("#")) {
        throw new Error(`line ${line}: unexpected comment`);
      } else {
        const m = SAMPLE.exec(raw);
        if (!m) throw new Error(`line ${line}: not a sample: ${raw}`);
        const fam = current as PromFamily | null;
        if (!fam || m[1] !== fam.name) throw new Error(`line ${line}: sample ${m[1]} outside its family`);
        const value = parseValue(m[3] as string, line);
        if (fam.type === "counter" && !(value >= 0)) throw new Error(`line ${line}: counter ${m[1]} below 0`);
        fam.samples.push({ name: m[1] as string, labels: parseLabels(m[2], line), value });
      }
    });
  for (const name of helps.keys())
    if (!families.has(name)) throw new Error(`family ${name} has HELP but no TYPE`);
  return families;
}
