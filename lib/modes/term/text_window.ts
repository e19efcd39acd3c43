/** Windows onto long output for the terminal: its first lines, its last, or both ends. */

function lines(text: string): string[] {
  const all = text.replace(/\n$/, "").split("\n");
  return all.length === 1 && all[0] === "" ? [] : all;
}

/** The last `n` lines of `text`, after a note of how many were left out. */
export function tail(text: string, n: number): string[] {
  const all = lines(text);
  return all.length <= n ? all : [`… ${all.length - n} earlier lines`, ...all.slice(-n)];
}

/**
 * At most `n` lines of `text`: all of them when they fit, else its first and last `n / 2` with a
 * note of how many were left out between them.
 */
export function headAndTail(text: string, n: number): string[] {
  const all = lines(text);
  if (all.length <= n) return all;
  const left = all.length - n;
  const first = Math.ceil(n / 2);
  return [
    ...all.slice(0, first),
    `… ${left} more ${left === 1 ? "line" : "lines"}`,
    ...all.slice(all.length - (n - first)),
  ];
}

/** The first `n` lines of `text`, then a note of how many were left out. */
export function head(text: string, n: number): string[] {
  const all = lines(text);
  return all.length <= n ? all : [...all.slice(0, n), `… ${all.length - n} more lines`];
}
