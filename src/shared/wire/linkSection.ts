/**
 * The link section (wire v11): a datagram's acknowledgements and reliable
 * messages (src/shared/net/reliable.ts), the last optional part of the
 * header (flags bit 6, after the frame inputs), before the event list:
 *
 *   [link byte u8]  bits 0..4: acknowledged ids (0..MAX_ACK_IDS),
 *                   bit 5: a relay acknowledgement follows (wire v14),
 *                   bit 6: reliable messages follow,
 *                   bit 7: a state acknowledgement follows (wire v13)
 *   [state ack u16]                                   (only with bit 7)
 *   [newest relay u16][relays before it u32]          (only with bit 5)
 *   [id u16] × acknowledged ids                       (only when some)
 *   [count u8 1..MAX_LINK_MESSAGES]                   (only with bit 6)
 *   [id u16][world event: type u8, length u16, body] × count
 *
 * One canonical encoding: a section is present only when it holds
 * something, each part only when non-empty (the encoder refuses an empty
 * section or part; the decoder drops one as `bad-link`). A message's event
 * is one of RELIABLE_EVENT_TYPES (else `bad-link-message`).
 */
import type { Codec } from './fields';
import { fail, refuse, WireEncodeError } from './stream';
import type { Reader, Sink } from './stream';
import { packetHeader, readHeader, type StateBase, type StateBases } from './header';
import { MAX_ACK_IDS, MAX_LINK_MESSAGES, RELIABLE_EVENT_TYPES } from './types';
import type { LinkSection, LinkedMessage, PacketHeader, ReliableGameEvent, RemoteEvent } from './types';

/** Link byte: bits 0..4 count the acknowledged ids. */
const ACK_COUNT_MASK = 0x1f;
/** Link byte: bit 5 = a relay acknowledgement (u16 newest, u32 mask) follows the state acknowledgement (wire v14). */
const RELAY_ACK_BIT = 0x20;
/** Bytes a relay acknowledgement adds. */
export const RELAY_ACK_SIZE = 6;
/** Link byte: bit 6 = reliable messages follow the ids. */
const MESSAGES_BIT = 0x40;
/** Link byte: bit 7 = a state acknowledgement (u16) follows the link byte (wire v13). */
const STATE_ACK_BIT = 0x80;
/** Bytes a state acknowledgement adds. */
export const STATE_ACK_SIZE = 2;
/** Bytes of the link byte. */
export const LINK_BYTE_SIZE = 1;
/** Bytes one acknowledged id adds. */
export const ACK_ID_SIZE = 2;
/** Bytes the message count adds (when there are messages). */
export const MESSAGE_COUNT_SIZE = 1;
/** Bytes a message adds besides its world event (type, length and body: eventSize): the id u16. */
export const MESSAGE_ID_SIZE = 2;

/** Bytes a link section takes, from what it holds: `acks` ids, `messages` messages of `messageBytes` bytes (each MESSAGE_ID_SIZE + eventSize) and a state acknowledgement or not. 0 when empty. */
export function linkSectionBytes(acks: number, messages: number, messageBytes: number, stateAck = false): number {
  if (acks === 0 && messages === 0 && !stateAck) return 0;
  return LINK_BYTE_SIZE + (stateAck ? STATE_ACK_SIZE : 0) + ACK_ID_SIZE * acks + (messages > 0 ? MESSAGE_COUNT_SIZE + messageBytes : 0);
}

/** How the section writes and reads one world event (the event-list codec's, which events.ts hands in: no import cycle). */
export interface InnerEventCodec {
  write(s: Sink, ev: RemoteEvent): void;
  readCode(r: Reader, code: number): RemoteEvent;
  /** The event type of a wire code, undefined for none. */
  typeOf(code: number): string | undefined;
}

function isReliableType(type: unknown): type is ReliableGameEvent['type'] {
  return (RELIABLE_EVENT_TYPES as readonly unknown[]).includes(type);
}

/** The link section's codec over `inner` (events.ts builds it). */
export function linkSectionCodec(inner: InnerEventCodec): Codec<LinkSection> {
  const writeMessage = (s: Sink, m: LinkedMessage): void => {
    if (typeof m !== 'object' || m === null) refuse(`${String(m)} is not a reliable message`);
    if (!Number.isInteger(m.id) || m.id < 0 || m.id > 0xffff) refuse(`id: ${String(m.id)} is not a u16`);
    const type = (m.event as { type?: unknown } | null)?.type;
    if (!isReliableType(type)) refuse(`${String(type)} cannot be sent as a reliable message`);
    s.u16(m.id);
    inner.write(s, m.event);
  };
  return {
    write(s, link) {
      if (typeof link !== 'object' || link === null) refuse(`${String(link)} is not a link section`);
      const { acks, messages, stateAck, relayAck } = link;
      if (acks !== undefined && (!Array.isArray(acks) || acks.length === 0 || acks.length > MAX_ACK_IDS)) refuse(`acks: an acknowledgement lists 1..${MAX_ACK_IDS} ids, not ${String(acks?.length ?? acks)}`);
      if (messages !== undefined && (!Array.isArray(messages) || messages.length === 0 || messages.length > MAX_LINK_MESSAGES)) refuse(`messages: a section carries 1..${MAX_LINK_MESSAGES} messages, not ${String(messages?.length ?? messages)}`);
      if (stateAck !== undefined && (!Number.isInteger(stateAck) || stateAck < 0 || stateAck > 0xffff)) refuse(`stateAck: ${String(stateAck)} is not a u16`);
      if (relayAck !== undefined) {
        if (typeof relayAck !== 'object' || relayAck === null) refuse(`relayAck: ${String(relayAck)} is not a relay acknowledgement`);
        if (!Number.isInteger(relayAck.newest) || relayAck.newest < 0 || relayAck.newest > 0xffff) refuse(`relayAck.newest: ${String(relayAck.newest)} is not a u16`);
        if (!Number.isInteger(relayAck.mask) || relayAck.mask < 0 || relayAck.mask > 0xffffffff) refuse(`relayAck.mask: ${String(relayAck.mask)} is not a u32`);
      }
      if (acks === undefined && messages === undefined && stateAck === undefined && relayAck === undefined) refuse('an empty link section is left out, not sent');
      const n = acks?.length ?? 0;
      s.u8(n | (relayAck !== undefined ? RELAY_ACK_BIT : 0) | (messages !== undefined ? MESSAGES_BIT : 0) | (stateAck !== undefined ? STATE_ACK_BIT : 0));
      if (stateAck !== undefined) s.u16(stateAck);
      if (relayAck !== undefined) {
        s.u16(relayAck.newest);
        s.u32(relayAck.mask);
      }
      acks?.forEach((id, i) => {
        if (!Number.isInteger(id) || id < 0 || id > 0xffff) refuse(`acks[${i}]: ${String(id)} is not a u16`);
        s.u16(id);
      });
      if (messages === undefined) return;
      s.u8(messages.length);
      messages.forEach((m, i) => {
        try {
          writeMessage(s, m);
        } catch (e) {
          throw e instanceof WireEncodeError ? e.within(`messages[${i}]`) : e;
        }
      });
    },
    read(r) {
      const lead = r.u8();
      const n = lead & ACK_COUNT_MASK;
      const hasMessages = (lead & MESSAGES_BIT) !== 0;
      const hasStateAck = (lead & STATE_ACK_BIT) !== 0;
      const hasRelayAck = (lead & RELAY_ACK_BIT) !== 0;
      // More ids than an acknowledgement lists, or nothing at all: not the one encoding.
      if (n > MAX_ACK_IDS || (n === 0 && !hasMessages && !hasStateAck && !hasRelayAck)) fail('bad-link');
      const link: LinkSection = {};
      if (hasStateAck) link.stateAck = r.u16();
      if (hasRelayAck) link.relayAck = { newest: r.u16(), mask: r.u32() };
      if (n > 0) {
        const acks: number[] = [];
        for (let i = 0; i < n; i++) acks.push(r.u16());
        link.acks = acks;
      }
      if (hasMessages) {
        const count = r.u8();
        if (count === 0 || count > MAX_LINK_MESSAGES) fail('bad-link');
        // Every message reads at least 6 bytes, so a hostile count ends at the datagram's end (`truncated`).
        const messages: LinkedMessage[] = [];
        for (let i = 0; i < count; i++) {
          const id = r.u16();
          const code = r.u8();
          if (!isReliableType(inner.typeOf(code))) fail('bad-link-message');
          messages.push({ id, event: inner.readCode(r, code) as ReliableGameEvent });
        }
        link.messages = messages;
      }
      return link;
    },
  };
}

/** A header and the link section it may end with; `base`: the ship state is written partial against it (only when encoding). */
export interface PacketHead {
  header: PacketHeader;
  link?: LinkSection;
  base?: StateBase;
}

/** The header codec with its link section; `read` completes a partial ship state from `bases`. */
export interface PacketHeadCodec extends Codec<PacketHead> {
  read(r: Reader, bases?: StateBases): PacketHead;
}

/** The header with its link section (flags bit 6): what a datagram, and a relayed one inside it, starts with. */
export function packetHeadCodec(section: Codec<LinkSection>): PacketHeadCodec {
  return {
    write(s, head) {
      packetHeader.write(s, head.header, head.link !== undefined, head.base);
      if (head.link === undefined) return;
      try {
        section.write(s, head.link);
      } catch (e) {
        throw e instanceof WireEncodeError ? e.within('link') : e;
      }
    },
    read(r, bases?: StateBases) {
      const { header, link } = readHeader(r, bases);
      return link ? { header, link: section.read(r) } : { header };
    },
  };
}
