import { describe, expect, it } from "vitest";
import { en } from "../../src/i18n/en.js";
import { fr } from "../../src/i18n/fr.js";
import {
  DEFAULT_LOCALE,
  isMessageKey,
  LOCALES,
  messageKeys,
  parseLocale,
  t,
  type MessageKey,
} from "../../src/i18n/index.js";
import type { Message } from "../../src/i18n/message.js";

const SAMPLE = {
  n: 3,
  name: "demo",
  detail: "détail",
  user: "<@U1>",
  project: "demo",
  command: "/codex x",
  syntax: "s",
};

/** Every rendering a message can take: a string, or a function tried with a few counts. */
function renderings(message: Message): string[] {
  if (typeof message === "string") return [message];
  return [0, 1, 2, 5].map((n) => message({ ...SAMPLE, n, max: n, channel: "<#C1>" }));
}

const placeholders = (text: string): string[] =>
  [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string).sort();

describe("message catalogs", () => {
  it("French and English have exactly the same keys", () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(fr).sort());
  });

  it("no message is empty in any language", () => {
    for (const catalog of [fr, en]) {
      for (const [key, message] of Object.entries(catalog)) {
        for (const text of renderings(message)) expect(text.trim(), key).not.toBe("");
      }
    }
  });

  it("both languages use the same placeholders for each key", () => {
    for (const key of messageKeys()) {
      const frText = renderings(fr[key]).join(" ");
      const enText = renderings((en as Record<MessageKey, Message>)[key]).join(" ");
      expect(new Set(placeholders(enText)), key).toEqual(new Set(placeholders(frText)));
    }
  });

  it("messages are safe as Slack mrkdwn: only command syntax lines contain <, > or &", () => {
    for (const catalog of [fr, en]) {
      for (const [key, message] of Object.entries(catalog)) {
        if (/^command\..*\.syntax$/.test(key)) continue;
        for (const text of renderings(message)) expect(text, key).not.toMatch(/[<>&]/);
      }
    }
  });

  it("covers every engine error code, queue failure code and pause reason", () => {
    for (const code of ["not_found", "conflict", "invalid", "forbidden", "unavailable"])
      expect(isMessageKey(`error.${code}`)).toBe(true);
    for (const code of [
      "interrupted",
      "watchdog",
      "codex_failed",
      "cancelled",
      "spawn_failed",
      "thread_busy",
    ]) {
      expect(isMessageKey(`failure.${code}`)).toBe(true);
    }
    for (const reason of ["concurrency", "load", "memory"])
      expect(isMessageKey(`pause.${reason}`)).toBe(true);
  });
});

describe("t", () => {
  it("fills placeholders from the params", () => {
    expect(t("fr", "notice.project_not_found", { name: "nasflix" })).toBe("Projet introuvable : nasflix");
    expect(t("en", "notice.project_not_found", { name: "nasflix" })).toBe("Project not found: nasflix");
    expect(t("fr", "notice.queued", { n: 4 })).toBe("Ta consigne est en file d’attente (position 4).");
    expect(t("en", "notice.stopped_by", { user: "<@U42>" })).toBe("Stopped by <@U42>");
  });

  it("fills every placeholder of every message when its params are given", () => {
    for (const locale of LOCALES) {
      const catalog: Record<MessageKey, Message> = locale === "fr" ? fr : en;
      for (const key of messageKeys()) {
        const names = placeholders(renderings(catalog[key]).join(" "));
        const params = Object.fromEntries([...names, "n"].map((name) => [name, 2]));
        expect(t(locale, key, params), `${locale} ${key}`).not.toMatch(/\{\w+\}/);
      }
    }
  });

  it("chooses singular or plural from the count", () => {
    expect(t("fr", "status.queued", { n: 1 })).toBe("*En file* : 1 demande");
    expect(t("fr", "status.queued", { n: 3 })).toBe("*En file* : 3 demandes");
    expect(t("en", "status.queued", { n: 1 })).toBe("*Queued*: 1 request");
    expect(t("en", "status.queued", { n: 0 })).toBe("*Queued*: 0 requests");
  });

  it("names the channel in the not-in-channel notice only when it is given", () => {
    expect(t("fr", "notice.not_in_channel")).toContain("ce canal (not_in_channel)");
    expect(t("fr", "notice.not_in_channel", { channel: "<#C1>" })).toContain(
      "le canal <#C1> (not_in_channel)",
    );
    expect(t("en", "notice.not_in_channel")).toBe(
      "The bot is not in this channel (not_in_channel): invite it with `/invite @codexpi`.",
    );
  });

  it("leaves a placeholder visible when its param is missing", () => {
    expect(t("en", "notice.project_not_found")).toBe("Project not found: {name}");
  });
});

describe("locales", () => {
  it("S-LANG-01: English is the default and Slack locales are reduced to their language", () => {
    expect(DEFAULT_LOCALE).toBe("en");
    expect(parseLocale(undefined)).toBe("en");
    expect(parseLocale("fr-FR")).toBe("fr");
    expect(parseLocale("en-US")).toBe("en");
    expect(parseLocale("EN")).toBe("en");
    expect(parseLocale("de-DE")).toBe("en");
  });

  it("English texts keep English typography: no space before : ; ? ! (French spacing)", () => {
    const offending = messageKeys().flatMap((key) =>
      [1, 2].flatMap((n) => {
        const text = t("en", key, { ...SAMPLE, n });
        // A code span stands for a word (`Did you mean \`/codex ask\`?`), whose spacing is not typography.
        return / [:;?!](\s|$)/.test(text.replace(/`[^`]*`/g, "code")) ? [`${key}: ${text}`] : [];
      }),
    );
    expect(offending).toEqual([]);
    // Positive control: French keeps its spacing.
    expect(t("fr", "common.labelled", { label: "demo", value: "x" })).toBe("demo : x");
    expect(t("en", "common.labelled", { label: "demo", value: "x" })).toBe("demo: x");
  });
});
