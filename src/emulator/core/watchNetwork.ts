/**
 * Which networks channel receivers may be on. A watch address is resolved and every address it names is classified
 * before any connection: private, link-local (the cloud metadata service among them), unique-local, shared,
 * unspecified, multicast and reserved addresses are refused unless the operator allowed their range
 * (`--allow-watch-network CIDR`); loopback is allowed, since this emulator's receivers are local, unless
 * `--no-loopback-watch`. Deliveries resolve again through the same check (a name may be re-pointed after the watch),
 * and connect only to the address that passed. Refusals read the same whatever is listening there.
 */
import * as dns from 'node:dns';
import { BlockList, isIP, isIPv4 } from 'node:net';
import type { LookupFunction } from 'node:net';
import { ApiError } from './errors';

/** Resolves a host name to every address it has (the system resolver by default; tests inject their own). */
export type HostResolver = (host: string) => Promise<string[]>;

export interface WatchNetworkOptions {
  /** CIDR ranges receivers may be in although they are not public (`--allow-watch-network`). */
  allowedNetworks: readonly string[];
  /** Whether receivers on loopback (127.0.0.0/8, ::1) are allowed: the default, for local receivers. */
  allowLoopback: boolean;
}

export const DEFAULT_WATCH_NETWORK: WatchNetworkOptions = { allowedNetworks: [], allowLoopback: true };

/** Names of the cloud metadata service, refused before any lookup. */
const METADATA_NAMES: ReadonlySet<string> = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/** Everything that is not a public unicast address: [network, prefix, family]. */
const NOT_PUBLIC: readonly [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'], // "this network", 0.0.0.0 included (connects to the host itself)
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // shared address space (carrier-grade NAT)
  ['169.254.0.0', 16, 'ipv4'], // link-local, with the metadata service at 169.254.169.254
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, and the broadcast address
  ['::', 96, 'ipv6'], // unspecified, and IPv4-compatible addresses
  ['64:ff9b::', 96, 'ipv6'], // NAT64: an IPv4 address behind a translator
  ['fc00::', 7, 'ipv6'], // unique-local
  ['fe80::', 10, 'ipv6'], // link-local
  ['fec0::', 10, 'ipv6'], // site-local (deprecated)
  ['ff00::', 8, 'ipv6'], // multicast
  ['64:ff9b:1::', 48, 'ipv6'], // local-use NAT64
];

const LOOPBACK: readonly [string, number, 'ipv4' | 'ipv6'][] = [['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']];

function blockListOf(ranges: readonly [string, number, 'ipv4' | 'ipv6'][]): BlockList {
  const list = new BlockList();
  for (const [network, prefix, family] of ranges) list.addSubnet(network, prefix, family);
  return list;
}

const notPublic = blockListOf(NOT_PUBLIC);
const loopback = blockListOf(LOOPBACK);

/** Parses `10.0.0.0/8`, `fd00::/8` or a single address; a malformed range is an error at startup. */
export function parseCidr(text: string): [string, number, 'ipv4' | 'ipv6'] {
  const [network = '', prefixText] = text.trim().split('/') as (string | undefined)[];
  const version = isIP(network);
  if (version === 0) throw new Error(`--allow-watch-network ${text}: not an IP address or CIDR range`);
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!/^\d{1,3}$/.test(prefixText ?? String(max)) || prefix > max) throw new Error(`--allow-watch-network ${text}: the prefix must be 0 to ${max}`);
  return [network, prefix, version === 4 ? 'ipv4' : 'ipv6'];
}

/** An IPv4 address written inside IPv6 (::ffff:10.0.0.1, or ::ffff:a00:1 as URLs normalise it) is that IPv4 address. */
function unmapped(address: string): string {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (dotted) return dotted;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return address;
  const high = parseInt(hex[1], 16);
  const low = parseInt(hex[2], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

export const systemResolver: HostResolver = async (host) => (await dns.promises.lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** The decision for receivers' addresses, from the operator's flags. */
export class WatchNetworkPolicy {
  private readonly allowed: BlockList;

  constructor(private readonly options: WatchNetworkOptions = DEFAULT_WATCH_NETWORK, public resolver: HostResolver = systemResolver) {
    this.allowed = blockListOf(options.allowedNetworks.map(parseCidr));
  }

  /** Whether a receiver may be at this IP address. */
  allows(address: string): boolean {
    // An IPv4-mapped address is judged as the IPv4 address it carries (BlockList would match IPv4 rules loosely).
    const plain = unmapped(address);
    const family = isIPv4(plain) ? 'ipv4' : 'ipv6';
    if (isIP(plain) === 0) return false;
    if (this.allowed.check(plain, family)) return true;
    if (loopback.check(plain, family)) return this.options.allowLoopback;
    return !notPublic.check(plain, family);
  }

  /**
   * The addresses a watch address's host stands for, once every one of them is allowed: the host's own address when
   * it is one, else what the resolver says. Anything refused is a 400 that never depends on what listens there.
   */
  async addressesOf(address: URL): Promise<string[]> {
    const host = address.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
    if (METADATA_NAMES.has(host)) throw refused(address);
    let addresses: string[];
    if (isIP(host) !== 0) addresses = [host];
    else {
      try {
        addresses = await this.resolver(host);
      } catch {
        throw new ApiError(400, 'invalid', `Invalid WebHook address ${address.href}: its host name does not resolve.`, { location: 'address', locationType: 'body' });
      }
    }
    if (addresses.length === 0 || !addresses.every((candidate) => this.allows(candidate))) throw refused(address);
    return addresses;
  }

  /**
   * A `lookup` for https.request that resolves through the same check at delivery time: a name re-pointed to a
   * refused address since the watch fails before any connection is made.
   */
  deliveryLookup(): LookupFunction {
    return (hostname, options, callback) => {
      const all = typeof options === 'object' && (options as { all?: boolean } | null)?.all === true;
      this.addressesOf(new URL(`https://${isIP(hostname) === 6 ? `[${hostname}]` : hostname}/`)).then(
        (addresses) => {
          const entries = addresses.map((address) => ({ address, family: isIP(address) }));
          if (all) (callback as unknown as (error: null, entries: { address: string; family: number }[]) => void)(null, entries);
          else callback(null, entries[0]?.address ?? '', entries[0]?.family ?? 4);
        },
        (error: unknown) => { callback(Object.assign(new Error(error instanceof Error ? error.message : 'refused'), { code: REFUSED_CODE }), '', 4); },
      );
    };
  }
}

/** The error code a refused delivery fails with (it is not retried). */
export const REFUSED_CODE = 'EWATCHADDRESSREFUSED';

function refused(address: URL): ApiError {
  return new ApiError(400, 'invalid', `Invalid WebHook address ${address.href}: the emulator does not deliver to private, link-local or other non-public addresses (an operator can allow a range with --allow-watch-network).`, { location: 'address', locationType: 'body' });
}
