/** What `interpreter doctor` asks for (lib/cli/cli.ts parses it). */
export interface DoctorArgs {
  /** The project whose config files are read; default the current directory. */
  cd?: string;
  /** One JSON object on stdout instead of lines. */
  json: boolean;
}
