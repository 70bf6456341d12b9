/**
 * A server's ban list (Parsec's "you're banned from this server"). The file
 * holds one IPv4 or IPv6 address or CIDR block per line; `#` starts a comment
 * (whole line or after an entry) and blank lines are ignored. A line that is
 * not a valid entry is reported as a warning with its line number and
 * skipped, so one typo never leaves a server without its other bans. The
 * servers read it again when it changes and on SIGHUP (banWatch.ts).
 */
import { readFile } from 'node:fs/promises';
import { BlockList, isIP } from 'node:net';

export interface BanList {
  /** Whether `ip` (IPv4, IPv6, IPv4-mapped IPv6, optionally with a `%zone`) falls under an entry. Never throws; anything that is not an IP address is not banned. */
  isBanned(ip: string): boolean;
  /** Number of valid entries. */
  readonly size: number;
}

export interface BanWarning {
  /** 1-based line number in the file. */
  line: number;
  /** The offending line, trimmed. */
  text: string;
  reason: string;
}

export interface BanListLoad {
  list: BanList;
  warnings: BanWarning[];
}

/** A list that bans nobody (for servers started without a ban file). */
export function emptyBanList(): BanList {
  return { isBanned: () => false, size: 0 };
}

/** Parses ban-list text; never throws. */
export function parseBanList(text: string): BanListLoad {
  const blocks = new BlockList();
  const warnings: BanWarning[] = [];
  let size = 0;
  text.split(/\r?\n/).forEach((raw, index) => {
    const entry = (raw.split('#')[0] ?? '').trim();
    if (entry === '') return;
    const warn = (reason: string) => warnings.push({ line: index + 1, text: raw.trim(), reason });
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    if (extra !== undefined || /\s/.test(entry)) return warn('expected one address or CIDR block per line');
    // Zones name a local interface, which means nothing in a ban.
    if (family === 0 || address.includes('%')) return warn(`not an IP address: ${address}`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) {
      blocks.addAddress(address, type);
    } else {
      const bits = /^(0|[1-9]\d{0,2})$/.test(prefix) ? Number(prefix) : NaN;
      if (!(bits <= (family === 4 ? 32 : 128))) return warn(`bad prefix length /${prefix} for an IPv${family} address`);
      blocks.addSubnet(address, bits, type);
    }
    size += 1;
  });
  return {
    warnings,
    list: {
      size,
      isBanned(ip: string): boolean {
        const bare = ip.split('%')[0] ?? '';
        const family = isIP(bare);
        if (family === 0) return false;
        try {
          // BlockList matches IPv4-mapped IPv6 addresses against IPv4 entries itself.
          return blocks.check(bare, family === 4 ? 'ipv4' : 'ipv6');
        } catch {
          return false;
        }
      },
    },
  };
}

/** Reads and parses a ban file. A missing or unreadable file rejects: an admin who named a ban file expects it to apply. */
export async function loadBanList(path: string): Promise<BanListLoad> {
  return parseBanList(await readFile(path, 'utf8'));
}
