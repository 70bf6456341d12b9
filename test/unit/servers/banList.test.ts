import { describe, it, expect } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { emptyBanList, loadBanList, parseBanList } from '../../../src/node/servers/join/banList';
import { tempDir } from '../../support/testRun';

const FILE = `# troublemakers
203.0.113.9
198.51.100.0/24   # a whole provider block

2001:db8:bad::/48
::1
not-an-address
10.0.0.0/33
10.0.0.0/8/9
fe80::1%eth0
1.2.3.4 5.6.7.8
`;

describe('ban list', () => {
  it('bans single addresses and CIDR blocks in both families', () => {
    const { list } = parseBanList(FILE);
    expect(list.size).toBe(4);
    expect(list.isBanned('203.0.113.9')).toBe(true);
    expect(list.isBanned('203.0.113.10')).toBe(false);
    expect(list.isBanned('198.51.100.0')).toBe(true);
    expect(list.isBanned('198.51.100.255')).toBe(true);
    expect(list.isBanned('198.51.101.1')).toBe(false);
    expect(list.isBanned('2001:db8:bad:ffff::1')).toBe(true);
    expect(list.isBanned('2001:DB8:BAD::7')).toBe(true);
    expect(list.isBanned('2001:db8:bae::1')).toBe(false);
    expect(list.isBanned('::1')).toBe(true);
  });

  it('matches IPv4-mapped IPv6 peers against IPv4 entries', () => {
    const { list } = parseBanList('127.0.0.2/32\n');
    expect(list.isBanned('::ffff:127.0.0.2')).toBe(true);
    expect(list.isBanned('127.0.0.2')).toBe(true);
    expect(list.isBanned('127.0.0.1')).toBe(false);
  });

  it('reports each invalid line with its number and keeps the valid ones', () => {
    const { warnings } = parseBanList(FILE);
    expect(warnings.map((w) => [w.line, w.text])).toEqual([
      [7, 'not-an-address'],
      [8, '10.0.0.0/33'],
      [9, '10.0.0.0/8/9'],
      [10, 'fe80::1%eth0'],
      [11, '1.2.3.4 5.6.7.8'],
    ]);
    expect(warnings[1]?.reason).toMatch(/prefix/);
  });

  it('ignores comments, blank lines and CRLF line ends', () => {
    const { list, warnings } = parseBanList('# only comments\r\n\r\n   \r\n192.0.2.1 # trailing\r\n');
    expect(warnings).toEqual([]);
    expect(list.size).toBe(1);
    expect(list.isBanned('192.0.2.1')).toBe(true);
  });

  it('never throws and bans nothing for text that is not an address', () => {
    const { list } = parseBanList('0.0.0.0/0\n');
    expect(list.isBanned('192.0.2.1')).toBe(true);
    for (const junk of ['', '?', 'example.com', '1.2.3', '::g', 'fe80::1%eth0']) expect(() => list.isBanned(junk)).not.toThrow();
    expect(list.isBanned('example.com')).toBe(false);
    expect(emptyBanList().isBanned('192.0.2.1')).toBe(false);
  });

  it('loads from a file and rejects a missing file', async () => {
    const dir = tempDir('bans');
    try {
      const path = join(dir, 'bans.txt');
      writeFileSync(path, '127.0.0.2/32\n');
      const { list } = await loadBanList(path);
      expect(list.isBanned('127.0.0.2')).toBe(true);
      await expect(loadBanList(join(dir, 'missing.txt'))).rejects.toThrow(/ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
