/** The kinds of engine failure; Slack and the CLI map each to a catalog message. */
export type EngineErrorCode = "not_found" | "conflict" | "invalid" | "forbidden" | "unavailable";

/** The one error type the engine throws for expected failures. `params` feed the catalog message. */
export class EngineError extends Error {
  override name = "EngineError";
  constructor(
    readonly code: EngineErrorCode,
    message: string,
    readonly params: Record<string, string | number> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const isEngineError = (e: unknown): e is EngineError => e instanceof EngineError;
