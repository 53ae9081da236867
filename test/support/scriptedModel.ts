import { inputText, type FakeStep, type ResponsesRequestBody } from "./fakeModel.js";

/**
 * A fake model's `respond` that runs a script per marker: the newest marker found in the request
 * (the one that appears last: earlier turns come first in the history) gets its shell command on
 * its first request, and a text once the command's output came back. No marker: a text.
 */
export function scriptedRespond(scripts: Record<string, string>) {
  return (body: ResponsesRequestBody): FakeStep => {
    const text = inputText(body);
    const marker = Object.keys(scripts)
      .filter((m) => text.includes(m))
      .sort((a, b) => text.lastIndexOf(a) - text.lastIndexOf(b))
      .pop();
    if (!marker) return { kind: "text", text: "rien" };
    const items = body.input ?? [];
    const asked = lastIndexWhere(items, (i) => JSON.stringify(i).includes(marker));
    const answered = lastIndexWhere(
      items,
      (i) => typeof i === "object" && i !== null && (i as { type?: string }).type === "function_call_output",
    );
    return answered > asked
      ? { kind: "text", text: `done ${marker}` }
      : { kind: "shell", command: ["sh", "-c", scripts[marker] as string] };
  };
}

/** The index of the last item that matches, or -1 (the compiled support code targets ES2022). */
function lastIndexWhere(items: readonly unknown[], match: (item: unknown) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (match(items[i])) return i;
  return -1;
}
