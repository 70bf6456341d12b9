/**
 * Listening on a TCP port for every server (the line servers, the status
 * pages), with a taken port reported as a {@link PortInUseError}.
 */
import type { Server } from 'node:net';
import { isAddressInUse, PortInUseError, type PortRole } from './portInUse';

/**
 * Starts `server` (TCP or HTTP) listening on `host:port` and resolves with
 * the port it got (useful with port 0); rejects with the listen error (bad
 * address) instead of emitting it, or with a {@link PortInUseError} for the
 * server's `role` port when another program holds it.
 */
export async function listen(server: Server, port: number, host = '0.0.0.0', role: PortRole = 'TCP'): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    const fail = (err: Error) => reject(isAddressInUse(err) ? new PortInUseError(role, port, host) : err);
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolve();
    });
  });
  const address = server.address();
  return typeof address === 'object' && address ? address.port : port;
}
