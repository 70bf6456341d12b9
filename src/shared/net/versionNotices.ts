/**
 * A peer whose game datagrams carry another wire-format version cannot play
 * with us; the decoder drops them as `bad-version`. This turns those drops
 * into one console line per peer ("<address> runs Starlane wire version n,
 * this game speaks m"), repeated at most once a minute while it keeps
 * sending, so a player learns why a neighbour's game never shows up without
 * a line per packet. Pure: the caller gives the time.
 */
import { wireVersionOf } from '../wire/codec';
import { WIRE_VERSION } from '../wire/types';

/** How long one peer stays quiet after its line (ms). */
export const VERSION_NOTICE_INTERVAL_MS = 60_000;
/** Most peers remembered at once; beyond that (a flood of forged sources) new ones get no line, only the drop counter. */
export const VERSION_NOTICE_MAX_PEERS = 256;

export class VersionNotices {
  /** Peer (address text) → when its last line was given. */
  private readonly told = new Map<string, number>();

  constructor(
    private readonly intervalMs = VERSION_NOTICE_INTERVAL_MS,
    private readonly maxPeers = VERSION_NOTICE_MAX_PEERS,
  ) {}

  /**
   * For a datagram from `who` (its address as text) that the decoder
   * refused as `bad-version`, received at `now` (ms): the console line to
   * print, or null when `who` was told about less than the interval ago (or
   * the datagram names no version, or too many peers are remembered).
   */
  line(who: string, data: Uint8Array, now: number): string | null {
    const version = wireVersionOf(data);
    if (version === null || version === WIRE_VERSION) return null;
    const at = this.told.get(who);
    if (at !== undefined && now - at < this.intervalMs) return null;
    if (at === undefined && this.told.size >= this.maxPeers) {
      for (const [peer, t] of this.told) if (now - t >= this.intervalMs) this.told.delete(peer);
      if (this.told.size >= this.maxPeers) return null;
    }
    this.told.set(who, now);
    return `${who} runs Starlane wire version ${version}, this game speaks ${WIRE_VERSION}: the two cannot play together (its packets are ignored)`;
  }
}
