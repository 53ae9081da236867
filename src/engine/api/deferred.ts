import { performEffects, runUseCase, type Kernel, type Outcome } from "../kernel.js";

/**
 * A use case whose writes are committed and whose effects (a dispatch, a stop) wait: a front end
 * that must answer within a deadline (Slack's 3-second ack) runs `effects` after answering.
 */
export interface Deferred<T> {
  value: T;
  effects(): Promise<void>;
}

/** Runs a use case now and keeps its effects for later. */
export async function deferred<T>(kernel: Kernel, useCase: () => Promise<Outcome<T>>): Promise<Deferred<T>> {
  const { value, effects } = await useCase();
  return { value, effects: async () => void (await performEffects(kernel, effects)) };
}

/** Runs a use case and its effects. */
export const now = <T>(kernel: Kernel, useCase: () => Promise<Outcome<T>>): Promise<T> =>
  runUseCase(kernel, useCase);
