/**
 * Binding one `node:dgram` socket for the dgram packet APIs: the options a
 * bind takes (a client's, and what a server adds), one bind attempt that
 * cleans up after itself on failure, and waiting until a closed socket's
 * handle is really gone.
 */
import dgram from 'node:dgram';
import dns from 'node:dns';
import { isIP } from 'node:net';
import type { PacketApiOptions } from '../../shared/net/packetApi';
import type { DgramFamily } from './dgramNode';

/**
 * What a server asks of the same socket code beyond a client's options:
 * exactly its port (a server's port is its address; no fallback), a dual-stack
 * `::` socket that also hears IPv4, a larger kernel receive buffer, and every
 * datagram handed to it whatever its size (it counts and holds oversized ones
 * against their source itself).
 */
export interface DgramInitOptions extends PacketApiOptions {
  exactPort?: boolean;
  dualStack?: boolean;
  recvBufferBytes?: number;
  receiveOversize?: boolean;
  /** Largest datagram `send` takes (default MAX_DATAGRAM_BYTES; a gameserver's socket: MAX_RELAY_BYTES, for its Relays). */
  maxSendBytes?: number;
}

/** The `code` of a Node system error, if it has one. */
export function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

/** Yields until libuv has run its close callbacks, so a closed socket's handle is really gone. */
export async function drainCloseCallbacks(): Promise<void> {
  // A socket's 'close' event fires before libuv finishes closing the handle;
  // the handle disappears in the loop's close phase, which two check-phase
  // turns are guaranteed to straddle.
  for (let i = 0; i < 2; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * dgram's address lookup for every send: an address literal (all the packet APIs send to) is answered at once,
 * so the send happens inside `send()`; dgram's default (dns.lookup) answers even a literal a tick later, an
 * extra queued callback per datagram. Anything else still goes to dns.lookup.
 */
export const literalLookup: NonNullable<dgram.SocketOptions['lookup']> = (hostname, options, callback) => {
  const family = isIP(hostname);
  if (family !== 0) callback(null, hostname, family);
  else dns.lookup(hostname, options, callback);
};

/** Binds a socket of `family` on `address:port`; the socket, or the error (its handle already closed). */
export function bindDgramSocket(family: DgramFamily, port: number, address: string, dualStack: boolean): Promise<dgram.Socket | Error> {
  const socket = dgram.createSocket({ type: family, ipv6Only: family === 'udp6' && !dualStack, reuseAddr: false, lookup: literalLookup });
  return new Promise((resolve) => {
    const onError = (err: Error): void => {
      socket.off('listening', onListening);
      // The failed socket still holds a handle; close it before trying the next port.
      socket.close(() => {
        socket.removeAllListeners();
        void drainCloseCallbacks().then(() => resolve(err));
      });
    };
    const onListening = (): void => {
      socket.off('error', onError);
      resolve(socket);
    };
    socket.once('error', onError);
    socket.once('listening', onListening);
    socket.bind({ port, address, exclusive: true });
  });
}
