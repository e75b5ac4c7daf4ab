/**
 * Who a request's client is for its quotas (requests and bytes in flight, sessions): the principal
 * the guard admitted it as, else the network its address belongs to. An IPv6 host is commonly given
 * a whole /64, so keying on the full address would let one host be as many clients as it likes; by
 * default an IPv6 address counts by its /64 and an IPv4 address by itself (an IPv4-mapped IPv6
 * address, `::ffff:a.b.c.d`, as the IPv4 address it maps). Revision-independent; copied verbatim
 * into generated output.
 */

/** How many leading bits of a remote address name its client (`HttpOptions.clientPrefix`). */
export interface ClientPrefix {
  /** Bits of an IPv4 address, 0–32; default 32 (each address a client). */
  ipv4?: number;
  /** Bits of an IPv6 address, 0–128; default 64 (each /64 a client). */
  ipv6?: number;
}

export const DEFAULT_CLIENT_PREFIX: Readonly<Required<ClientPrefix>> = Object.freeze({
  ipv4: 32,
  ipv6: 64,
});

/** The prefix lengths with defaults filled in, each checked to be a whole number in range. */
export function clientPrefixOf(given: ClientPrefix | undefined): Required<ClientPrefix> {
  const prefix = { ...DEFAULT_CLIENT_PREFIX, ...given };
  for (const [family, max] of [
    ["ipv4", 32],
    ["ipv6", 128],
  ] as const) {
    const bits = prefix[family];
    if (!Number.isSafeInteger(bits) || bits < 0 || bits > max)
      throw new RangeError(`clientPrefix.${family} must be a whole number 0–${max}, not ${bits}`);
  }
  return prefix;
}

/**
 * The key of the client at `address` (as the socket reports it): `address <network>/<bits>`, or
 * the address itself when its prefix is the whole address. Text that is no IP address (a host
 * that reports something else) is its own key.
 */
export function addressKey(address: string, prefix: Required<ClientPrefix>): string {
  let v4 = ipv4Of(address);
  if (v4 === undefined && address.includes(":")) {
    const v6 = ipv6Of(address);
    if (v6 === undefined) return `address ${address}`;
    // ::ffff:a.b.c.d is an IPv4 client reached over an IPv6 socket: the same client as a.b.c.d.
    if (!(v6.slice(0, 5).every((group) => group === 0) && v6[5] === 0xffff))
      return `address ${masked(v6, 16, prefix.ipv6, ":", 16)}`;
    v4 = [v6[6]! >> 8, v6[6]! & 0xff, v6[7]! >> 8, v6[7]! & 0xff];
  }
  return v4 === undefined ? `address ${address}` : `address ${masked(v4, 8, prefix.ipv4, ".", 10)}`;
}

/** The first `bits` bits of an address given as its parts of `width` bits each, the rest zero. */
function masked(parts: number[], width: number, bits: number, sep: string, radix: number): string {
  const whole = parts.length * width;
  const kept = parts.map((part, i) => {
    const keep = Math.min(width, Math.max(0, bits - i * width));
    return keep === width ? part : keep === 0 ? 0 : part & (((1 << keep) - 1) << (width - keep));
  });
  const text = kept.map((part) => part.toString(radix)).join(sep);
  return bits >= whole ? text : `${text}/${bits}`;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function ipv4Of(address: string): number[] | undefined {
  const match = IPV4.exec(address);
  if (!match) return undefined;
  const parts = match.slice(1).map(Number);
  return parts.every((part) => part <= 255) ? parts : undefined;
}

/** The eight 16-bit groups of an IPv6 address (brackets and a zone `%…` allowed, `::` and a dotted IPv4 tail expanded). */
function ipv6Of(given: string): number[] | undefined {
  let address = given.startsWith("[") && given.endsWith("]") ? given.slice(1, -1) : given;
  const zone = address.indexOf("%");
  if (zone >= 0) address = address.slice(0, zone);
  const halves = address.split("::");
  if (halves.length > 2) return undefined;
  const groups = (text: string): number[] | undefined => {
    if (text === "") return [];
    const out: number[] = [];
    const pieces = text.split(":");
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (i === pieces.length - 1 && piece.includes(".")) {
        const v4 = ipv4Of(piece);
        if (!v4) return undefined;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) out.push(parseInt(piece, 16));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  return [...head, ...Array<number>(missing).fill(0), ...tail];
}
