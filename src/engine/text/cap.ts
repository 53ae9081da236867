/**
 * A cap for a column or an event that people read (an error, a command's output), where the whole
 * text is kept elsewhere (a verification record, a worker log): the cut says that it is one.
 */
export function capText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n[… +${text.length - max}]`;
}
