/**
 * Counts the tokens a turn spent, read from the upstream's answers as they stream through the
 * gateway: each Responses `response.completed` event (or a non-streamed response) carries that
 * response's `usage`. Nothing the agent says can change these figures: they are the model's.
 */

/** A turn's tokens, summed over its responses. */
export interface GatewayUsage {
  input: number;
  cached: number;
  output: number;
  responses: number;
}

const n = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

/** Sums `usage` of completed responses from server-sent events fed to it in arbitrary chunks. */
export class UsageTap {
  private sum: GatewayUsage = { input: 0, cached: 0, output: 0, responses: 0 };
  private pending = "";
  private json: Buffer[] = [];

  /** A chunk of an event stream. */
  push(chunk: Buffer): void {
    this.pending += chunk.toString("utf8");
    let nl = this.pending.indexOf("\n");
    while (nl >= 0) {
      this.line(this.pending.slice(0, nl).replace(/\r$/, ""));
      this.pending = this.pending.slice(nl + 1);
      nl = this.pending.indexOf("\n");
    }
    // An event line is never this long; a stream that is not SSE must not grow memory.
    if (this.pending.length > 4 * 1024 * 1024) this.pending = "";
  }

  /** A chunk of a plain JSON answer (a non-streamed response). */
  pushJson(chunk: Buffer): void {
    if (this.json.reduce((s, b) => s + b.length, 0) < 4 * 1024 * 1024) this.json.push(chunk);
  }

  /** The answer is complete. */
  end(): void {
    if (this.pending) this.line(this.pending);
    this.pending = "";
    if (this.json.length) {
      try {
        this.add(JSON.parse(Buffer.concat(this.json).toString("utf8")));
      } catch {
        // not a response document
      }
      this.json = [];
    }
  }

  total(): GatewayUsage {
    return { ...this.sum };
  }

  private line(line: string): void {
    if (!line.startsWith("data:")) return;
    let event: { type?: unknown; response?: unknown };
    try {
      event = JSON.parse(line.slice(5).trim());
    } catch {
      return;
    }
    if (event.type === "response.completed") this.add(event.response);
  }

  private add(response: unknown): void {
    if (!response || typeof response !== "object") return;
    const usage = (response as { usage?: Record<string, unknown> }).usage;
    if (!usage || typeof usage !== "object") return;
    const details = usage.input_tokens_details as Record<string, unknown> | undefined;
    this.sum.input += n(usage.input_tokens);
    this.sum.cached += n(details?.cached_tokens);
    this.sum.output += n(usage.output_tokens);
    this.sum.responses += 1;
  }
}
