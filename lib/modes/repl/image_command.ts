/**
 * `/image [PATH]` (issue 34 §3): attaches an image to the next prompt, the file PATH or, without
 * one, the clipboard's image (`wl-paste` or `xclip`; on macOS `pngpaste` or `osascript`). A
 * path the user names here, or drops as a whole prompt, may be anywhere (a screenshot lives
 * outside the project), as `exec -i` reads one; `@path` mentions stay inside the workspace.
 */
import { join, resolve } from "node:path";
import { homedir } from "node:os";
import { UserError } from "../../errors.ts";
import { InputFileError, readInputFile } from "../../input_file.ts";
import { imageMime } from "../../model/image_mime.ts";
import type { Block } from "../../model/message.ts";
import type { Session } from "../../session/types.ts";
import type { Style } from "../term/style.ts";

/** What /image reaches of the REPL (commands.ts's `CommandContext` has it). */
interface ImageContext {
  session(): Session;
  print(lines: string[]): void;
  style: Style;
}

/** The largest image attached: providers refuse larger ones. */
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** Images attached with /image, waiting for each session's next prompt. */
const waiting = new WeakMap<Session, Array<{ name: string; block: Block }>>();

/** The images waiting for `session`'s next prompt, taken (they go with one prompt only). */
export function takeAttached(session: Session): Array<{ name: string; block: Block }> {
  const images = waiting.get(session) ?? [];
  waiting.delete(session);
  return images;
}

/** `/image [PATH]`. */
export const IMAGE_COMMAND = {
  name: "image",
  summary: "attach an image to the next prompt: /image PATH, or the clipboard's without one",
  async run(arg: string, ctx: ImageContext): Promise<void> {
    const path = unquoted(arg.trim());
    const image = path ? await imageAt(path) : await clipboardImage(Deno.env.toObject());
    const session = ctx.session();
    const list = waiting.get(session) ?? [];
    list.push(image);
    waiting.set(session, list);
    const count = list.length === 1 ? "it goes" : `${list.length} images go`;
    ctx.print([ctx.style.dim(`Attached ${image.name}: ${count} with your next prompt.`)]);
  },
};

/**
 * The image a whole prompt names when it is nothing but the path of an existing image file
 * (pasted or dropped into the terminal: maybe quoted, with `file://`, or with `\ ` escapes).
 */
export async function droppedImage(line: string): Promise<{ name: string; block: Block } | null> {
  const path = unquoted(line.trim());
  if (!path || path.includes("\n") || !/\.(png|jpe?g|gif|webp)$/i.test(path)) return null;
  // Not a regular file, or not an image: the line is sent as typed.
  return await imageAt(path).catch(() => null);
}

/** The image file `path` as an attachment; a `UserError` naming it when it is not one. */
export async function imageAt(path: string): Promise<{ name: string; block: Block }> {
  const file = expanded(path);
  const hint = "Give /image a PNG, JPEG, GIF or WebP file of at most 20 MB";
  const bytes = await readInputFile(file, { what: "image", maxBytes: MAX_IMAGE_BYTES })
    .catch((error) => {
      const reason = error instanceof InputFileError ? error.reason : String(error);
      throw new UserError(`Cannot attach "${file}": ${reason}`, { hint });
    });
  return { name: file, block: await imageBlock(bytes, `"${file}"`, hint) };
}

async function imageBlock(bytes: Uint8Array, what: string, hint: string): Promise<Block> {
  // By content only: a text file named .png is not an image.
  const mime = imageMime("", bytes);
  if (!mime) {
    throw new UserError(`Cannot attach ${what}: it is not a PNG, JPEG, GIF or WebP image`, {
      hint,
    });
  }
  const { Buffer } = await import("node:buffer");
  return { type: "image", mime, base64: Buffer.from(bytes).toString("base64") };
}

/** A path as typed or dropped: quotes, `file://` and backslash escapes removed. */
export function unquoted(text: string): string {
  let path = text;
  const quoted = /^(['"])(.*)\1$/s.exec(path);
  if (quoted) path = quoted[2];
  else path = path.replace(/\\(.)/g, "$1");
  if (path.startsWith("file://")) {
    try {
      path = decodeURIComponent(new URL(path).pathname);
    } catch {
      return path;
    }
  }
  return path;
}

function expanded(path: string): string {
  return resolve(/^~(\/|$)/.test(path) ? join(homedir(), path.slice(1)) : path);
}

/** One way to read the clipboard's image: the program, its arguments, and where it runs. */
interface ClipboardTool {
  program: string;
  args: (file: string) => string[];
  /** The image comes in the file the arguments name, not on stdout. */
  toFile?: boolean;
}

const CLIPBOARD_TOOLS: Record<string, ClipboardTool[]> = {
  darwin: [
    { program: "pngpaste", args: () => ["-"] },
    {
      program: "osascript",
      toFile: true,
      args: (file) => [
        "-e",
        `set f to open for access POSIX file "${file}" with write permission`,
        "-e",
        "write (the clipboard as «class PNGf») to f",
        "-e",
        "close access f",
      ],
    },
  ],
  other: [
    { program: "wl-paste", args: () => ["--no-newline", "--type", "image/png"] },
    { program: "xclip", args: () => ["-selection", "clipboard", "-t", "image/png", "-o"] },
  ],
};

/** The clipboard's image, through the first clipboard program found on PATH. */
export async function clipboardImage(
  env: Record<string, string>,
  os: string = Deno.build.os,
): Promise<{ name: string; block: Block }> {
  const tools = CLIPBOARD_TOOLS[os === "darwin" ? "darwin" : "other"];
  const found = await firstOnPath(tools, env);
  if (!found) {
    throw new UserError(
      `No clipboard program found (looked for ${tools.map((t) => t.program).join(", ")})`,
      {
        hint: os === "darwin"
          ? "Give /image a PATH, or install pngpaste (brew install pngpaste)"
          : "Give /image a PATH, or install wl-clipboard (Wayland) or xclip (X11)",
      },
    );
  }
  const bytes = await readClipboard(found.tool, found.path, env);
  const hint = "Copy an image first, or give /image a PATH";
  if (bytes.length === 0) {
    throw new UserError(`The clipboard holds no image (${found.tool.program} found none)`, {
      hint,
    });
  }
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new UserError("The clipboard's image is over the limit of 20 MB", {
      hint: "Shrink or crop it, save it and give /image its PATH",
    });
  }
  return { name: "the clipboard's image", block: await imageBlock(bytes, "the clipboard", hint) };
}

async function readClipboard(
  tool: ClipboardTool,
  program: string,
  env: Record<string, string>,
): Promise<Uint8Array> {
  const dir = tool.toFile ? await Deno.makeTempDir({ prefix: "oi-clip-" }) : undefined;
  const file = dir ? join(dir, "clipboard.png") : "";
  try {
    const out = await new Deno.Command(program, {
      args: tool.args(file),
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      signal: AbortSignal.timeout(10_000),
    }).output();
    if (!out.success) return new Uint8Array();
    if (!file) return out.stdout.subarray(0, MAX_IMAGE_BYTES + 1);
    return await Deno.readFile(file).catch(() => new Uint8Array());
  } finally {
    if (dir) await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

async function firstOnPath(
  tools: ClipboardTool[],
  env: Record<string, string>,
): Promise<{ tool: ClipboardTool; path: string } | undefined> {
  const dirs = (env.PATH ?? "").split(":").filter(Boolean);
  for (const tool of tools) {
    for (const dir of dirs) {
      const path = join(dir, tool.program);
      const info = await Deno.stat(path).catch(() => null);
      if (info?.isFile && ((info.mode ?? 0o111) & 0o111)) return { tool, path };
    }
  }
  return undefined;
}
