/**
 * The state transfers of one lockstep peer: the one it sends as the leader
 * (its chunks, and when each member last got them, so a member that has not
 * taken it gets it again) and the ones it receives (one assembly per
 * sender). What a complete transfer means for the game is the engine's
 * business.
 */
import type { LockstepStateEvent } from '../wire/types';
import type { World } from '../game/types';
import { readTransfer, TransferAssembly, transferChunks, type StatePacker, type TransferContent } from './stateTransfer';

export class Transfers {
  private outgoing: { epoch: number; chunks: LockstepStateEvent[]; sentAt: Map<number, number> } | null = null;
  private readonly assemblies = new Map<number, TransferAssembly>();

  constructor(
    private readonly packer: StatePacker,
    private readonly send: (slot: number, chunk: LockstepStateEvent) => void,
  ) {}

  /**
   * As the leader: `world` (with our recent frame hashes) as transfer
   * `epoch`, sent to every slot of `to` at once. Returns its size, or null
   * when it is too large to send.
   */
  start(world: World, hashes: { from: number; hashes: number[] }, epoch: number, to: readonly number[], now: number): { bytes: number; chunks: number } | null {
    const chunks = transferChunks({ world, hashesFrom: hashes.from, hashes: hashes.hashes }, epoch, this.packer);
    if (!chunks) return null;
    this.outgoing = { epoch, chunks, sentAt: new Map() };
    for (const slot of to) this.sendTo(slot, now);
    return { bytes: chunks.reduce((n, c) => n + c.data.length, 0), chunks: chunks.length };
  }

  /** Sends the current transfer again to each slot of `behind` not sent it within `everyMs`. */
  resend(behind: readonly number[], everyMs: number, now: number): void {
    const out = this.outgoing;
    if (!out) return;
    for (const slot of behind) if (now - (out.sentAt.get(slot) ?? -Infinity) >= everyMs) this.sendTo(slot, now);
  }

  /** The epoch of the transfer we send, or null. */
  get sending(): number | null {
    return this.outgoing?.epoch ?? null;
  }

  /** Whether transfer `epoch` went to anyone within `everyMs`. */
  sentWithin(epoch: number, everyMs: number, now: number): boolean {
    const out = this.outgoing;
    if (!out || out.epoch !== epoch) return false;
    for (const at of out.sentAt.values()) if (now - at < everyMs) return true;
    return false;
  }

  private sendTo(slot: number, now: number): void {
    const out = this.outgoing;
    if (!out) return;
    out.sentAt.set(slot, now);
    for (const c of out.chunks) this.send(slot, c);
  }

  /**
   * A chunk from `slot`: null until its transfer is complete; then its
   * content, or why it is refused. `wanted(epoch)` decides, before any
   * unpacking, whether a complete transfer is worth reading.
   */
  receive(slot: number, chunk: LockstepStateEvent, wanted: (epoch: number) => boolean): { epoch: number; chunks: number; read: ReturnType<typeof readTransfer> } | null {
    let assembly = this.assemblies.get(slot);
    if (!assembly) {
      assembly = new TransferAssembly();
      this.assemblies.set(slot, assembly);
    }
    const done = assembly.add({ key: chunk.epoch, frame: chunk.frame, index: chunk.index, count: chunk.count, data: chunk.data });
    if (!done || !wanted(done.key)) return null;
    return { epoch: done.key, chunks: chunk.count, read: readTransfer(done.packed, done.frame, this.packer) };
  }

  /** We took another's transfer: ours is over. */
  stopSending(): void {
    this.outgoing = null;
  }

  /** `slot` left: its half-received transfer goes. */
  forget(slot: number): void {
    this.assemblies.delete(slot);
  }

  clear(): void {
    this.outgoing = null;
    this.assemblies.clear();
  }
}

export type { TransferContent };
