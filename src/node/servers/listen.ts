import type { Server } from 'node:net';

/**
 * Starts `server` (TCP or HTTP) listening on `host:port` and resolves with
 * the port it got (useful with port 0); rejects with the listen error (port
 * in use, bad address) instead of emitting it.
 */
export async function listen(server: Server, port: number, host = '0.0.0.0'): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return typeof address === 'object' && address ? address.port : port;
}
