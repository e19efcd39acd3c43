import { fillTemplate } from "../_template.ts";

/** Fills a protocol message's `{name}` placeholders; a line whose value is null is left out. */
export function fill(template: string, values: Record<string, string | null>): string {
  return fillTemplate(
    template,
    (name) => Object.hasOwn(values, name) ? { value: values[name] } : undefined,
  );
}

/** `text` cut to `max` UTF-8 bytes: head and tail kept, the middle replaced by a notice. */
export function limitBytes(text: string, max: number): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= max) return text;
  const half = Math.floor(max / 2);
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  const omitted = bytes.length - 2 * half;
  return `${
    decode(bytes.slice(0, half))
  }\n[... output limited to ${max} bytes; ${omitted} interior bytes omitted ...]\n${
    decode(bytes.slice(-half))
  }`;
}

/** The reply's prose once `spans` (the commands) are cut out, without a "DISCUSSION" heading. */
export function proseOf(reply: string, spans: Array<[number, number]>): string {
  let prose = "";
  let from = 0;
  for (const [start, end] of [...spans].sort((a, b) => a[0] - b[0])) {
    prose += reply.slice(from, start);
    from = end;
  }
  prose += reply.slice(from);
  return prose.trim().replace(/^DISCUSSION[ \t]*\n/i, "").trim();
}
