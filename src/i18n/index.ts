import { en } from "./en.js";
import { fr, type MessageKey } from "./fr.js";
import { interpolate, type Message, type Params } from "./message.js";

export type { MessageKey } from "./fr.js";
export type { Message, Params } from "./message.js";

/** The languages codexpi speaks; English is the default. */
export type Locale = "fr" | "en";

/** The language used when none is configured (`CODEXPI_LOCALE`). */
export const DEFAULT_LOCALE: Locale = "en";

/** Every locale, in catalog order. */
export const LOCALES: readonly Locale[] = ["fr", "en"];

const catalogs: Record<Locale, Record<MessageKey, Message>> = { fr, en };

/** Whether a string names a supported locale. */
export const isLocale = (value: unknown): value is Locale => value === "fr" || value === "en";

/** A locale from configuration or a Slack user's locale (`en-US` → `en`), else the default. */
export function parseLocale(value: string | null | undefined): Locale {
  const base = value?.trim().toLowerCase().split(/[-_]/)[0];
  return isLocale(base) ? base : DEFAULT_LOCALE;
}

/** Whether a string is a catalog key (for keys built at run time, e.g. from an error code). */
export const isMessageKey = (key: string): key is MessageKey => Object.hasOwn(fr, key);

/** Every catalog key, in the French catalog's order. */
export const messageKeys = (): MessageKey[] => Object.keys(fr) as MessageKey[];

/** The catalog entry for `key` in `locale`, with `{name}` placeholders filled from `params`. */
export function t(locale: Locale, key: MessageKey, params: Params = {}): string {
  const message = catalogs[locale][key];
  return interpolate(typeof message === "function" ? message(params) : message, params);
}

/**
 * The sentence for an engine error: its reason from the catalog, filled with its parameters
 * (escaped: they can be anything a user typed); the error code's generic sentence otherwise.
 */
export function engineErrorText(
  locale: Locale,
  err: { code: string; reason: string; params: Readonly<Record<string, string | number>> },
): string {
  const safe = Object.fromEntries(
    Object.entries(err.params).map(([k, v]) => [k, typeof v === "string" ? escapeText(v) : v]),
  );
  const reason = `reason.${err.reason}`;
  if (isMessageKey(reason)) {
    const text = t(locale, reason, safe);
    return text.charAt(0).toUpperCase() + text.slice(1);
  }
  const generic = `error.${err.code}`;
  return isMessageKey(generic) ? t(locale, generic, { detail: err.reason }) : err.reason;
}

const escapeText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
