// Which files codexpi takes from Slack (issue 19, item 2): an allow-list by extension, so that what
// reaches an agent's workspace is something it can read as data. Images go to the model as images;
// text-like files and PDFs are named to the agent by path. Everything else is refused with its
// reason: executables and archives first (an archive hides what it holds from these limits, a
// program is nothing an agent should be handed to run), then anything unknown.

/** How a taken file reaches the agent: an image input, or a file named in the prompt. */
export type FileKind = "image" | "file";

/** Every reason a file is not taken (the thread names the file with one). */
export const FILE_REFUSALS = [
  "too_large",
  "message_too_large",
  "too_many",
  "executable",
  "archive",
  "kind",
  "download_failed",
  "not_a_file",
  // Handed back only: bytes (an image, a PDF) that hold a secret the redactor knows.
  "secret",
  // Handed back only, on a worker host: the database would not take it for the bot.
  "transfer_failed",
] as const;

/** Why a file was not taken. */
export type FileRefusal = (typeof FILE_REFUSALS)[number];

/** Images the model reads (what Codex attaches as image input). */
const IMAGES = new Set(["png", "jpg", "jpeg", "gif", "webp"]);

const TEXT = new Set(
  (
    "txt md markdown rst csv tsv json jsonl ndjson yaml yml toml ini cfg conf env xml html htm css scss " +
    "js mjs cjs jsx ts tsx py rb go rs java kt kts scala c h cc cpp hpp cs swift php pl lua r sql " +
    "sh bash zsh ps1 bat log diff patch svg tex graphql proto dockerfile makefile gradle properties " +
    "vue svelte ex exs erl hs ml clj dart tf hcl lock"
  ).split(" "),
);

const EXECUTABLES = new Set(
  "exe dll so dylib bin msi com scr apk app dmg iso elf o a class pyc wasm deb rpm".split(" "),
);

const ARCHIVES = new Set("zip tar gz tgz bz2 xz zst 7z rar jar war ear cab lz lzma z".split(" "));

/** The lower-case extension of a file name ("" when none; a dotfile's name is its extension). */
function extensionOf(name: string): string {
  const base = name.toLowerCase().split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot >= 0 ? base.slice(dot + 1) : base;
}

/** The kind of a file by its name (and Slack's mimetype), or why it is refused. */
export function fileKindOf(
  name: string,
  mimetype?: string | null,
): { kind: FileKind } | { refused: FileRefusal } {
  const ext = extensionOf(name);
  if (IMAGES.has(ext)) return { kind: "image" };
  if (EXECUTABLES.has(ext)) return { refused: "executable" };
  if (ARCHIVES.has(ext)) return { refused: "archive" };
  if (ext === "pdf" || TEXT.has(ext)) return { kind: "file" };
  if (mimetype?.startsWith("text/")) return { kind: "file" };
  return { refused: "kind" };
}

/** Whether a file handed back is uploaded as text (and so redacted like every post). */
export function isTextName(name: string): boolean {
  return TEXT.has(extensionOf(name));
}
