/**
 * `@path` in a typed prompt (issue 34 §3): each mentioned file goes along with the prompt, its
 * text (capped, with a note when cut) or, for a PNG, JPEG, GIF or WebP image, an image block; a
 * folder goes as a listing of its entries. Files are read through the session's sandboxed file
 * system, links resolved, and only inside the workspace (and, where allowed, under `~`): a link
 * in a hostile repository that points outside is not followed. A mention that names nothing
 * readable stays as typed, with a note saying why; it is never an error.
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Block } from "../model/message.ts";
import type { MentionExpansion, MentionOptions } from "./custom_command_types.ts";
import { imageMime } from "../model/image_mime.ts";
import { takesImages } from "../providers/image_gate.ts";
import { isWithin } from "../workspace/_file_checks.ts";
import { findMentions, looksLikePath, type Mention } from "./mentions_find.ts";
import type { TurnSetup } from "./turn_context.ts";

/** Most bytes of a mentioned text file put into a prompt; the rest is cut, with a note. */
const MENTION_TEXT_BYTES = 100 * 1024;
/** The largest image attached: providers refuse larger ones. */
const MENTION_IMAGE_BYTES = 20 * 1024 * 1024;
/** Most entries of a mentioned folder listed. */
const LISTING_MAX = 500;

export type { MentionExpansion, MentionOptions };

/** `text` with what its mentions name attached after it. */
export async function expandMentions(
  t: TurnSetup,
  text: string,
  opts: MentionOptions = {},
): Promise<MentionExpansion> {
  const blocks: Block[] = [{ type: "text", text }];
  const notes: string[] = [];
  const upTo = opts.upTo ?? text.length;
  for (const mention of findMentions(text).filter((m) => m.index < upTo)) {
    try {
      blocks.push(...await attach(t, mention, opts.home === true, notes));
    } catch (error) {
      if (!(error instanceof MentionMissing) || looksLikePath(mention.path)) {
        notes.push(`${mention.token} is left as typed: ${(error as Error).message}`);
      }
    }
  }
  return { blocks, notes };
}

/** The path does not exist (a handle like `@alice` is then not worth a note). */
class MentionMissing extends Error {}

/**
 * The real path a mention of `path` names, inside the project or the working folder (or, for a
 * `~/` path where `home` allows one, under `~`), links resolved; an error saying why not. Shared
 * with custom commands.
 */
export async function placeMention(
  t: TurnSetup,
  path: string,
  home: boolean,
): Promise<{ full: string; real: string }> {
  const { config, sandbox, workspace } = t.parts.live.agent;
  const tilde = /^~(\/|$)/.test(path);
  if (tilde && !home) throw new Error("~ paths are read in the REPL only");
  const full = resolve(t.parts.config.cwd, tilde ? join(homedir(), path.slice(1)) : path);
  const real = await sandbox.fs.realPath(full).catch(() => {
    throw new MentionMissing(`no such file ${full}`);
  });
  // `~` is a root only for a path typed with it: a link in the repository that points into the
  // home folder (a hostile repository's `notes.txt -> ~/.ssh/id_ed25519`) is not followed.
  const roots = [config.projectRoot, t.parts.config.cwd, ...(tilde ? [homedir()] : [])];
  const realRoots = await Promise.all(roots.map((r) => Deno.realPath(r).catch(() => r)));
  if (!realRoots.some((r) => isWithin(real, r))) {
    throw new Error(`${full} is outside the workspace`);
  }
  if (workspace.isHeldBack(real)) {
    throw new Error(`${full} changed while an earlier session ran and is held back`);
  }
  return { full, real };
}

/** What one mention attaches. */
async function attach(
  t: TurnSetup,
  mention: Mention,
  home: boolean,
  notes: string[],
): Promise<Block[]> {
  const { real } = await placeMention(t, mention.path, home);
  const fs = t.parts.live.agent.sandbox.fs;
  const info = await fs.stat(real);
  if (info.isDirectory) return [{ type: "text", text: await listing(t, mention.path, real) }];
  if (!info.isFile) throw new Error("it is not a regular file");
  const head = info.size ? await fs.readFile(real, { offset: 0, length: 16 }) : new Uint8Array();
  const mime = imageMime("", head);
  if (mime) return await image(t, mention, { real, size: info.size, mime }, notes);
  const cut = info.size > MENTION_TEXT_BYTES;
  const bytes = await fs.readFile(
    real,
    cut ? { offset: 0, length: MENTION_TEXT_BYTES } : undefined,
  );
  if (bytes.includes(0)) throw new Error("it is a binary file, not text or an image");
  let body = new TextDecoder().decode(bytes);
  if (cut) {
    const end = body.lastIndexOf("\n");
    if (end > 0) body = body.slice(0, end);
    const shown = `${kib(body.length)} of ${kib(info.size)}`;
    body += `\n[cut: the first ${shown} are shown; read the rest with the file tools]`;
    notes.push(`${mention.token} is long: only its first ${shown} are attached`);
  }
  const text = `<file path="${mention.path}">\n${body.replace(/\n$/, "")}\n</file>`;
  return [{ type: "text", text }];
}

async function image(
  t: TurnSetup,
  mention: Mention,
  file: { real: string; size: number; mime: string },
  notes: string[],
): Promise<Block[]> {
  if (file.size > MENTION_IMAGE_BYTES) {
    throw new Error(`the image is ${kib(file.size)}, over the limit of 20 MB`);
  }
  const model = t.parts.state.loop.model;
  if (!takesImages(t.parts.catalog, t.parts.live.provider.settings, model)) {
    notes.push(
      `${mention.token} is an image and ${model} does not take images: the model reads a note ` +
        "instead (switch with /model to one that does to show it)",
    );
  }
  const bytes = await t.parts.live.agent.sandbox.fs.readFile(file.real);
  const { Buffer } = await import("node:buffer");
  return [
    { type: "text", text: `[image ${mention.path}]` },
    { type: "image", mime: file.mime, base64: Buffer.from(bytes).toString("base64") },
  ];
}

async function listing(t: TurnSetup, path: string, real: string): Promise<string> {
  const entries = await t.parts.live.agent.sandbox.fs.readDir(real);
  const names = entries.map((e) => e.isDirectory ? `${e.name}/` : e.name).sort();
  const more = names.length > LISTING_MAX
    ? `\n[${names.length - LISTING_MAX} more entries not listed]`
    : "";
  const shown = names.slice(0, LISTING_MAX).join("\n");
  return `<directory path="${path}">\n${shown}${more}\n</directory>`;
}

function kib(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MB`
    : `${Math.ceil(bytes / 1024)} KiB`;
}
