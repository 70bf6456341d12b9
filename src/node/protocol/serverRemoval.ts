/**
 * Why the server removed us. A server that removes a player says why in a
 * text line, `removed: <why>`, just before `removing you` (joinServer.ts):
 * a kick for bad data, a silence timeout, a netgame client fallen too far
 * behind. The join machine (serverClient.ts) keeps that reason here until
 * it knows how the game ends: when the server removed us it goes into the
 * line that ends the game (and so into the dialog), otherwise — a rejoin
 * after a stall, our own leaving, a server closing, a link that closed first
 * — it is printed as the server sent it.
 */

const REMOVED_PREFIX = 'removed: ';

export class ServerRemoval {
  private why: string | null = null;

  constructor(
    /** The protocol's name (`gameserver`, `netgame`, …), as the console shows server lines. */
    private readonly kind: string,
    private readonly print: (line: string) => void,
  ) {}

  /** A text line from the server: true when it gives the reason of our removal (kept, not printed yet). */
  heard(line: string): boolean {
    if (!line.startsWith(REMOVED_PREFIX) || line.length === REMOVED_PREFIX.length) return false;
    this.flush();
    this.why = line.slice(REMOVED_PREFIX.length);
    return true;
  }

  /** The reason kept, for the line that ends the game (null: none came); forgotten here. */
  take(): string | null {
    const why = this.why;
    this.why = null;
    return why;
  }

  /** The game ends some other way: a reason kept is printed as the server sent it. */
  flush(): void {
    const why = this.take();
    if (why !== null) this.print(`${this.kind}: ${REMOVED_PREFIX}${why}`);
  }
}
