import type http from "node:http";

/** A file a person shared in the fake Slack, as its events carry it (the fields codexpi reads). */
export interface SharedFileObject {
  id: string;
  name: string;
  title: string;
  mimetype: string;
  filetype: string;
  size: number;
  mode: "hosted";
  url_private: string;
  url_private_download: string;
}

/** One download of a shared file: which one, with which token, and how it was answered. */
export interface FakeSlackDownload {
  id: string;
  token: string | undefined;
  status: number;
}

/** What a shared file serves: its bytes, or a stream of `streamBytes` bytes (nothing held in memory). */
export interface ShareFileOptions {
  name: string;
  mimetype?: string;
  content?: Buffer;
  /** The size the file object declares (default: the content's, or `streamBytes`). */
  declaredSize?: number;
  /** Serves this many bytes (zeros) in chunks instead of `content`. */
  streamBytes?: number;
}

const CHUNK = 64 * 1024;

/**
 * The files people share in the fake Slack (issue 19): each is served at
 * `GET /files-pri/<id>/<name>` to the bot token only (`Authorization: Bearer`), as Slack serves
 * `url_private_download`; any other token gets 403 and no bytes. Every download is recorded.
 */
export class FakeSharedFiles {
  readonly downloads: FakeSlackDownload[] = [];
  private readonly served = new Map<string, ShareFileOptions>();
  private counter = 0;

  constructor(
    private readonly baseUrl: () => string,
    private readonly botToken: string,
  ) {}

  /** Shares a file: answers the file object to put in a message event's `files`. */
  share(o: ShareFileOptions): SharedFileObject {
    const id = `FSHARED${++this.counter}`;
    this.served.set(id, o);
    const url = `${this.baseUrl()}/files-pri/${id}/${encodeURIComponent(o.name)}`;
    const size = o.declaredSize ?? o.content?.length ?? o.streamBytes ?? 0;
    return {
      id,
      name: o.name,
      title: o.name,
      mimetype: o.mimetype ?? "application/octet-stream",
      filetype: o.name.split(".").pop() ?? "",
      size,
      mode: "hosted",
      url_private: url,
      url_private_download: `${url}?download=1`,
    };
  }

  /** Answers a download request (the path after `/files-pri/`). */
  async serve(rest: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const id = rest.split("/")[0] ?? "";
    const auth = req.headers.authorization;
    const token = auth?.startsWith("Bearer ") ? auth.slice("Bearer ".length) : undefined;
    const file = this.served.get(id);
    const answer = (status: number, body: string) => {
      this.downloads.push({ id, token, status });
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(body);
    };
    if (!file) return answer(404, "no such file");
    if (token !== this.botToken) return answer(403, "invalid token");
    this.downloads.push({ id, token, status: 200 });
    res.writeHead(200, { "content-type": file.mimetype ?? "application/octet-stream" });
    if (file.streamBytes === undefined) return void res.end(file.content ?? Buffer.alloc(0));
    await streamZeros(res, file.streamBytes);
  }
}

/** Writes `total` zero bytes in chunks, stopping when the reader goes away. */
async function streamZeros(res: http.ServerResponse, total: number): Promise<void> {
  const chunk = Buffer.alloc(CHUNK);
  let sent = 0;
  while (sent < total && !res.destroyed) {
    const n = Math.min(CHUNK, total - sent);
    const ok = res.write(n === CHUNK ? chunk : chunk.subarray(0, n));
    sent += n;
    if (!ok)
      await new Promise<void>((r) => {
        res.once("drain", r);
        res.once("close", r);
      });
  }
  res.end();
}
