/**
 * The one-address forger: someone who can send from a joined player's exact
 * source address and port (a source-address forger on its path, or any host
 * behind the same NAT) fires datagrams with wrong tokens, no token and
 * garbage at the gameserver, ~2,000 a second. The victim must keep its seat
 * and its traffic both ways. Shared by the gameserver-forger test (which
 * asserts loose breakage bounds) and `npm run bench:hostile -- --forger`
 * (which prints the figures against {@link FORGER_TARGET}).
 *
 * The forgeries go out through the victim's own socket: on the wire they
 * are exactly what a forger of its address and port produces.
 */
import { randomBytes } from 'node:crypto';
import { encodePacket } from '../../src/shared/wire/codec';
import { PacketType, type Packet } from '../../src/shared/wire/types';
import { shipAt, type GameClient } from './gameClient';
import { HonestPlayers, rateOf } from './honestPlayers';
import type { ServerProcess } from './serverProcess';
import { waitFor } from './waitFor';

/** The honest player keeps at least this share of its state rate, both ways (bench target). */
export const FORGER_TARGET = 0.8;

export interface ForgerOptions {
  /** Forged datagrams per second (default 2000). */
  rate?: number;
  /** How long the attack lasts (default 3 s): rate × seconds datagrams. */
  seconds?: number;
  /** Honest states measured before the attack (default 40, two seconds at 20 Hz). */
  baseline?: number;
}

export interface ForgerResult {
  /** States per second the victim got from the other player, and the other from the victim, before and during the attack. */
  victimGets: { before: number; during: number };
  otherGets: { before: number; during: number };
  forged: { wrongToken: number; noToken: number; garbage: number };
  /** Forged datagrams sent per second, as measured. */
  sendRate: number;
  attackSeconds: number;
  /** The gameserver's drops by reason during the attack (status.json). */
  drops: Record<string, number>;
  /** Players still seated after the attack. */
  players: number;
}

const status = async (game: ServerProcess) => (await (await fetch(`http://127.0.0.1:${game.http}/status.json`, { signal: AbortSignal.timeout(2000) })).json()) as { drops: Record<string, number>; players: unknown[] };

/** Forgeries with the victim's slot: wrong tokens (most), no token, garbage bytes; `kinds[i]` says which. */
function forgeries(victim: GameClient, n: number): { bytes: Uint8Array[]; kinds: ('wrongToken' | 'noToken' | 'garbage')[] } {
  const bytes: Uint8Array[] = [];
  const kinds: ('wrongToken' | 'noToken' | 'garbage')[] = [];
  for (let i = 0; i < n; i++) {
    const kind = i % 10 === 8 ? 'noToken' : i % 10 === 9 ? 'garbage' : 'wrongToken';
    const packet: Packet = {
      header: { type: PacketType.GameState, senderSlot: victim.slot, messageId: 1_000_000 + i, gameTime: 0, joined: true, state: shipAt({ x: 5000, y: 0, z: 0 }) },
      events: [],
    };
    if (kind === 'wrongToken') packet.header.token = (victim.token ^ (1 + i * 2654435761)) >>> 0;
    bytes.push(kind === 'garbage' ? randomBytes(1 + (i % 120)) : encodePacket(packet));
    kinds.push(kind);
  }
  return { bytes, kinds };
}

/** Sends `bytes` round-robin from `victim`'s socket at `rate` per second until `total` are out; resolves with the kinds sent. */
async function fire(victim: GameClient, port: number, set: ReturnType<typeof forgeries>, rate: number, total: number): Promise<ForgerResult['forged']> {
  const sent = { wrongToken: 0, noToken: 0, garbage: 0 };
  const t0 = performance.now();
  let n = 0;
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * rate));
      for (; n < due; n++) {
        const k = n % set.bytes.length;
        victim.udp.send(set.bytes[k] as Uint8Array, port, victim.host);
        sent[set.kinds[k] as keyof typeof sent] += 1;
      }
      if (n >= total) {
        clearInterval(tick);
        resolve();
      }
    }, 5);
  });
  return sent;
}

/** Two honest players on `game`; the first is the victim. Closes its players before it returns. */
export async function runForger(game: ServerProcess, o: ForgerOptions = {}): Promise<ForgerResult> {
  const rate = o.rate ?? 2000;
  const total = Math.round(rate * (o.seconds ?? 3));
  const players = await HonestPlayers.join(game.tcp, 2);
  try {
    const [victim] = players.clients as [GameClient, GameClient];
    const before = await players.window(() => players.more(0, 1, o.baseline ?? 40));
    const set = forgeries(victim, 200);
    const dropsBefore = (await status(game)).drops;
    let forged = { wrongToken: 0, noToken: 0, garbage: 0 };
    const during = await players.window(async () => (forged = await fire(victim, game.udp as number, set, rate, total)));
    // The server reads the last forgeries a moment after they are sent: wait until it has counted them all (or give up and report).
    const sum = (d: Record<string, number>) => Object.values(d).reduce((a, b) => a + b, 0);
    await waitFor('the gameserver to count the forgeries', async () => sum((await status(game)).drops) - sum(dropsBefore) >= total, 5000).catch(() => undefined);
    const after = await status(game);
    const drops: Record<string, number> = {};
    for (const [k, v] of Object.entries(after.drops)) if (v !== (dropsBefore[k] ?? 0)) drops[k] = v - (dropsBefore[k] ?? 0);
    return {
      victimGets: { before: rateOf(before, 0, 1), during: rateOf(during, 0, 1) },
      otherGets: { before: rateOf(before, 1, 0), during: rateOf(during, 1, 0) },
      forged,
      sendRate: total / during.seconds,
      attackSeconds: during.seconds,
      drops,
      players: after.players.length,
    };
  } finally {
    players.close();
  }
}

const pct = (during: number, before: number) => `${before > 0 ? Math.round((100 * during) / before) : 0}%`;

/** The forger's figures against the target, for the bench and the test's log. */
export function describeForger(r: ForgerResult): string {
  const share = Math.min(r.victimGets.during / r.victimGets.before, r.otherGets.during / r.otherGets.before);
  return [
    `one-address forger: ${r.forged.wrongToken + r.forged.noToken + r.forged.garbage} datagrams from the victim's address and port in ${r.attackSeconds.toFixed(1)} s (${Math.round(r.sendRate)}/s: ${r.forged.wrongToken} wrong token, ${r.forged.noToken} no token, ${r.forged.garbage} garbage)`,
    `  victim gets ${r.victimGets.before.toFixed(1)} → ${r.victimGets.during.toFixed(1)} states/s (${pct(r.victimGets.during, r.victimGets.before)}), its states reach the other ${r.otherGets.before.toFixed(1)} → ${r.otherGets.during.toFixed(1)}/s (${pct(r.otherGets.during, r.otherGets.before)}); target ≥${Math.round(FORGER_TARGET * 100)}%: ${share >= FORGER_TARGET ? 'met' : 'MISSED'}`,
    `  gameserver drops during the attack: ${JSON.stringify(r.drops)}; ${r.players} players seated after it`,
  ].join('\n');
}
