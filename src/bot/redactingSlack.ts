import type { FetchFunction } from "@slack/web-api";

type FetchRequestInit = NonNullable<Parameters<FetchFunction>[1]>;
import { redactText } from "../redaction.js";

// The Web API authenticates with this field when a call passes a token explicitly (Bolt's auth.test):
// it is a credential sent to Slack, not content shown to people.
const CREDENTIAL_FIELDS = new Set(["token"]);

/**
 * Wraps the fetch that every WebClient (Bolt's, the notifier's) and Bolt's `respond()` use: each
 * request body to Slack passes the redactor. This is the single choke point for everything
 * posted (messages, edits, ephemerals, modals, App Home, files, response URLs); views redact
 * too, before they clip or split, so that a secret cut in two is caught whole.
 */
export function redactingFetch(
  inner: FetchFunction = globalThis.fetch as unknown as FetchFunction,
): FetchFunction {
  return async (url, init) => {
    if (init?.body === undefined) return inner(url, init);
    return inner(url, { ...init, body: await redactBody(init.body, contentType(init)) });
  };
}

function contentType(init: FetchRequestInit): string {
  const entry = Object.entries(init.headers ?? {}).find(([k]) => k.toLowerCase() === "content-type");
  return entry?.[1].toLowerCase() ?? "";
}

/** A request body with its secrets redacted; the same body when it holds none. */
async function redactBody(body: string | FormData, type: string): Promise<string | FormData> {
  if (typeof body === "string")
    return type.startsWith("application/x-www-form-urlencoded") ? redactForm(body) : redactText(body);
  return redactFormData(body);
}

// Form encoding hides a secret's spaces and newlines (a PEM block): fields are decoded first.
function redactForm(body: string): string {
  const fields = [...new URLSearchParams(body)];
  let changed = false;
  const redacted = fields.map(([key, value]): [string, string] => {
    if (CREDENTIAL_FIELDS.has(key)) return [key, value];
    const clean = redactText(value);
    if (clean !== value) changed = true;
    return [key, clean];
  });
  return changed ? new URLSearchParams(redacted).toString() : body;
}

// File uploads: text parts and file contents that are valid UTF-8 text.
async function redactFormData(form: FormData): Promise<FormData> {
  const out = new FormData();
  for (const [key, value] of form.entries()) {
    if (typeof value === "string") {
      out.append(key, CREDENTIAL_FIELDS.has(key) ? value : redactText(value));
      continue;
    }
    const text = decodeUtf8(await value.arrayBuffer());
    const clean = text === null ? null : redactText(text);
    const name = "name" in value && typeof value.name === "string" ? value.name : "blob";
    out.append(key, clean === null || clean === text ? value : new Blob([clean], { type: value.type }), name);
  }
  return out;
}

function decodeUtf8(bytes: ArrayBuffer): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null; // binary content: nothing we post is binary, and guessing would corrupt it
  }
}
