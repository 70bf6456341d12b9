/**
 * Bots (serverBot) for tests that stop them with SIGSTOP: after each test
 * every bot still running is continued and killed, so none is left stopped,
 * and the servers of serverProcess.ts are stopped.
 */
import { afterEach } from 'vitest';
import { BotWatch, serverBot } from './botProcess';
import { stopServers } from './serverProcess';

/** Returns a maker of `protocol` bots, each ended after its test. */
export function stoppableBots(protocol: 'slotserver' | 'gameserver' | 'netgame'): (name: string, server: string, seed: number) => BotWatch {
  const bots: BotWatch[] = [];
  afterEach(() => {
    for (const b of bots.splice(0)) {
      if (b.child.exitCode !== null) continue;
      b.child.kill('SIGCONT');
      b.child.kill('SIGKILL');
    }
    stopServers();
  });
  return (name, server, seed) => {
    const watch = serverBot(protocol, name, server, seed);
    bots.push(watch);
    return watch;
  };
}
