/**
 * The one order of every server list a player numbers (`servers`, `servers
 * lan`, and whatever shows them later): by name (case and accents aside),
 * then kind, then address. Answers arrive in whatever order the network
 * brings them and a masterserver lists in registration order; sorted, the
 * same servers get the same numbers each time, so `connect 2` means the
 * server the player saw as 2.
 */

/** What a listed server is sorted by. */
export interface Listed {
  name: string;
  /** slotserver, gameserver, netgame (null or absent when not known). */
  kind?: string | null;
  /** Where it is, as `connect` takes it. */
  address: string;
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Compares two listed servers: name, then kind, then address. */
export function compareListed(a: Listed, b: Listed): number {
  return collator.compare(a.name, b.name) || collator.compare(a.kind ?? '', b.kind ?? '') || collator.compare(a.address, b.address);
}

/** `servers` sorted into list order (a new array). */
export function inListOrder<T>(servers: readonly T[], key: (s: T) => Listed): T[] {
  return servers.map((s) => ({ s, k: key(s) })).sort((x, y) => compareListed(x.k, y.k)).map((x) => x.s);
}
