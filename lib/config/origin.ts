/** Where an effective config value came from. */
export type Origin =
  | { kind: "flag"; name: string }
  | { kind: "override"; text: string }
  | { kind: "profile"; name: string; file?: string }
  | { kind: "project"; file: string }
  | { kind: "user"; file: string }
  | { kind: "default" };

/** Describes an origin for people: `flag --model`, `user /home/x/.openinterpreter/config.toml`. */
export function describeOrigin(origin: Origin): string {
  switch (origin.kind) {
    case "flag":
      return `flag ${origin.name}`;
    case "override":
      return "-c override";
    case "profile":
      return `profile "${origin.name}" (${origin.file ?? "-c override"})`;
    case "project":
      return `project ${origin.file}`;
    case "user":
      return `user ${origin.file}`;
    case "default":
      return "default";
  }
}
