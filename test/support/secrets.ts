import fc from "fast-check";

/**
 * Generators of secrets in the formats the redactor knows, for property tests. Each sample is the
 * text to embed and the `needles`: the parts that must never be seen again (the public prefix a
 * redaction keeps, like `xoxb-`, is not a needle).
 */
export interface SecretSample {
  format: string;
  text: string;
  needles: string[];
}

const chars = (alphabet: string, min: number, max: number) =>
  fc.array(fc.constantFrom(...alphabet.split("")), { minLength: min, maxLength: max }).map((a) => a.join(""));

const DIGITS = "0123456789";
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const ALNUM = `${DIGITS}${UPPER}abcdefghijklmnopqrstuvwxyz`;
const BASE64 = `${ALNUM}+/`;

const sample = (format: string, prefix: string, body: fc.Arbitrary<string>): fc.Arbitrary<SecretSample> =>
  body.map((b) => ({ format, text: `${prefix}${b}`, needles: [b] }));

/** A Slack token (`xoxb-`, `xoxp-`, … as Slack shapes them: team, user and random parts). */
export const slackToken = fc
  .tuple(
    fc.constantFrom("xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxo-"),
    chars(DIGITS, 10, 13),
    chars(DIGITS, 10, 13),
    chars(ALNUM, 24, 32),
  )
  .map(([p, a, b, c]) => ({ format: "slack", text: `${p}${a}-${b}-${c}`, needles: [`${a}-${b}-${c}`] }));

/** A Slack app-level token (`xapp-1-A…-…-<hex>`). */
export const slackAppToken = fc
  .tuple(chars(UPPER + DIGITS, 10, 11), chars(DIGITS, 13, 13), chars("0123456789abcdef", 64, 64))
  .map(([a, b, c]) => ({ format: "xapp", text: `xapp-1-A${a}-${b}-${c}`, needles: [`1-A${a}-${b}-${c}`] }));

/** An OpenAI key: a project, service-account or legacy key. */
export const openAiKey = fc.oneof(
  sample(
    "openai-project",
    "sk-proj-",
    fc.tuple(chars(`${ALNUM}_-`, 60, 160), chars(DIGITS, 1, 3)).map(([a, d]) => `${d}${a}`),
  ),
  sample(
    "openai-service",
    "sk-svcacct-",
    chars(`${ALNUM}_-`, 60, 120).map((a) => `T3Blbk${a}`),
  ),
  sample("openai-legacy", "sk-", chars(ALNUM, 48, 48)),
);

/** A GitHub token: classic personal, OAuth, server-to-server, or fine-grained. */
export const gitHubToken = fc.oneof(
  fc
    .tuple(fc.constantFrom("ghp_", "gho_", "ghs_", "ghu_", "ghr_"), chars(ALNUM, 36, 36))
    .map(([p, b]) => ({ format: "github", text: `${p}${b}`, needles: [b] })),
  fc
    .tuple(chars(ALNUM, 22, 22), chars(ALNUM, 59, 59))
    .map(([a, b]) => ({ format: "github-pat", text: `github_pat_${a}_${b}`, needles: [`${a}_${b}`] })),
);

/** An AWS access key id (long-term or temporary). */
export const awsKeyId = fc
  .tuple(fc.constantFrom("AKIA", "ASIA"), chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16, 16))
  .map(([p, b]) => ({ format: "aws", text: `${p}${b}`, needles: [b] }));

/** A PEM private key block: every line of its body is a needle. */
export const pemPrivateKey = fc
  .tuple(
    fc.constantFrom("", "RSA ", "EC ", "OPENSSH ", "ENCRYPTED "),
    fc.array(chars(BASE64, 64, 64), { minLength: 2, maxLength: 6 }),
    chars(BASE64, 16, 40),
  )
  .map(([kind, lines, last]) => ({
    format: "pem",
    text: [
      `-----BEGIN ${kind}PRIVATE KEY-----`,
      ...lines,
      `${last}==`,
      `-----END ${kind}PRIVATE KEY-----`,
    ].join("\n"),
    needles: [...lines, `${last}==`],
  }));

/** An HTTP credential header or a bare bearer token. */
export const bearerCredential = fc
  .tuple(
    fc.constantFrom("Authorization: Bearer ", "authorization: bearer ", "Bearer ", "bearer "),
    chars(`${ALNUM}._-`, 20, 80),
  )
  .map(([p, b]) => ({ format: "bearer", text: `${p}${b}`, needles: [b] }));

/** Every pattern-recognised format. */
export const anyFormattedSecret: fc.Arbitrary<SecretSample> = fc.oneof(
  slackToken,
  slackAppToken,
  openAiKey,
  gitHubToken,
  awsKeyId,
  pemPrivateKey,
  bearerCredential,
);

/**
 * The bot's own configured secrets in tests: a bot token with no token shape beyond its prefix,
 * and a signing secret (hex, no recognisable format): only their registration catches them.
 */
export const OWN_BOT_TOKEN = "xoxb-9.own.bot.token";
export const OWN_SIGNING_SECRET = "8f3c2a9d0e7b41c6a5d29e08f7b3c1d4";
/** The bot's own secrets as samples (register them with `registerSecrets` first). */
export const ownSecret: fc.Arbitrary<SecretSample> = fc.constantFrom(
  { format: "own-bot-token", text: OWN_BOT_TOKEN, needles: [OWN_BOT_TOKEN.slice("xoxb-".length)] },
  { format: "own-signing-secret", text: OWN_SIGNING_SECRET, needles: [OWN_SIGNING_SECRET] },
);

/** Anything the redactor must catch. */
export const anySecret: fc.Arbitrary<SecretSample> = fc.oneof(anyFormattedSecret, ownSecret);

/** What may stand right before or after a secret in real text: spaces, quotes, punctuation, markup. */
export const separator = fc.constantFrom(
  " ",
  "\n",
  "\t",
  "\n\n",
  ": ",
  "=",
  "'",
  '"',
  "`",
  "(",
  ")",
  ", ",
  "> ",
  "* ",
  "[",
  "]",
  "|",
);

/** Some text with a secret inside, delimited as secrets are in real text. */
export const textWithSecret = (
  secret: fc.Arbitrary<SecretSample> = anySecret,
  surrounding: fc.Arbitrary<string> = fc.string({ maxLength: 120 }),
) =>
  fc
    .tuple(surrounding, separator, secret, separator, surrounding)
    .map(([before, s1, s, s2, after]) => ({ secret: s, text: `${before}${s1}${s.text}${s2}${after}` }));

/** True when none of the sample's needles occurs in `output`. */
export const hides = (output: string, s: SecretSample): boolean =>
  s.needles.every((n) => !output.includes(n));
