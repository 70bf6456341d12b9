/**
 * The server browser as the host keeps it (issue 24), for every page
 * (HostService.setBrowser) and the console alike:
 * - a refresh asks the masterserver and the LAN together, then pings each
 *   listed server the LAN did not answer, and the pages follow it: `asking`,
 *   `pinging` n of m with the pings filling in, `done`; a masterserver that
 *   cannot be reached or a LAN that cannot be asked is a reason in words;
 * - the player's kept servers (favourites, joined lately; settings.json) are
 *   in the table even when nothing lists them, and pinged where they answered
 *   before;
 * - every game joined on a server is recorded as the newest recent one;
 * - a join from the browser names the protocol and the address, so sorting
 *   and filtering on the page cannot make it join another server.
 */
import { queryMaster } from '../net/masterQuery';
import { lanOptionsOf, queryLanDetailed, type LanQueryOptions } from '../net/lanQuery';
import { pingServers, type PingResult } from '../net/serverPing';
import type { HostEvent } from '../../shared/host/contract';
import type { ConsoleOutput } from '../../shared/console/registry';
import { GAMESERVER_PORT, NETGAME_PORT, SLOTSERVER_PORT } from '../../shared/servers/joinProtocol';
import { MASTER_SERVER_TYPES, type ListedServer, type MasterServerType } from '../../shared/servers/masterProtocol';
import { applyPings, formatAddress, mergeServers, pingTargets, type BrowserRow, type LanAnswer, type PingMeasure } from '../../shared/servers/browserModel';
import { markSaved, rowAt } from '../../shared/servers/savedRows';
import { emptySavedServers, findSaved, savedAddress, savedName, withRecent, type SavedServers } from '../../shared/servers/savedServers';
import { switchTo } from './protocolSwitch';
import type { HostService } from './hostService';

/** The join port `connect` takes for each kind of server when none is given. */
export const DEFAULT_JOIN_PORT: Record<MasterServerType, number> = { slotserver: SLOTSERVER_PORT, gameserver: GAMESERVER_PORT, netgame: NETGAME_PORT };

export const isServerKind = (v: unknown): v is MasterServerType => typeof v === 'string' && (MASTER_SERVER_TYPES as readonly string[]).includes(v);

/** What one refresh found, for the console's table. */
export interface RefreshResult {
  rows: BrowserRow[];
  /** `host:port` of the masterserver asked. */
  where: string;
  lanKind: 'udp' | 'udp6' | null;
  /** Why the masterserver's list is missing, null when it answered. */
  masterError: string | null;
  /** Why the LAN could not be asked, null when it was (or was not to be). */
  lanError: string | null;
}

/** The pages hear of pings coming back at most this often (a list of 256 servers is 256 answers). */
const PROGRESS_MS = 100;

export class ServerBrowser {
  /** Each refresh's number: a refresh started later takes the pages over. */
  private generation = 0;
  /** The server last recorded as joined, until the game is left. */
  private lastJoined: string | null = null;
  private progressTimer: NodeJS.Timeout | null = null;
  private pendingProgress: (() => void) | null = null;

  constructor(
    private readonly host: HostService,
    private readonly lan: LanQueryOptions,
  ) {
    if (this.saved().favourites.length + this.saved().recent.length > 0) host.setBrowser({ rows: markSaved(host.browser.rows, this.saved()) });
    host.onEvents((batch) => this.watch(batch));
    host.onDispose(() => this.progressTimer && clearTimeout(this.progressTimer));
  }

  /** The player's kept servers as saved now. */
  saved(): SavedServers {
    return this.host.settings.peek().servers ?? emptySavedServers();
  }

  /** Changes the kept servers: saved, every page told, the table marked again. */
  keep(change: (saved: SavedServers) => SavedServers): SavedServers {
    const next = change(this.saved());
    const settings = this.host.settings.update((s) => {
      s.servers = next;
    });
    this.host.emit({ kind: 'settings', settings });
    this.host.setBrowser({ rows: markSaved(this.host.browser.rows, next) });
    return next;
  }

  /**
   * Asks the masterserver at `target` and the LAN (over the bound packet
   * API's kind), then pings; `asked` is called between the two (the
   * console's warnings go there). Resolves with the final table.
   */
  async refresh(target: { host: string; port: number }, asked: (r: Omit<RefreshResult, 'rows'>) => void = () => undefined): Promise<RefreshResult> {
    const gen = ++this.generation;
    const mine = () => gen === this.generation;
    const where = `${target.host}:${target.port}`;
    const bound = this.host.subsystems.packetApi.bound();
    const lanKind: 'udp' | 'udp6' | null = bound === 'udp' || bound === 'udp6' ? bound : null;
    this.host.setBrowser({ status: 'asking', progress: { done: 0, total: 0 }, masterError: '', lanError: '', joinError: null, joining: null });
    const [fromMaster, fromLan] = await Promise.all([
      queryMaster(target.host, target.port).then(
        (list) => ({ list, error: null }),
        (err: Error) => ({ list: [] as ListedServer[], error: err.message }),
      ),
      lanKind
        ? queryLanDetailed(lanKind, lanOptionsOf(this.host.subsystems.packetApi.table, this.lan)).then(
            (r) => ({ list: r.servers as LanAnswer[], error: null }),
            (err: Error) => ({ list: [] as LanAnswer[], error: err.message }),
          )
        : { list: [] as LanAnswer[], error: 'no packet API is bound (type packetapi udp)' },
    ]);
    const head = { where, lanKind, masterError: fromMaster.error, lanError: fromLan.error };
    asked(head);
    const listed = markSaved(mergeServers(fromMaster.list, fromLan.list), this.saved());
    const targets = pingTargets(listed);
    if (mine()) {
      this.host.setBrowser({
        status: targets.length > 0 ? 'pinging' : 'done',
        progress: { done: 0, total: targets.length },
        masterError: fromMaster.error === null ? '' : `the masterserver at ${where} cannot be reached (${fromMaster.error})`,
        lanError: fromLan.error === null ? '' : `the LAN could not be asked (${fromLan.error})`,
        rows: listed,
      });
    }
    const measures: PingMeasure[] = [];
    const table = () => markSaved(applyPings(listed, measures), this.saved());
    await pingServers(
      targets.map((t) => ({ address: t.host, port: t.udp })),
      {
        onResult: (result, done, total) => {
          measures.push(measureOf(result));
          if (mine()) this.progress(() => mine() && this.host.setBrowser({ progress: { done, total }, rows: table() }));
        },
      },
    );
    const rows = table();
    if (mine()) {
      this.progress(null);
      this.host.setBrowser({ status: 'done', progress: { done: targets.length, total: targets.length }, rows });
    }
    return { ...head, rows };
  }

  /**
   * `servers join <kind> <address>`: joins the `kind` server at `address`,
   * leaving any game and switching protocol as `connect <n>` does. The
   * browser remembers the attempt (`joining`) and forgets an old join error.
   */
  async join(kind: MasterServerType, text: string, out: ConsoleOutput, how: 'play' | 'watch' = 'play'): Promise<void> {
    const verb = how === 'watch' ? 'watch' : 'join';
    const address = savedAddress(text, DEFAULT_JOIN_PORT[kind]);
    if (address === null) return out.print(`servers ${verb}: "${text}" is not host[:port]`, 'error');
    const protocol = this.host.subsystems.protocol;
    const conn = protocol.bound() === null ? null : (protocol.table.connection?.() ?? null);
    if (protocol.bound() === kind && conn?.host !== undefined && savedAddress(formatAddress(conn.host, conn.port ?? null)) === address) {
      return out.print(`servers ${verb}: you are already ${this.host.game?.game.watching ? 'watching' : 'playing on'} the ${kind} at ${address} (menu off goes back to the game)`);
    }
    this.host.setBrowser({ joining: { kind, address, ...(how === 'watch' ? { watch: true as const } : {}) }, joinError: null });
    if (protocol.bound() === kind && conn === null) {
      // Not in a game: connect at once. One still trying elsewhere is given up by rebinding below.
      const line = (how === 'watch' ? protocol.table.spectate?.(address) : protocol.table.connect?.(address)) ?? null;
      if (line === null || !line.startsWith('already ')) {
        if (line !== null) out.print(line);
        return;
      }
    }
    await switchTo(this.host, kind, address, how);
  }

  /** Runs `update` at most every {@link PROGRESS_MS} (the last one wins); null: drop what waits. */
  private progress(update: (() => void) | null): void {
    this.pendingProgress = update;
    if (update === null) {
      if (this.progressTimer) clearTimeout(this.progressTimer);
      this.progressTimer = null;
      return;
    }
    if (this.progressTimer) return;
    this.progressTimer = setTimeout(() => {
      this.progressTimer = null;
      const next = this.pendingProgress;
      this.pendingProgress = null;
      next?.();
    }, PROGRESS_MS);
    this.progressTimer.unref();
  }

  /** Records the server a game was joined on (the player's own ship in), once per game, as the newest recent one; the browser's join is over. */
  private watch(batch: readonly HostEvent[]): void {
    for (const e of batch) {
      if (e.kind !== 'net' || e.delivery.kind !== 'players') continue;
      const d = e.delivery;
      if (d.localSlot === null) {
        this.lastJoined = null;
        continue;
      }
      // Watching (a spectator's seat, or connected but not joined) is no game joined: the browser's attempt is over, nothing is recorded.
      if (this.host.game?.game.watching) {
        if (this.host.browser.joining !== null) this.host.setBrowser({ joining: null });
        continue;
      }
      if (!d.players.some((p) => p.slot === d.localSlot && p.joined)) continue;
      const protocol = this.host.subsystems.protocol;
      const kind = protocol.bound();
      const conn = kind === null ? null : (protocol.table.connection?.() ?? null);
      if (!isServerKind(kind) || conn?.host === undefined || conn.port === undefined) continue;
      const address = savedAddress(formatAddress(conn.host, conn.port));
      // The browser's join (if it was one) is over: the player is in.
      if (this.host.browser.joining !== null) this.host.setBrowser({ joining: null });
      if (address === null || address === this.lastJoined) continue;
      this.lastJoined = address;
      const row = rowAt(this.host.browser.rows, address);
      const before = findSaved(this.saved(), address);
      const name = savedName(conn.name ?? row?.name ?? before?.name ?? '');
      this.keep((s) => withRecent(s, { address, kind, name, udp: row?.udp ?? before?.udp ?? null }));
    }
  }
}

/** A ping's outcome as the table takes it. */
function measureOf(r: PingResult): PingMeasure {
  const a = r.announcement;
  return {
    host: r.target.address,
    udp: r.target.port,
    pingMs: r.pingMs,
    ...(a ? { answer: { name: a.name, kind: a.kind, port: a.port, players: a.players, maxPlayers: a.maxPlayers } } : {}),
  };
}
