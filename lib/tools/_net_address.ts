/**
 * IP address literals and the ranges web fetch refuses: this machine, private networks, link-local
 * and cloud metadata addresses, and the IPv6 forms that carry an IPv4 address (mapped, NAT64,
 * 6to4, Teredo), which are judged by the IPv4 address inside.
 */

/** An IPv4 range as `[first octets, prefix length, description]`. */
type Range4 = [number[], number, string];

const CLOUD_METADATA = "a cloud metadata address";
const RESERVED = "a reserved address";

// The first match wins, so single addresses come before the ranges that hold them.
const BLOCKED_V4: Range4[] = [
  [[169, 254, 169, 254], 32, CLOUD_METADATA],
  [[168, 63, 129, 16], 32, CLOUD_METADATA],
  [[255, 255, 255, 255], 32, "the broadcast address"],
  [[0], 8, 'a "this network" address (0.0.0.0 reaches this machine)'],
  [[10], 8, "a private address"],
  [[100, 64], 10, "a shared (carrier-grade NAT) address"],
  [[127], 8, "a loopback address"],
  [[169, 254], 16, "a link-local address"],
  [[172, 16], 12, "a private address"],
  [[192, 0, 0], 24, RESERVED],
  [[192, 168], 16, "a private address"],
  [[198, 18], 15, RESERVED],
  [[224], 4, "a multicast address"],
  [[240], 4, RESERVED],
];

/** An IPv6 range as `[first bytes, prefix length, description]`. */
type Range6 = [number[], number, string];

const BLOCKED_V6: Range6[] = [
  [[0xfd, 0x00, 0x0e, 0xc2, ...Array(10).fill(0), 0x02, 0x54], 128, CLOUD_METADATA],
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48, "a local-use NAT64 address"],
  [[0x01, 0x00, ...Array(6).fill(0)], 64, RESERVED],
  [[0xfc], 7, "a unique-local IPv6 address"],
  [[0xfe, 0x80], 10, "a link-local IPv6 address"],
  [[0xfe, 0xc0], 10, "a site-local IPv6 address"],
  [[0xff], 8, "a multicast IPv6 address"],
];

/** IPv6 prefixes that embed an IPv4 address: prefix, length, where the IPv4 bytes are, name. */
const EMBEDDING_V6: Array<[number[], number, (b: number[]) => number[], string]> = [
  [[...Array(10).fill(0), 0xff, 0xff], 96, (b) => b.slice(12), "IPv4-mapped"],
  [[0x00, 0x64, 0xff, 0x9b, ...Array(8).fill(0)], 96, (b) => b.slice(12), "NAT64"],
  [[0x20, 0x02], 16, (b) => b.slice(2, 6), "6to4"],
  [[0x20, 0x01, 0x00, 0x00], 32, (b) => b.slice(12).map((x) => x ^ 0xff), "Teredo"],
];

/** The four bytes of a dotted IPv4 address, or undefined when `text` is not one. */
export function parseIpv4(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9][0-9]{0,2})$/.test(p))) return undefined;
  const bytes = parts.map(Number);
  return bytes.every((b) => b <= 255) ? bytes : undefined;
}

/** The sixteen bytes of an IPv6 address (without brackets), or undefined when it is not one. */
export function parseIpv6(text: string): number[] | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groups = halves.map((half) => half === "" ? [] : half.split(":"));
  const words: number[][] = [];
  for (const side of groups) {
    const out: number[] = [];
    for (const [i, group] of side.entries()) {
      const v4 = i === side.length - 1 && side === groups.at(-1) ? parseIpv4(group) : undefined;
      if (v4) out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      else if (/^[0-9a-f]{1,4}$/i.test(group)) out.push(parseInt(group, 16));
      else return undefined;
    }
    words.push(out);
  }
  const given = words.flat().length;
  if (halves.length === 1 ? given !== 8 : given > 7) return undefined;
  const all = [...words[0], ...Array(8 - given).fill(0), ...(words[1] ?? [])];
  return all.flatMap((w) => [w >> 8, w & 0xff]);
}

/** True when `host` is an IP address literal: dotted IPv4, or IPv6 with or without brackets. */
export function isIpLiteral(host: string): boolean {
  return parseIpv4(host) !== undefined || parseIpv6(unbracketed(host)) !== undefined;
}

/** `host` without the brackets a URL puts around an IPv6 address. */
export function unbracketed(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/**
 * Why web fetch must not connect to IP address `address` ("a loopback address", "an IPv4-mapped
 * form of 127.0.0.1, a loopback address"), or undefined for a public address. Text that is not
 * an IP address is refused too, as it cannot be checked.
 */
export function blockedAddressReason(address: string): string | undefined {
  const v4 = parseIpv4(address);
  if (v4) return matchRange(v4, BLOCKED_V4);
  const v6 = parseIpv6(unbracketed(address));
  if (!v6) return "not an IP address";
  if (v6.every((b) => b === 0)) return "the unspecified IPv6 address (it reaches this machine)";
  if (v6.slice(0, 15).every((b) => b === 0) && v6[15] === 1) return "the IPv6 loopback address";
  for (const [prefix, length, embedded, name] of EMBEDDING_V6) {
    if (!inPrefix(v6, prefix, length)) continue;
    const inner = embedded(v6);
    const reason = matchRange(inner, BLOCKED_V4);
    return reason && `the ${name} form of ${inner.join(".")}, ${reason}`;
  }
  if (v6.slice(0, 12).every((b) => b === 0)) return "a deprecated IPv4-compatible IPv6 address";
  return matchRange(v6, BLOCKED_V6);
}

function matchRange(
  bytes: number[],
  ranges: Array<[number[], number, string]>,
): string | undefined {
  return ranges.find(([prefix, length]) => inPrefix(bytes, prefix, length))?.[2];
}

function inPrefix(bytes: number[], prefix: number[], length: number): boolean {
  for (let bit = 0; bit < length; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if (((bytes[byte] ?? 0) & mask) !== ((prefix[byte] ?? 0) & mask)) return false;
  }
  return true;
}
