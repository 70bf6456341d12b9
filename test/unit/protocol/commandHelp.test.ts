import { describe, expect, it } from 'vitest';
import { ConsoleCore, type ConsoleOutput } from '../../../src/shared/console/registry';
import { protocolCommands, type ProtocolActions } from '../../../src/node/protocol/p2pCommands';

const actions: ProtocolActions = {
  connect: () => null,
  disconnect: () => null,
  join: () => null,
  unjoin: () => null,
  say: () => null,
  players: () => [],
};

async function run(core: ConsoleCore, line: string): Promise<string[]> {
  const lines: string[] = [];
  const out: ConsoleOutput = { print: (text) => void lines.push(text) };
  await core.execute(line, out);
  return lines;
}

describe('help of the commands a protocol brings', () => {
  it('help connect prints "usage: connect …" with the name once and says what n is', async () => {
    const core = new ConsoleCore();
    for (const def of protocolCommands(actions)) core.addCommand(def);
    const lines = await run(core, 'help connect');
    expect(lines[0]).toBe('usage: connect [host[:port] | n]');
  });

  it('no command synopsis repeats the command name', () => {
    for (const def of protocolCommands(actions)) {
      expect(def.usage?.split(/\s+/)[0]?.toLowerCase(), def.name).not.toBe(def.name);
    }
  });
});
