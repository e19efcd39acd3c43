/** What `interpreter worktree …` asks for (lib/cli/cli.ts parses it). */
export type WorktreeArgs =
  | { command: "list"; cd?: string; json: boolean }
  | { command: "remove"; name: string; cd?: string; force: boolean };
