import type { OnCreated } from "../engine/api/model.js";

/**
 * What the forge front end needs of Slack, given by the bot once its app is up: a conversation
 * asked from the forge lives in the project's channel like one asked there.
 */
export interface SlackSide {
  /** Posts a conversation's root message in a channel; answers its ts. */
  postRoot(channel: string, text: string): Promise<string>;
  /** Records, inside the engine's creating transaction, that the conversation lives in that thread. */
  addressFor(channel: string, threadTs: string): OnCreated;
  /** Posts a message in a conversation's thread (what a forge turn's commits became, CI fixes given up). */
  postInThread(channel: string, threadTs: string, text: string): Promise<void>;
  /**
   * The Slack thread a conversation lives in (its thread, else its state message), or null when it
   * has none: where a pull request codexpi opened for it takes its forge thread (adopt.ts).
   */
  threadOf(conversationId: string): Promise<{ channel: string; threadTs: string } | null>;
  /** A link to a message (the thread a forge reply points to), or null when Slack gives none. */
  permalink(channel: string, ts: string): Promise<string | null>;
}
