// A link whose visible text is an address (a URL, a domain, an e-mail) different from its target
// is how a message disguises where it leads: `[https://good](https://evil)`. Ordinary words are
// not addresses, and a file name in prose is left alone unless it is the whole label.

const URL_IN_TEXT = /\b(?:[a-z][a-z0-9+.-]*:\/\/|www\.)[^\s<>()]+/gi;
const WHOLE_HOST = /^(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?(?:[/?#]\S*)?$/i;
const EMAIL = /^[^\s@<>()]+@[^\s@<>()]+\.[a-z]{2,}$/i;

/**
 * True when `label` names an address that `target` is not: a URL or `www.` address anywhere in
 * it, or the whole label as a domain or e-mail address, whose host (or mailbox) differs from the
 * target's, or whose path the target does not continue.
 */
export function misleadingLabel(label: string, target: string): boolean {
  const text = label.trim();
  const targetUrl = parse(target);
  if (!targetUrl) return false;
  if (EMAIL.test(text))
    return targetUrl.protocol !== "mailto:" || targetUrl.pathname.toLowerCase() !== text.toLowerCase();
  const addresses = [...text.matchAll(URL_IN_TEXT)].map((m) => m[0].replace(/[.,;:!?'"]+$/, ""));
  if (addresses.length === 0 && WHOLE_HOST.test(text)) addresses.push(text);
  return addresses.some((address) => !leadsTo(address, targetUrl));
}

/** Whether an address shown to people is where `target` leads: same host and port, and a path the target continues. */
function leadsTo(address: string, target: URL): boolean {
  const shown = parse(/^[a-z][a-z0-9+.-]*:/i.test(address) ? address : `https://${address}`);
  if (!shown?.hostname) return false;
  if (shown.hostname.toLowerCase() !== target.hostname.toLowerCase() || shown.port !== target.port)
    return false;
  const path = shown.pathname.replace(/\/+$/, "");
  return path === "" || target.pathname === path || target.pathname.startsWith(`${path}/`);
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}
