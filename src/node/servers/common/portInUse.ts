/**
 * A port a server wanted that another program holds (EADDRINUSE). The
 * socket code (listen.ts, serverUdp.ts) says which of a server's ports it was
 * — the TCP port players or servers connect to, the UDP port, or the status
 * page's HTTP port — and the command line (cli.ts) names the option that
 * changes it, so an admin reads one line that says what to do:
 * `gameserver: TCP port 6581 is in use (change it with --port)`.
 */

/** Which of a server's ports: its TCP protocol port, its UDP port, or its status page. */
export type PortRole = 'TCP' | 'UDP' | 'HTTP';

/** `on <host>` when the server was told to listen on one address; nothing for every interface. */
function onHost(host: string): string {
  return host === '0.0.0.0' || host === '::' ? '' : ` on ${host}`;
}

/** `TCP port 6581 is in use`, `UDP port 6522 on 127.0.0.1 is in use`. */
function inUse(role: PortRole, port: number, host: string): string {
  return `${role} port ${port}${onHost(host)} is in use`;
}

/** A bind or listen that failed because the port is taken; `what` (e.g. `gameserver`) starts the message when given. */
export class PortInUseError extends Error {
  constructor(
    readonly role: PortRole,
    readonly port: number,
    readonly host: string,
    what?: string,
  ) {
    super(`${what ? `${what}: ` : ''}${inUse(role, port, host)}`);
    this.name = 'PortInUseError';
  }
}

/** Whether `err` is Node's "address already in use". */
export function isAddressInUse(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'EADDRINUSE';
}

/**
 * The line an admin reads for a failed start of server `kind`: a taken port
 * names the option that changes it (`options` maps each role to its
 * option); any other error is returned as it is.
 */
export function explainPortInUse(kind: string, err: unknown, options: Readonly<Partial<Record<PortRole, string>>>): unknown {
  if (!(err instanceof PortInUseError)) return err;
  const option = options[err.role];
  return new Error(`${kind}: ${inUse(err.role, err.port, err.host)}${option ? ` (change it with ${option})` : ''}`);
}
