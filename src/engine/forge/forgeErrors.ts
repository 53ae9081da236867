import { redactText } from "../../redaction.js";
import { EngineError, isEngineError } from "../errors.js";
import { capText } from "../text/index.js";

/** The HTTP status a client's error carries (Octokit's `status`, Gitbeaker's `cause.response`). */
export function statusOf(e: unknown): number | null {
  if (typeof e !== "object" || e === null) return null;
  const direct = (e as { status?: unknown }).status;
  if (typeof direct === "number" && direct > 0) return direct;
  const response = (e as { cause?: { response?: { status?: unknown } } }).cause?.response;
  return typeof response?.status === "number" ? response.status : null;
}

/** A client error's own message, without the token or anything the redactor knows. */
function safeDetail(e: unknown, token: string): string {
  const text = e instanceof Error ? e.message : String(e);
  return capText(redactText(token ? text.split(token).join("[redacted]") : text), 500);
}

/**
 * The EngineError for a failed forge call. The client's error is never kept as the cause: its
 * request (Gitbeaker's carries the PRIVATE-TOKEN header) would travel with it into logs.
 */
export function forgeFailure(e: unknown, target: { forgeRepo: string; token: string }): EngineError {
  if (isEngineError(e)) return e;
  const status = statusOf(e);
  if (status === 401) return new EngineError("forbidden", "forge_token_refused");
  if (status === 403)
    return new EngineError("forbidden", "forge_forbidden", { detail: safeDetail(e, target.token) });
  if (status === 404) return new EngineError("not_found", "forge_repo_not_found", { repo: target.forgeRepo });
  if (status === 409 || status === 422 || status === 400)
    return new EngineError("invalid", "forge_request_refused", { detail: safeDetail(e, target.token) });
  return new EngineError("unavailable", "forge_unreachable", { detail: safeDetail(e, target.token) });
}
