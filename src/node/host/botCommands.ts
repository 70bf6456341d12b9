/**
 * Offline practice: `bot add [n] [skill]` puts n computer pilots (hunt
 * pilots of skill 1–5, see src/shared/game/pilots/skill.ts) into the offline
 * game — far from the player, weapons cold for a few seconds, the first of
 * them starting a match (ClientGame.addBot) — `bot kick [all]` sends the last one added (or all of them) home, and
 * `bot` alone lists them. Bots fly only offline: in a network game `bot add`
 * says so and adds none.
 */
import type { ConsoleOutput } from '../../shared/console/registry';
import { DEFAULT_SKILL, isSkill, MAX_SKILL, MIN_SKILL } from '../../shared/game/pilots/skill';
import { MAX_SLOTS } from '../../shared/wire/types';
import { JOIN_DISTANCE } from '../../shared/game/spawnPoint';
import { RULES } from '../../shared/game/rules';
import { TICK_HZ } from '../../shared/sim/types';
import type { HostGame } from './hostGame';
import type { HostService } from './hostService';

const USAGE = 'bot [add [n] [skill] | kick [all] | list]';
const OFFLINE_ONLY = 'computer pilots fly only in the offline game: disconnect (or protocol offline) first';

/** Registers the `bot` command. Returns a function that removes it. */
export function registerBotCommands(host: HostService): () => void {
  return host.console.addCommand({
    name: 'bot',
    help: `offline practice: add computer pilots (skill ${MIN_SKILL}–${MAX_SKILL}, default ${DEFAULT_SKILL}), kick them, or list them`,
    usage: '[add [n] [skill] | kick [all] | list]',
    args: { max: 3 },
    complete: (args, argIndex) => (argIndex === 0 ? ['add', 'kick', 'list'] : argIndex === 1 && args[0] === 'kick' ? ['all'] : []),
    run: (args, out) => {
      const game = host.game;
      if (!game) return out.print('bot: the game is not running', 'error');
      const [sub = 'list', ...rest] = args;
      if (sub === 'add') return addBots(host, game, rest, out);
      if (sub === 'kick') return kickBots(game, rest, out);
      if (sub === 'list' && rest.length === 0) return list(game, out);
      out.print(`bot: unknown argument "${args.join(' ')}" — usage: ${USAGE}`, 'error');
    },
  });
}

/** Whether the host is in a network game (connected, or holding a network slot). */
function online(host: HostService): boolean {
  const protocol = host.subsystems.protocol;
  return protocol.bound() !== null && (protocol.table.connection?.() ?? null) !== null;
}

/** A whole number from `lo` to `hi`, or null. */
function whole(text: string, lo: number, hi: number): number | null {
  if (!/^[0-9]{1,3}$/.test(text)) return null;
  const n = Number(text);
  return n >= lo && n <= hi ? n : null;
}

/** `bot add [n] [skill]` (args after `add`). */
export function addBots(host: HostService, hostGame: HostGame, args: string[], out: ConsoleOutput): void {
  const game = hostGame.game;
  if (online(host)) return out.print(`bot add: you are in a network game; ${OFFLINE_ONLY}`, 'warn');
  const room = MAX_SLOTS - 1;
  const n = args[0] === undefined ? 1 : whole(args[0], 1, room);
  if (n === null) return out.print(`bot add: the number of bots must be a whole number from 1 to ${room} (got "${args[0]}") — usage: bot add [n] [skill]`, 'error');
  const skill = args[1] === undefined ? DEFAULT_SKILL : Number(args[1]);
  if (!/^[0-9]$/.test(args[1] ?? String(DEFAULT_SKILL)) || !isSkill(skill)) {
    return out.print(`bot add: skill must be a whole number from ${MIN_SKILL} (lasers only, slow, poor aim) to ${MAX_SKILL} (every weapon, quick, tight aim) (got "${args[1]}")`, 'error');
  }
  const added: number[] = [];
  const round = game.curr.match.round;
  for (let i = 0; i < n; i++) {
    const slot = game.addBot();
    if (slot === null) break;
    hostGame.crew.add(slot, skill);
    added.push(slot);
  }
  if (added.length === 0) {
    // Offline and still refused: the world is full, or the game holds a network slot (joining one).
    const full = game.curr.ships.length >= MAX_SLOTS;
    return out.print(full ? `bot add: every slot is taken (${MAX_SLOTS} ships); bot kick makes room` : `bot add: the game is online; ${OFFLINE_ONLY}`, 'warn');
  }
  const who = added.map((s) => `slot ${s}`).join(', ');
  const short = added.length < n ? ` — only ${added.length} of ${n}: every slot is taken` : '';
  out.print(`${added.length} bot${added.length === 1 ? '' : 's'} of skill ${skill} joined (${who})${short}; ${game.bots.length} flying, bot kick sends the last one home`);
  const match = game.curr.match.round !== round ? '; a new match begins' : '';
  out.print(`${added.length === 1 ? 'it comes' : 'they come'} in ${JOIN_DISTANCE} units away, weapons ready in ${RULES.joinGraceTicks / TICK_HZ} s${match}`);
}

/** `bot kick [all]` (args after `kick`). */
export function kickBots(hostGame: HostGame, args: string[], out: ConsoleOutput): void {
  const game = hostGame.game;
  if (args.length > 1 || (args[0] !== undefined && args[0] !== 'all')) return out.print(`bot kick: unknown argument "${args.join(' ')}" — type bot kick (the last bot added) or bot kick all`, 'error');
  if (game.bots.length === 0) return out.print('bot kick: there are no bots (bot add [n] [skill] adds some)', 'warn');
  const all = args[0] === 'all';
  const kicked: number[] = [];
  do {
    const slot = hostGame.crew.lastAdded(game.bots) ?? game.bots[game.bots.length - 1]!;
    if (game.removeBot(slot) === null) break;
    hostGame.crew.remove(slot);
    kicked.push(slot);
  } while (all && game.bots.length > 0);
  out.print(`kicked the bot${kicked.length === 1 ? '' : 's'} of ${kicked.map((s) => `slot ${s}`).join(', ')}; ${game.bots.length} left`);
}

function list(hostGame: HostGame, out: ConsoleOutput): void {
  const game = hostGame.game;
  if (game.bots.length === 0) return out.print('no bots; bot add [n] [skill] adds computer pilots to the offline game (skill 1–5)');
  for (const slot of game.bots) {
    const score = game.curr.scores.find((s) => s.slot === slot);
    const ship = game.curr.ships.find((s) => s.slot === slot);
    const state = !ship ? 'gone' : ship.respawnIn > 0 ? 'destroyed' : `hull ${Math.round(100 - ship.damage)} %`;
    out.print(`slot ${slot}  skill ${hostGame.crew.skillOf(slot) ?? DEFAULT_SKILL}  kills ${score?.kills ?? 0}  deaths ${score?.deaths ?? 0}  ${state}`);
  }
}
