/**
 * The console commands a connected protocol brings: connect, disconnect,
 * join, unjoin, say, players. They exist while the protocol is bound and go
 * with it (the protocol adds them in init and removes them in kill).
 */
import type { CommandDef } from '../../shared/console/registry';
import { MAX_TEXT_BYTES } from '../../shared/wire/types';

export interface ProtocolActions {
  /** Each returns one line for the console, or null when the action prints its own outcome. */
  connect(target?: string): string | null;
  disconnect(): string | null;
  join(): string | null;
  unjoin(): string | null;
  say(text: string): string | null;
  players(): string[];
}

/** Checks chat text: printable, within the wire limit. Returns a reason or null. */
export function chatProblem(text: string): string | null {
  if (text.length === 0) return 'nothing to say';
  if (/[\u0000-\u001f\u007f-\u009f]/.test(text)) return 'chat text may not contain control characters';
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_TEXT_BYTES) return `chat text is too long (${bytes} bytes, limit ${MAX_TEXT_BYTES})`;
  return null;
}

export function protocolCommands(act: ProtocolActions, connectHelp = 'connect to a game (p2p: find or start one on the LAN)'): CommandDef[] {
  const line = (out: { print(t: string, l?: 'info' | 'warn' | 'error'): void }, text: string | null) => {
    if (text !== null) out.print(text);
  };
  return [
    {
      name: 'connect',
      help: connectHelp,
      usage: '[host[:port] | n]',
      args: { max: 1 },
      run: (args, out) => line(out, act.connect(args[0])),
    },
    { name: 'disconnect', help: 'leave the game and free your slot', args: { max: 0 }, run: (_a, out) => line(out, act.disconnect()) },
    { name: 'join', help: 'enter the game with your ship (after connect)', args: { max: 0 }, run: (_a, out) => line(out, act.join()) },
    { name: 'unjoin', help: 'leave the game but keep your slot', args: { max: 0 }, run: (_a, out) => line(out, act.unjoin()) },
    {
      name: 'say',
      help: 'send a chat line to every player (plain text typed in the console does the same)',
      usage: '<text>',
      args: { min: 1 },
      run: (args, out) => {
        const text = args.join(' ').trim();
        const problem = chatProblem(text);
        if (problem) out.print(`say: ${problem}`, 'error');
        else line(out, act.say(text));
      },
    },
    {
      name: 'players',
      help: 'list the players: slot, name, address, state',
      args: { max: 0 },
      run: (_a, out) => act.players().forEach((l) => out.print(l)),
    },
  ];
}
