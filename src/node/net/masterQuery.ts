/**
 * Asks a masterserver which servers it lists (the `list servers` extension
 * of the masterserver protocol). Distrusts the answer: only well-formed
 * `server:` lines count, at most 256 of them, within a time limit.
 */
import { END_OF_LIST, LIST_SERVERS, parseListedServer, type ListedServer } from '../../shared/servers/masterProtocol';
import { ServerLink } from '../protocol/serverLink';

const MAX_LISTED = 256;

export function queryMaster(host: string, port: number, timeoutMs = 3000): Promise<ListedServer[]> {
  return new Promise((resolve, reject) => {
    const found: ListedServer[] = [];
    let done = false;
    const finish = (error?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      link.close();
      if (error) reject(new Error(error));
      else resolve(found);
    };
    const link = new ServerLink({
      connected: () => link.send(LIST_SERVERS),
      line: (line) => {
        if (line === END_OF_LIST) return finish();
        const server = parseListedServer(line);
        if (server && found.length < MAX_LISTED) found.push(server);
      },
      closed: (error) => finish(error ?? 'the masterserver closed the connection before the end of the list'),
    });
    const timer = setTimeout(() => finish(`no complete answer from the masterserver at ${host}:${port} within ${timeoutMs / 1000} s`), timeoutMs);
    link.open(host, port, timeoutMs);
  });
}
