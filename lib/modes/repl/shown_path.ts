/** How the REPL's listings (`/skills`, `/agents`, `/commands`) name a file. */
import { relative } from "node:path";

/** `path` relative to `cwd` when it lies inside it, else as it is. */
export function shownPath(path: string, cwd: string): string {
  const inside = relative(cwd, path);
  return inside.startsWith("..") || inside.startsWith("/") ? path : inside;
}
