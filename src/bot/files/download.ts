import fs from "node:fs";

/** How a download ended: the bytes written, or why not. */
export type Download = { ok: true; bytes: number } | { ok: false; tooLarge: boolean; detail: string };

const DOWNLOAD_TIMEOUT_MS = 60_000;

/**
 * Whether the bot token may be sent to `url`: Slack's own hosts, or the configured Web API's host
 * (GovSlack, a proxy, the tests' fake Slack). A file object comes from Slack, but the token goes
 * nowhere else whatever it says.
 */
export function tokenMayGoTo(url: string, apiUrl: string | undefined): boolean {
  let host: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return false;
    host = parsed.host;
  } catch {
    return false;
  }
  if (apiUrl && new URL(apiUrl).host === host) return true;
  return /^([a-z0-9-]+\.)*slack(-gov)?\.com$/i.test(host) && url.startsWith("https:");
}

/**
 * Downloads a Slack file with the bot token (`Authorization: Bearer`, scope `files:read`) into
 * `dest`, reading no more than `maxBytes` (whatever size the file object declared): past it the
 * download stops and the partial file is removed.
 */
export async function downloadSlackFile(
  url: string,
  token: string,
  dest: string,
  maxBytes: number,
): Promise<Download> {
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
    });
  } catch (err) {
    return {
      ok: false,
      tooLarge: false,
      detail: (err as Error).name === "TimeoutError" ? "timeout" : "network",
    };
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel().catch(() => undefined);
    return { ok: false, tooLarge: false, detail: `HTTP ${res.status}` };
  }
  // Without `files:read` Slack answers its sign-in page with 200: that is no file's content.
  if ((res.headers.get("content-type") ?? "").startsWith("text/html") && !/\.html?$/i.test(dest)) {
    await res.body.cancel().catch(() => undefined);
    return { ok: false, tooLarge: false, detail: "Slack sent a web page (is the files:read scope granted?)" };
  }
  return writeBounded(res.body, dest, maxBytes);
}

async function writeBounded(
  body: ReadableStream<Uint8Array>,
  dest: string,
  maxBytes: number,
): Promise<Download> {
  const fd = fs.openSync(dest, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC, 0o600);
  let bytes = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      if (bytes > maxBytes) {
        await reader.cancel().catch(() => undefined);
        fs.closeSync(fd);
        fs.rmSync(dest, { force: true });
        return { ok: false, tooLarge: true, detail: "too large" };
      }
      fs.writeSync(fd, value);
    }
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(dest, { force: true });
    return {
      ok: false,
      tooLarge: false,
      detail: (err as Error).name === "TimeoutError" ? "timeout" : "interrupted",
    };
  }
  fs.closeSync(fd);
  return { ok: true, bytes };
}
