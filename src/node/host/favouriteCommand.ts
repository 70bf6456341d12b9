/**
 * `favourite [list | add <host:port> [kind] | remove <host:port>]`: the
 * player's favourite servers (issue 24), kept in settings.json and shown in
 * the server browser (its star runs these lines) even when no masterserver
 * lists them and they do not answer.
 */
import { MASTER_SERVER_TYPES, type MasterServerType } from '../../shared/servers/masterProtocol';
import { rowAt } from '../../shared/servers/savedRows';
import { findSaved, MAX_FAVOURITES, savedAddress, savedName, withFavourite, withoutFavourite } from '../../shared/servers/savedServers';
import type { ConsoleOutput } from '../../shared/console/registry';
import type { HostService } from './hostService';
import { DEFAULT_JOIN_PORT, isServerKind, type ServerBrowser } from './serverBrowser';

const USAGE = 'favourite [list | add <host:port> [slotserver|gameserver|netgame] | remove <host:port>]';

export function registerFavouriteCommand(host: HostService, browser: ServerBrowser): () => void {
  return host.console.addCommand({
    name: 'favourite',
    help: 'list your favourite servers, or add or remove one (the server browser shows them even when nothing lists them)',
    usage: '[list | add <host:port> [kind] | remove <host:port>]',
    args: { max: 3 },
    complete: (args, argIndex) =>
      argIndex === 0 ? ['list', 'add', 'remove'] : argIndex === 1 && args[0] === 'remove' ? browser.saved().favourites.map((s) => s.address) : argIndex === 2 && args[0] === 'add' ? [...MASTER_SERVER_TYPES] : [],
    run: (args, out) => {
      const [what, address, kind] = args;
      if (what === undefined || (what === 'list' && args.length === 1)) return list(out);
      if (what === 'add' && address !== undefined) return add(address, kind, out);
      if (what === 'remove' && address !== undefined && args.length === 2) return remove(address, out);
      out.print(`favourite: usage: ${USAGE}`, 'error');
    },
  });

  function list(out: ConsoleOutput): void {
    const favourites = browser.saved().favourites;
    if (favourites.length === 0) return out.print('no favourite servers yet: favourite add <host:port> [kind], or the star in the server browser');
    out.print(`favourite servers (${favourites.length} of at most ${MAX_FAVOURITES}):`);
    const width = Math.max(7, ...favourites.map((s) => s.address.length));
    favourites.forEach((s, i) => out.print(`${String(i + 1).padStart(3)}  ${s.address.padEnd(width)} ${s.kind.padEnd(11)} ${s.name}`));
  }

  function add(text: string, kindText: string | undefined, out: ConsoleOutput): void {
    if (kindText !== undefined && !isServerKind(kindText)) return out.print(`favourite: "${kindText}" is not a kind of server (slotserver, gameserver or netgame)`, 'error');
    const given: MasterServerType | null = kindText ?? null;
    const address = savedAddress(text) ?? (given ? savedAddress(text, DEFAULT_JOIN_PORT[given]) : null);
    if (address === null) return out.print(`favourite: "${text}" is not host:port`, 'error');
    // What the browser or the kept lists know of it: its kind, name and ping port.
    const row = rowAt(host.browser.rows, address);
    const before = findSaved(browser.saved(), address);
    const kind = given ?? row?.kind ?? before?.kind ?? null;
    if (kind === null) return out.print(`favourite: which kind of server is ${address}? type favourite add ${address} slotserver|gameserver|netgame`, 'error');
    const name = savedName(row?.name ?? before?.name ?? '');
    const had = browser.saved().favourites.some((s) => s.address === address);
    const next = withFavourite(browser.saved(), { address, kind, name, udp: row?.udp ?? before?.udp ?? null });
    if (next === null) return out.print(`favourite: the list is full (${MAX_FAVOURITES}); remove one first (favourite remove <host:port>)`, 'error');
    browser.keep(() => next);
    const called = name ? `"${name}" (${kind}, ${address})` : `the ${kind} at ${address}`;
    const n = next.favourites.length;
    out.print(`favourite: ${called} ${had ? 'updated' : 'added'}; ${n} favourite${n === 1 ? '' : 's'}`);
  }

  function remove(text: string, out: ConsoleOutput): void {
    const address = savedAddress(text);
    if (address === null || !browser.saved().favourites.some((s) => s.address === address)) {
      return out.print(`favourite: ${address ?? `"${text}"`} is not a favourite (favourite list shows them)`, 'error');
    }
    browser.keep((saved) => withoutFavourite(saved, address));
    out.print(`favourite: ${address} removed; ${browser.saved().favourites.length} left`);
  }
}
