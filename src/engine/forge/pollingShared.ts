import { isEngineError } from "../errors.js";
import { statusOf } from "./forgeErrors.js";

// What polling's readers share (polling.ts says what is read where): the shapes they answer, the
// rate limit told from a refusal, and a comment whose target is gone skipped.

/** Where a listing was read up to. */
export interface PollCursor {
  /** GitHub: the last comment's `updated_at` (the next `since`); GitLab: the last event's time. */
  since: string | null;
  /** GitLab: the last event's id (events are numbered in order). */
  last_id: string | null;
  /** The ETag of the answer to `since`'s query (GitHub), sent back while `since` stays. */
  etag: string | null;
}

/**
 * A comment read from the forge, with what a webhook's payload would have said of it; or (kind
 * `issue_label`) a label given to an issue: its author is who labelled it, its body the issue's.
 */
export interface PolledComment {
  kind: "issue_comment" | "review_comment" | "note" | "issue_label";
  id: string;
  /** `owner/name`, GitLab's `group/sub/name`: as the webhook's payload names the repository. */
  repo: string;
  body: string;
  url: string;
  author: { login: string; id: string };
  on: { kind: "pull" | "issue"; number: number; title: string; url: string };
  /** A pull request's head (its branch, whether it comes from a fork); null on an issue. */
  head: { branch: string; fork: boolean } | null;
  /** A review comment's (or GitLab diff note's) place. */
  review: { path: string; line: number | null; hunk: string | null } | null;
  /** `issue_label`: the label given, and who wrote the issue. */
  label?: { name: string; issueAuthor: string };
}

/** What reading one listing gave. */
export type ListingPoll =
  | { listing: string; state: "unchanged" }
  | { listing: string; state: "read"; comments: PolledComment[]; cursor: PollCursor }
  /** The forge's rate limit is spent: nothing before `until` (epoch ms). */
  | { listing: string; state: "limited"; until: number };

export const PAGE = 100;
/** How long to wait after a 429 that says nothing of when to come back. */
const LIMITED_DEFAULT_MS = 60_000;

export type HeaderMap = Record<string, string | number | undefined>;

/** The headers of a failed request's answer (Octokit's plain object, Gitbeaker's fetch Response). */
function headersOf(e: unknown): HeaderMap {
  const octo = (e as { response?: { headers?: unknown } }).response?.headers;
  if (octo && typeof octo === "object" && !(octo instanceof Headers)) return octo as HeaderMap;
  const res = (e as { cause?: { response?: { headers?: { get?: unknown } } } }).cause?.response;
  if (res?.headers && typeof (res.headers as globalThis.Headers).get === "function") {
    const h = res.headers as globalThis.Headers;
    return Object.fromEntries(h.entries());
  }
  return {};
}

/**
 * When a refused request may be made again, when the refusal is the rate limit: `Retry-After`
 * (secondary limits, 429), or a spent primary limit (`X-RateLimit-Remaining: 0` until
 * `X-RateLimit-Reset`, GitLab's `RateLimit-Reset`); null for any other refusal.
 */
function limitedUntil(e: unknown, now: number): number | null {
  const status = statusOf(e);
  const retried = e instanceof Error && /last status code: 429/.test(e.message);
  if (status !== 403 && status !== 429 && !retried) return null;
  const h = headersOf(e);
  const retryAfter = Number(h["retry-after"]);
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return now + retryAfter * 1000;
  const remaining = h["x-ratelimit-remaining"] ?? h["ratelimit-remaining"];
  const reset = Number(h["x-ratelimit-reset"] ?? h["ratelimit-reset"]);
  if (String(remaining) === "0" && Number.isFinite(reset)) return Math.max(now, reset * 1000);
  return status === 403 ? null : now + LIMITED_DEFAULT_MS;
}

/**
 * What a comment is on, or null when it is gone (a 404: the pull request or issue was deleted, or
 * made confidential): that comment is skipped rather than holding the whole listing back.
 */
export async function unlessGone<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (e) {
    if (statusOf(e) === 404 || (isEngineError(e) && e.reason === "forge_repo_not_found")) return null;
    throw e;
  }
}

export const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) : Number.NaN);
/** The query's `since`, to the second (the forges' timestamps are). */
export const isoSeconds = (ms: number) =>
  new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.000Z$/, "Z");

/**
 * A listing's answer, or what it says instead: `unchanged` (a 304 to `If-None-Match`), or
 * `limited` (the rate limit, until when). Any other refusal is thrown.
 */
export async function answerOf<T>(
  listing: string,
  read: Promise<T>,
): Promise<
  | { answer: T }
  | { listing: string; state: "unchanged" }
  | { listing: string; state: "limited"; until: number }
> {
  try {
    return { answer: await read };
  } catch (e) {
    if (statusOf(e) === 304) return { listing, state: "unchanged" };
    const until = limitedUntil(e, Date.now());
    if (until !== null) return { listing, state: "limited", until };
    throw e;
  }
}
