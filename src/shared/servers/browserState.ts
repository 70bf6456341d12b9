/**
 * The server browser as the host keeps it and a page draws it (issue 24):
 * the merged table (browserModel.ts), how far a refresh has got, what could
 * not be asked, and the last join that failed. Pure data.
 */
import type { BrowserRow } from './browserModel';
import type { MasterServerType } from './masterProtocol';

export interface BrowserState {
  /** `idle` before the first refresh, `asking` the masterserver and the LAN, `pinging` the listed servers, `done`. */
  status: 'idle' | 'asking' | 'pinging' | 'done';
  /** Pings answered or given up so far, of how many asked (0 of 0 outside `pinging`). */
  progress: { done: number; total: number };
  /** Why the masterserver's list is missing ('' when it answered or was not asked). */
  masterError: string;
  /** Why the LAN was not asked or could not be ('' when it was). */
  lanError: string;
  rows: BrowserRow[];
  /** The last join from the browser that failed: where, and why in words with what to do. */
  joinError: { address: string; reason: string } | null;
  /** The join the browser started (`servers join <kind> <address>`) while it is under way: null once the player is in the game, and after a refresh. */
  joining: { kind: MasterServerType; address: string; watch?: true } | null;
}

export function emptyBrowserState(): BrowserState {
  return { status: 'idle', progress: { done: 0, total: 0 }, masterError: '', lanError: '', rows: [], joinError: null, joining: null };
}
