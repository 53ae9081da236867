/**
 * Builders for what Slack sends TO the app, for tests that drive a real Bolt `App`:
 * - HTTP mode: signed requests (`signSlackRequest`, `postSigned`) with bodies shaped like Slack's
 *   (`slashCommandBody`, `interactionBody`, `eventBody`);
 * - Socket Mode: the same payloads as objects (`slashCommandPayload`, `blockActionPayload`,
 *   `viewSubmissionPayload`, `eventPayload`) for `fake.socket.send(type, payload)`.
 *
 * Shapes follow Slack's documented payloads (fields Bolt and codexpi read are all present).
 * Bolt 5.1's HTTPReceiver needs the content type to be exactly `application/x-www-form-urlencoded`
 * for commands and interactions (with a `; charset=…` suffix it parses the form as JSON and answers
 * 400), rejects a bad signature or one older than 5 minutes with 401 (a future timestamp passes).
 *
 * The default `response_url` points at 127.0.0.1:1 (refused at once) so that nothing leaves the
 * machine; pass `fake.responseUrl(id)` to record responses.
 */
import { createHmac, randomBytes } from "node:crypto";

export const DEFAULT_TEAM_ID = "T0001";
export const DEFAULT_APP_ID = "A1";
const UNSET_RESPONSE_URL = "http://127.0.0.1:1/response/unset";

export interface SlackSignatureHeaders {
  "x-slack-signature": string;
  "x-slack-request-timestamp": string;
}

/** Slack's v0 signature: HMAC-SHA256 over `v0:${ts}:${rawBody}` with the signing secret. */
export function signSlackRequest(
  signingSecret: string,
  rawBody: string,
  timestampSeconds: number = Math.floor(Date.now() / 1000),
): SlackSignatureHeaders {
  const ts = String(Math.floor(timestampSeconds));
  const hash = createHmac("sha256", signingSecret).update(`v0:${ts}:${rawBody}`).digest("hex");
  return { "x-slack-signature": `v0=${hash}`, "x-slack-request-timestamp": ts };
}

/** A trigger id shaped like Slack's (`<digits>.<digits>.<hex>`). */
export function fakeTriggerId(): string {
  return `${Date.now()}.${1_000_000 + Math.floor(Math.random() * 8_999_999)}.${randomBytes(16).toString("hex")}`;
}

export interface SlashCommandInput {
  text: string;
  user_id: string;
  team_id?: string;
  channel_id: string;
  trigger_id?: string;
  response_url?: string;
  command?: string;
  user_name?: string;
  channel_name?: string;
  team_domain?: string;
  api_app_id?: string;
  enterprise_id?: string;
}

/** The fields of a slash command, as Slack sends them (all strings); the Socket Mode payload. */
export function slashCommandPayload(input: SlashCommandInput): Record<string, string> {
  const fields: Record<string, string> = {
    token: "fake-verification-token",
    team_id: input.team_id ?? DEFAULT_TEAM_ID,
    team_domain: input.team_domain ?? "fake-team",
    channel_id: input.channel_id,
    channel_name:
      input.channel_name ??
      (input.channel_id.startsWith("D") ? "directmessage" : `chan-${input.channel_id.toLowerCase()}`),
    user_id: input.user_id,
    user_name: input.user_name ?? input.user_id.toLowerCase(),
    command: input.command ?? "/codex",
    text: input.text,
    api_app_id: input.api_app_id ?? DEFAULT_APP_ID,
    is_enterprise_install: "false",
    response_url: input.response_url ?? UNSET_RESPONSE_URL,
    trigger_id: input.trigger_id ?? fakeTriggerId(),
  };
  if (input.enterprise_id !== undefined) {
    fields.enterprise_id = input.enterprise_id;
    fields.enterprise_name = "Fake Enterprise";
  }
  return fields;
}

/** A slash command as the form-urlencoded body Slack POSTs. */
export function slashCommandBody(input: SlashCommandInput): string {
  return new URLSearchParams(slashCommandPayload(input)).toString();
}

/** An interaction (block_actions, view_submission, …) as Slack POSTs it: form `payload=<json>`. */
export function interactionBody(payload: unknown): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

export interface BlockActionInput {
  user: string;
  team?: string;
  /** Channel of the message holding the button (omit for Home tab / modal actions with `view`). */
  channel?: string;
  message_ts?: string;
  /** The message as Slack includes it (defaults to a minimal bot message with that ts). */
  message?: Record<string, unknown>;
  thread_ts?: string;
  action_id: string;
  value?: string;
  block_id?: string;
  action_type?: string;
  action_text?: string;
  /** For select menus: the chosen option. */
  selected_option?: { text: { type: "plain_text"; text: string }; value: string };
  response_url?: string;
  trigger_id?: string;
  api_app_id?: string;
  user_name?: string;
  is_ephemeral?: boolean;
  /** A Home tab or modal view the action happened in (container becomes `{type:"view"}`). */
  view?: Record<string, unknown> & { id: string };
  state_values?: Record<string, Record<string, unknown>>;
  bot_user_id?: string;
}

/** A `block_actions` payload as Slack sends it for a button (or select) click. */
export function blockActionPayload(input: BlockActionInput): Record<string, unknown> {
  const team = input.team ?? DEFAULT_TEAM_ID;
  const actionTs = `${Math.floor(Date.now() / 1000)}.${String(Date.now() % 1_000_000).padStart(6, "0")}`;
  const action: Record<string, unknown> = {
    action_id: input.action_id,
    block_id: input.block_id ?? `blk-${input.action_id}`.slice(0, 255),
    type: input.action_type ?? (input.selected_option ? "static_select" : "button"),
    action_ts: actionTs,
  };
  if (action.type === "button") {
    action.text = { type: "plain_text", text: input.action_text ?? input.action_id, emoji: true };
  }
  if (input.value !== undefined) action.value = input.value;
  if (input.selected_option !== undefined) action.selected_option = input.selected_option;

  const payload: Record<string, unknown> = {
    type: "block_actions",
    user: {
      id: input.user,
      username: input.user_name ?? input.user.toLowerCase(),
      name: input.user_name ?? input.user.toLowerCase(),
      team_id: team,
    },
    api_app_id: input.api_app_id ?? DEFAULT_APP_ID,
    token: "fake-verification-token",
    trigger_id: input.trigger_id ?? fakeTriggerId(),
    team: { id: team, domain: "fake-team" },
    enterprise: null,
    is_enterprise_install: false,
    state: { values: input.state_values ?? {} },
    actions: [action],
  };
  if (input.view !== undefined) {
    payload.container = { type: "view", view_id: input.view.id };
    payload.view = input.view;
  } else {
    if (input.channel === undefined || input.message_ts === undefined) {
      throw new Error("blockActionPayload: channel and message_ts are required for a message action");
    }
    payload.container = {
      type: "message",
      message_ts: input.message_ts,
      channel_id: input.channel,
      is_ephemeral: input.is_ephemeral ?? false,
      ...(input.thread_ts !== undefined ? { thread_ts: input.thread_ts } : {}),
    };
    payload.channel = {
      id: input.channel,
      name: input.channel.startsWith("D") ? "directmessage" : input.channel.toLowerCase(),
    };
    payload.message = input.message ?? {
      type: "message",
      user: input.bot_user_id ?? "UBOT0001",
      ts: input.message_ts,
      text: "",
      ...(input.thread_ts !== undefined ? { thread_ts: input.thread_ts } : {}),
    };
    payload.response_url = input.response_url ?? UNSET_RESPONSE_URL;
  }
  return payload;
}

export interface ViewSubmissionInput {
  user: string;
  team?: string;
  callback_id: string;
  private_metadata?: string;
  /** `state.values`: block_id → action_id → element state, e.g. `{ type: "plain_text_input", value: "x" }`. */
  values?: Record<string, Record<string, unknown>>;
  view_id?: string;
  hash?: string;
  blocks?: unknown[];
  title?: string;
  external_id?: string;
  trigger_id?: string;
  api_app_id?: string;
  user_name?: string;
  /** Present only when an input block has `response_url_enabled`. */
  response_urls?: Array<{ block_id: string; action_id: string; channel_id: string; response_url: string }>;
}

/** A `view_submission` payload as Slack sends it (no channel: carry it in private_metadata). */
export function viewSubmissionPayload(input: ViewSubmissionInput): Record<string, unknown> {
  const team = input.team ?? DEFAULT_TEAM_ID;
  const appId = input.api_app_id ?? DEFAULT_APP_ID;
  const viewId = input.view_id ?? `V${randomBytes(5).toString("hex").toUpperCase()}`;
  return {
    type: "view_submission",
    team: { id: team, domain: "fake-team" },
    user: {
      id: input.user,
      username: input.user_name ?? input.user.toLowerCase(),
      name: input.user_name ?? input.user.toLowerCase(),
      team_id: team,
    },
    api_app_id: appId,
    token: "fake-verification-token",
    trigger_id: input.trigger_id ?? fakeTriggerId(),
    view: {
      id: viewId,
      team_id: team,
      type: "modal",
      blocks: input.blocks ?? [],
      private_metadata: input.private_metadata ?? "",
      callback_id: input.callback_id,
      state: { values: input.values ?? {} },
      hash: input.hash ?? `${Math.floor(Date.now() / 1000)}.${randomBytes(4).toString("hex")}`,
      title: { type: "plain_text", text: input.title ?? "Codex", emoji: true },
      clear_on_close: false,
      notify_on_close: false,
      close: { type: "plain_text", text: "Cancel", emoji: true },
      submit: { type: "plain_text", text: "Submit", emoji: true },
      previous_view_id: null,
      root_view_id: viewId,
      app_id: appId,
      external_id: input.external_id ?? "",
      app_installed_team_id: team,
      bot_id: "BBOT0001",
    },
    response_urls: input.response_urls ?? [],
    is_enterprise_install: false,
    enterprise: null,
  };
}

export interface EventInput {
  team_id?: string;
  event: Record<string, unknown> & { type: string };
  event_id?: string;
  api_app_id?: string;
  event_time?: number;
  /** The bot user the event is delivered for (`authorizations[0].user_id`). */
  bot_user_id?: string;
}

/** An Events API `event_callback` envelope (the Socket Mode `events_api` payload). */
export function eventPayload(input: EventInput): Record<string, unknown> {
  const team = input.team_id ?? DEFAULT_TEAM_ID;
  return {
    token: "fake-verification-token",
    team_id: team,
    context_team_id: team,
    context_enterprise_id: null,
    api_app_id: input.api_app_id ?? DEFAULT_APP_ID,
    event: input.event,
    type: "event_callback",
    event_id: input.event_id ?? `Ev${randomBytes(5).toString("hex").toUpperCase()}`,
    event_time: input.event_time ?? Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: null,
        team_id: team,
        user_id: input.bot_user_id ?? "UBOT0001",
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
    event_context: `4-fake-${randomBytes(6).toString("hex")}`,
  };
}

/** An Events API `event_callback` as the JSON body Slack POSTs. */
export function eventBody(input: EventInput): string {
  return JSON.stringify(eventPayload(input));
}

/** An `app_mention` event (in a thread, Slack also sends a `message` event with another event_id). */
export function appMentionEvent(input: {
  user: string;
  channel: string;
  text: string;
  ts: string;
  thread_ts?: string;
  team?: string;
}): Record<string, unknown> & { type: string } {
  return {
    type: "app_mention",
    user: input.user,
    text: input.text,
    ts: input.ts,
    channel: input.channel,
    event_ts: input.ts,
    team: input.team ?? DEFAULT_TEAM_ID,
    client_msg_id: randomBytes(16).toString("hex"),
    ...(input.thread_ts !== undefined ? { thread_ts: input.thread_ts } : {}),
  };
}

/** A user's `message` event (channel_type "im" for DM channels `D…`, else "channel"). */
export function messageEvent(input: {
  user: string;
  channel: string;
  text: string;
  ts: string;
  thread_ts?: string;
  team?: string;
  /** Who wrote the thread's root: Slack sets it on every reply. */
  parent_user_id?: string;
}): Record<string, unknown> & { type: string } {
  return {
    type: "message",
    user: input.user,
    text: input.text,
    ts: input.ts,
    channel: input.channel,
    event_ts: input.ts,
    channel_type: input.channel.startsWith("D") ? "im" : "channel",
    team: input.team ?? DEFAULT_TEAM_ID,
    client_msg_id: randomBytes(16).toString("hex"),
    ...(input.thread_ts !== undefined ? { thread_ts: input.thread_ts } : {}),
    ...(input.parent_user_id !== undefined ? { parent_user_id: input.parent_user_id } : {}),
  };
}

export interface PostSignedOptions {
  /** Signature timestamp in seconds (default now); use now - 6*60 for a stale request. */
  timestamp?: number;
  /** Sent as `x-slack-retry-num` (with `x-slack-retry-reason`, default "http_timeout"). */
  retryNum?: number;
  retryReason?: string;
  /** Overrides the computed signature (e.g. "v0=bad"). */
  signature?: string;
  headers?: Record<string, string>;
  /** Aborts the request after this many ms (default 10000). */
  timeoutMs?: number;
}

export interface PostSignedResult {
  status: number;
  text: string;
  /** Parsed body when it is JSON, else undefined. */
  json: unknown;
  headers: Record<string, string>;
  elapsedMs: number;
}

/**
 * POSTs `body` to `${baseUrl}${path}` signed like Slack. `contentType` "form" and "json" are
 * shorthands for `application/x-www-form-urlencoded` and `application/json`; any other string is sent as is.
 */
export async function postSigned(
  baseUrl: string,
  path: string,
  body: string,
  contentType: "form" | "json" | (string & {}),
  secret: string,
  opts: PostSignedOptions = {},
): Promise<PostSignedResult> {
  const ct =
    contentType === "form"
      ? "application/x-www-form-urlencoded"
      : contentType === "json"
        ? "application/json"
        : contentType;
  const signed = signSlackRequest(secret, body, opts.timestamp);
  const headers: Record<string, string> = {
    "content-type": ct,
    "user-agent": "Slackbot 1.0 (+https://api.slack.com/robots)",
    ...signed,
    ...(opts.signature !== undefined ? { "x-slack-signature": opts.signature } : {}),
    ...(opts.retryNum !== undefined
      ? {
          "x-slack-retry-num": String(opts.retryNum),
          "x-slack-retry-reason": opts.retryReason ?? "http_timeout",
        }
      : {}),
    ...(opts.headers ?? {}),
  };
  const url = `${baseUrl.replace(/\/$/, "")}${path.startsWith("/") ? path : `/${path}`}`;
  const started = performance.now();
  const res = await fetch(url, {
    method: "POST",
    headers,
    body,
    signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
  });
  const text = await res.text();
  const elapsedMs = performance.now() - started;
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json, headers: Object.fromEntries(res.headers.entries()), elapsedMs };
}
