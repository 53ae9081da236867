// IP literals: strict parsing (no octal, hex or short IPv4 forms, no zone ids), one canonical
// spelling per address, and which addresses are not the public internet. Pure: the egress proxy
// checks every address a name resolves to with `isPrivateAddress`, and entries compare canonically.

/** The four bytes of a strict dotted-decimal IPv4 address, or null. */
function parseIPv4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes: number[] = [];
  for (const part of parts) {
    // "0177" would be octal to inet_aton and decimal to a reader: refused, as every non-canonical form.
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    bytes.push(n);
  }
  return bytes;
}

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail allowed), or null. */
function parseIPv6(text: string): number[] | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || text.length > 45) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (half: string): number[] | null => {
    if (half === "") return [];
    const out: number[] = [];
    const pieces = half.split(":");
    for (const [i, piece] of pieces.entries()) {
      if (piece.includes(".")) {
        const v4 = i === pieces.length - 1 ? parseIPv4(piece) : null;
        if (!v4) return null;
        out.push(((v4[0] as number) << 8) | (v4[1] as number), ((v4[2] as number) << 8) | (v4[3] as number));
      } else if (/^[0-9a-fA-F]{1,4}$/.test(piece)) out.push(Number.parseInt(piece, 16));
      else return null;
    }
    return out;
  };
  const head = groupsOf(halves[0] as string);
  const tail = halves.length === 2 ? groupsOf(halves[1] as string) : [];
  if (!head || !tail) return null;
  // A dotted tail may only end the address.
  if (halves.length === 2 && (halves[0] as string).includes(".")) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : null;
}

/** RFC 5952's spelling of eight groups: lower-case, the longest run of two or more zeros as `::`. */
function formatIPv6(groups: readonly number[]): string {
  let best = { at: -1, len: 1 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.len) best = { at: i, len: j - i };
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.at < 0) return hex.join(":");
  return `${hex.slice(0, best.at).join(":")}::${hex.slice(best.at + best.len).join(":")}`;
}

/** The canonical spelling of an IP literal (brackets allowed around IPv6), or null for anything else. */
export function canonicalIp(text: string): string | null {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const v4 = parseIPv4(bare);
  if (v4) return v4.join(".");
  const v6 = parseIPv6(bare);
  return v6 ? formatIPv6(v6) : null;
}

/** IPv4 ranges that are not the public internet, as [network, mask]. */
const PRIVATE_V4: ReadonlyArray<readonly [number, number]> = [
  [0x00000000, 0xff000000], // 0.0.0.0/8 "this network" (0.0.0.0 reaches the host itself)
  [0x0a000000, 0xff000000], // 10/8 RFC 1918
  [0x64400000, 0xffc00000], // 100.64/10 carrier-grade NAT
  [0x7f000000, 0xff000000], // 127/8 loopback
  [0xa9fe0000, 0xffff0000], // 169.254/16 link-local (cloud metadata services live here)
  [0xac100000, 0xfff00000], // 172.16/12 RFC 1918
  [0xc0000000, 0xffffff00], // 192.0.0/24 IETF protocol assignments
  [0xc0000200, 0xffffff00], // 192.0.2/24 documentation
  [0xc0a80000, 0xffff0000], // 192.168/16 RFC 1918
  [0xc6120000, 0xfffe0000], // 198.18/15 benchmarking
  [0xc6336400, 0xffffff00], // 198.51.100/24 documentation
  [0xcb007100, 0xffffff00], // 203.0.113/24 documentation
  [0xe0000000, 0xf0000000], // 224/4 multicast
  [0xf0000000, 0xf0000000], // 240/4 reserved, 255.255.255.255 broadcast included
];

function privateV4(bytes: readonly number[]): boolean {
  const n =
    (((bytes[0] as number) << 24) |
      ((bytes[1] as number) << 16) |
      ((bytes[2] as number) << 8) |
      (bytes[3] as number)) >>>
    0;
  return PRIVATE_V4.some(([value, mask]) => (n & mask) >>> 0 === value);
}

/** The IPv4 address in groups 6 and 7 (or at `at`), as bytes. */
const v4At = (g: readonly number[], at = 6): number[] => [
  (g[at] as number) >> 8,
  (g[at] as number) & 0xff,
  (g[at + 1] as number) >> 8,
  (g[at + 1] as number) & 0xff,
];

function privateV6(g: readonly number[]): boolean {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 8)) return true; // :: unspecified
  if (zeros(0, 7) && g[7] === 1) return true; // ::1 loopback
  // An IPv4 address written as IPv6 reaches that IPv4 address: mapped (::ffff:a.b.c.d),
  // compatible (::a.b.c.d, deprecated), NAT64's well-known prefix (64:ff9b::/96) and 6to4 (2002::/16).
  if (zeros(0, 5) && g[5] === 0xffff) return privateV4(v4At(g));
  if (zeros(0, 6)) return privateV4(v4At(g));
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return privateV4(v4At(g));
  if (g[0] === 0x2002) return privateV4(v4At(g, 1));
  const first = g[0] as number;
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((first & 0xffc0) === 0xfec0) return true; // fec0::/10 site-local (deprecated, still routed inside)
  if ((first & 0xff00) === 0xff00) return true; // ff00::/8 multicast
  if (first === 0x2001 && g[1] === 0x0db8) return true; // 2001:db8::/32 documentation
  return first === 0x0100 && zeros(1, 4); // 100::/64 discard
}

/**
 * Whether an IP address is not the public internet: loopback, link-local, RFC 1918, carrier-grade
 * NAT, unique local, multicast, broadcast, unspecified, reserved and documentation ranges, and any
 * IPv6 spelling of such an IPv4 address. False for anything that is no IP literal.
 */
export function isPrivateAddress(ip: string): boolean {
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  const v4 = parseIPv4(bare);
  if (v4) return privateV4(v4);
  const v6 = parseIPv6(bare);
  return v6 !== null && privateV6(v6);
}
