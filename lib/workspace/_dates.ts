/**
 * The date texts of the prompt variables without ICU: `Intl` and `toLocale*String` load time-zone
 * and locale data on first use (20-30 ms at start-up), so the zone is read from `TZ` or the
 * `/etc/localtime` link first, and long dates are spelled out here in English.
 */

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** An IANA zone name as `TZ` or a zoneinfo path spells it (`Europe/Berlin`, `UTC`). */
const ZONE_NAME = /^(?:[A-Za-z][A-Za-z0-9_+-]*)(?:\/[A-Za-z0-9_+-]+)*$/;

/** `date` as `Tuesday, December 1, 2026`, in UTC. */
export function longDate(date: Date): string {
  return `${WEEKDAYS[date.getUTCDay()]}, ${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ` +
    `${date.getUTCFullYear()}`;
}

/**
 * The local time zone's IANA name: `TZ` when it holds one, else the zone `/etc/localtime` links
 * to (Linux and macOS), else what `Intl` resolves (Windows, or a copied zone file).
 */
export function localTimeZone(env: Record<string, string | undefined>): string {
  const tz = env.TZ?.replace(/^:/, "");
  if (tz !== undefined && ZONE_NAME.test(tz) && !tz.startsWith("/")) return tz;
  const linked = zoneOfLink();
  if (linked === undefined) return Intl.DateTimeFormat().resolvedOptions().timeZone;
  // The names Intl gives as "UTC" (its canonical name for them).
  return /^(Etc\/)?(UTC|UCT|Universal|Zulu|GMT0?|Greenwich)$/.test(linked) ? "UTC" : linked;
}

function zoneOfLink(): string | undefined {
  if (Deno.build.os === "windows") return undefined;
  try {
    const target = Deno.readLinkSync("/etc/localtime");
    const zone = target.match(/zoneinfo\/(.+)$/)?.[1];
    return zone && ZONE_NAME.test(zone) && !zone.startsWith("posix/") ? zone : undefined;
  } catch {
    return undefined;
  }
}
