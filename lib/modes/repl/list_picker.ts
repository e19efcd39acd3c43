/**
 * A list picker for the terminal: the rows under a title, one of them marked, moved with the
 * arrow keys and narrowed by typing; Enter chooses, Esc or Ctrl-C cancels. It draws below the
 * transcript in raw mode and erases itself when done.
 */
import process from "node:process";
import type { Style } from "../term/style.ts";

/** One row: what is shown and what choosing it gives. */
export interface PickerItem<T> {
  label: string;
  /** Shown dim after the label. */
  detail?: string;
  /** What typing is matched against; default the label. */
  keywords?: string;
  value: T;
}

/** The keys a picker reads from, and the screen it draws on. */
export interface RawTerminal {
  /** The next chunk of keys; null when input ended. */
  read(): Promise<string | null>;
  write(text: string): void;
  columns(): number;
  rows(): number;
}

/** What a key does in a picker. */
export type PickerKey =
  | { kind: "up" | "down" | "page_up" | "page_down" | "enter" | "cancel" | "backspace" | "clear" }
  | { kind: "text"; text: string };

/** Where a picker is: the filter typed, the marked row of the filtered list, the first row shown. */
export interface PickerState {
  filter: string;
  selected: number;
  top: number;
}

// deno-lint-ignore no-control-regex -- terminal key sequences start with ESC
const SEQUENCE = /^\x1b(?:\[[0-9;?]*[ -/]*[@-~]|O.)/;
const NAMED: Record<string, PickerKey["kind"]> = {
  "\x1b[A": "up",
  "\x1bOA": "up",
  "\x1b[B": "down",
  "\x1bOB": "down",
  "\x1b[5~": "page_up",
  "\x1b[6~": "page_down",
  "\r": "enter",
  "\n": "enter",
  "\x03": "cancel",
  "\x7f": "backspace",
  "\b": "backspace",
  "\x10": "up",
  "\x0e": "down",
  "\x15": "clear",
};

/** The keys in a chunk of raw input; a lone Esc cancels, other sequences are ignored. */
export function parseKeys(chunk: string): PickerKey[] {
  const keys: PickerKey[] = [];
  let rest = chunk;
  while (rest) {
    const sequence = rest.match(SEQUENCE)?.[0];
    const key = sequence ?? rest[0];
    rest = rest.slice(key.length);
    if (NAMED[key]) keys.push({ kind: NAMED[key] } as PickerKey);
    else if (key === "\x1b") {
      if (rest === "" || rest[0] === "\x1b") keys.push({ kind: "cancel" });
      // Esc and a character is Alt and that key: nothing here.
      else rest = rest.slice(1);
    } else if (key >= " " && !sequence) {
      const last = keys.at(-1);
      if (last?.kind === "text") last.text += key;
      else keys.push({ kind: "text", text: key });
    }
  }
  return keys;
}

/** The items whose keywords contain every word of `filter`, ignoring case. */
export function filterItems<T>(items: readonly PickerItem<T>[], filter: string): PickerItem<T>[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  return items.filter((item) => {
    const text = (item.keywords ?? item.label).toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

/** The state after `key`, over `items`, with `visible` rows shown; "enter"/"cancel" end it. */
export function applyKey<T>(
  state: PickerState,
  key: PickerKey,
  list: { items: readonly PickerItem<T>[]; visible: number },
): PickerState {
  const shown = filterItems(list.items, state.filter);
  const move = (by: number) => {
    const selected = Math.max(0, Math.min(shown.length - 1, state.selected + by));
    return scrolled({ ...state, selected }, list.visible);
  };
  const refilter = (filter: string) => {
    // The marked row stays marked while it still matches.
    const marked = shown[state.selected];
    const index = filterItems(list.items, filter).indexOf(marked!);
    return scrolled({ filter, selected: Math.max(0, index), top: 0 }, list.visible);
  };
  switch (key.kind) {
    case "up":
      return move(-1);
    case "down":
      return move(1);
    case "page_up":
      return move(-list.visible);
    case "page_down":
      return move(list.visible);
    case "backspace":
      return refilter(state.filter.slice(0, -1));
    case "clear":
      return refilter("");
    case "text":
      return refilter(state.filter + key.text);
    default:
      return state;
  }
}

/** Moves the first row shown so that the marked row is in view. */
function scrolled(state: PickerState, visible: number): PickerState {
  let top = Math.min(state.top, state.selected);
  if (state.selected >= top + visible) top = state.selected - visible + 1;
  return { ...state, top: Math.max(0, top) };
}

/** The picker's lines: title, filter, the rows in view (the marked one with `›`), what is left. */
export function pickerLines<T>(
  state: PickerState,
  view: { title: string; items: readonly PickerItem<T>[]; visible: number; style: Style },
): string[] {
  const { style } = view;
  const shown = filterItems(view.items, state.filter);
  const rows = shown.slice(state.top, state.top + view.visible);
  const width = Math.max(0, ...rows.map((item) => item.label.length));
  const lines = [
    `${style.bold(view.title)} ${
      style.dim("(↑↓ move · type to filter · Enter chooses · Esc cancels)")
    }`,
    `${style.dim("filter:")} ${state.filter}`,
    ...rows.map((item, i) => {
      const marked = state.top + i === state.selected;
      const label = item.detail ? item.label.padEnd(width) : item.label;
      const detail = item.detail ? `  ${style.dim(item.detail)}` : "";
      return marked ? `${style.bold(`› ${label}`)}${detail}` : `  ${label}${detail}`;
    }),
  ];
  if (shown.length === 0) lines.push(style.dim("  nothing matches; Backspace widens the filter"));
  const below = shown.length - state.top - rows.length;
  if (below > 0) lines.push(style.dim(`  … ${below} more`));
  return lines;
}

/** Options of `pickFromList()`. */
export interface PickOptions<T> {
  title: string;
  items: readonly PickerItem<T>[];
  /** The item marked at first. */
  initial?: number;
  style: Style;
}

/** Lets the user choose one of `opts.items`; undefined when cancelled or at end of input. */
export async function pickFromList<T>(
  terminal: RawTerminal,
  opts: PickOptions<T>,
): Promise<T | undefined> {
  const visible = Math.max(3, Math.min(12, terminal.rows() - 6));
  const list = { items: opts.items, visible };
  let state = scrolled({ filter: "", selected: opts.initial ?? 0, top: 0 }, visible);
  let drawn = 0;
  const draw = (lines: string[]) => {
    const width = Math.max(10, terminal.columns() - 1);
    // A line that wrapped would break the count of lines to go back over.
    const cut = lines.map((line) => cutToWidth(line, width));
    const up = drawn > 1 ? `\x1b[${drawn - 1}A` : "";
    terminal.write(`\r${up}\x1b[J${cut.join("\n")}`);
    drawn = cut.length;
  };
  terminal.write("\x1b[?25l");
  try {
    while (true) {
      draw(pickerLines(state, { ...opts, visible }));
      const chunk = await terminal.read();
      if (chunk === null) return undefined;
      for (const key of parseKeys(chunk)) {
        if (key.kind === "cancel") return undefined;
        if (key.kind === "enter") {
          const chosen = filterItems(opts.items, state.filter)[state.selected];
          if (chosen) return chosen.value;
          continue;
        }
        state = applyKey(state, key, list);
      }
    }
  } finally {
    draw([]);
    terminal.write("\x1b[?25h");
  }
}

/** Cuts `line` to `width` visible characters, keeping its escape sequences (our styling). */
function cutToWidth(line: string, width: number): string {
  let visible = 0;
  let out = "";
  // deno-lint-ignore no-control-regex -- our own styling sequences
  for (const part of line.split(/(\x1b\[[0-9;]*m)/)) {
    if (part.startsWith("\x1b[")) {
      out += part;
      continue;
    }
    const room = width - visible;
    const chars = [...part];
    if (chars.length > room) {
      const reset = out.includes("\x1b[") ? "\x1b[0m" : "";
      return `${out}${chars.slice(0, Math.max(0, room - 1)).join("")}…${reset}`;
    }
    out += part;
    visible += chars.length;
  }
  return out;
}

/**
 * Runs `run` with stdin in raw mode and its keys read by `run`; the caller has taken the terminal
 * from the line editor first (`ReplInput.suspend()`).
 */
export async function withRawTerminal<T>(
  write: (text: string) => void,
  run: (terminal: RawTerminal) => Promise<T>,
): Promise<T> {
  const chunks: string[] = [];
  let waiting: ((chunk: string | null) => void) | undefined;
  let ended = false;
  const deliver = (chunk: string | null) => {
    const resolve = waiting;
    waiting = undefined;
    if (resolve) resolve(chunk);
    else if (chunk !== null) chunks.push(chunk);
  };
  const onData = (data: string | Uint8Array) => deliver(String(data));
  const onEnd = () => {
    ended = true;
    deliver(null);
  };
  process.stdin.setRawMode(true);
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", onData);
  process.stdin.on("end", onEnd);
  process.stdin.resume();
  const size = () => {
    try {
      return Deno.consoleSize();
    } catch {
      return { columns: 80, rows: 24 };
    }
  };
  try {
    return await run({
      read: () =>
        chunks.length
          ? Promise.resolve(chunks.shift()!)
          : ended
          ? Promise.resolve(null)
          : new Promise((resolve) => waiting = resolve),
      write,
      columns: () => size().columns,
      rows: () => size().rows,
    });
  } finally {
    process.stdin.off("data", onData);
    process.stdin.off("end", onEnd);
    process.stdin.pause();
    process.stdin.setRawMode(false);
  }
}
