/**
 * Splits a command line into words the way a POSIX shell does, without expansions: blanks and
 * newlines separate words, '…' is literal, "…" honours \" \\ \$ \` and backslash-newline, and an
 * unquoted backslash takes the next character literally. Quoted values may span lines.
 */
export function splitWords(line: string): { words: string[] } | { error: string } {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) return { error: "a single quote (') is not closed" };
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      const read = readDoubleQuoted(line, i + 1);
      if (read === undefined) return { error: 'a double quote (") is not closed' };
      word += read.text;
      inWord = true;
      i = read.end;
    } else if (c === "\\") {
      if (line[i + 1] !== "\n" && i + 1 < line.length) {
        word += line[i + 1];
        inWord = true;
      }
      i++;
    } else if (c === " " || c === "\t" || c === "\n") {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return { words };
}

function readDoubleQuoted(line: string, from: number): { text: string; end: number } | undefined {
  let text = "";
  for (let i = from; i < line.length; i++) {
    const c = line[i];
    if (c === '"') return { text, end: i };
    if (c === "\\" && i + 1 < line.length) {
      const next = line[i + 1];
      if (next === "\n") {
        i++;
        continue;
      }
      if ('"\\$`'.includes(next)) {
        text += next;
        i++;
        continue;
      }
    }
    text += c;
  }
  return undefined;
}
