/**
 * `practice [bots] [skill]`: what the menu's Practice button runs — leave any
 * network game for the offline one, send the bots already there home, bring
 * `bots` computer pilots of `skill` (0 bots: fly alone) and close the menu.
 * The match limits are the killlimit and timelimit cvars, set before.
 */
import { DEFAULT_SKILL } from '../../shared/game/pilots/skill';
import { addBots, kickBots } from './botCommands';
import type { ConsoleOutput } from '../../shared/console/registry';
import type { HostService } from './hostService';
import { protocolReport } from './protocolSwitch';
import { rebind } from './subsystemCommand';

export const DEFAULT_PRACTICE_BOTS = 2;

/** Leaves any network game for the offline one; false when the switch failed (said in `out`). */
export async function goOffline(host: HostService, out: ConsoleOutput): Promise<boolean> {
  const protocol = host.subsystems.protocol;
  if (protocol.bound() === 'offline') return true;
  return (await rebind(host, protocol, protocolReport(host), 'offline', out)).ok;
}

/** Registers `practice` and `leave`; returns a function that removes them. */
export function registerPracticeCommand(host: HostService): () => void {
  const removeLeave = host.console.addCommand({
    name: 'leave',
    help: 'leave the game you are in (a network game, or practice with its bots) for the main menu',
    args: { max: 0 },
    run: async (_args, out) => {
      const game = host.game;
      if (!game) return out.print('leave: the game is not running', 'error');
      game.stopDemo();
      if (!(await goOffline(host, out))) return;
      if (game.game.bots.length > 0) kickBots(game, ['all'], out);
      host.setMenu({ page: 'main', dialog: null });
    },
  });
  const removePractice = host.console.addCommand({
    name: 'practice',
    help: `practise offline against computer pilots (default ${DEFAULT_PRACTICE_BOTS} of skill ${DEFAULT_SKILL}; 0 flies alone): leaves any network game and closes the menu`,
    usage: '[bots] [skill]',
    args: { max: 2 },
    run: async (args, out) => {
      const game = host.game;
      if (!game) return out.print('practice: the game is not running', 'error');
      const [bots = String(DEFAULT_PRACTICE_BOTS), skill = String(DEFAULT_SKILL)] = args;
      if (!/^[0-9]{1,2}$/.test(bots)) return out.print(`practice: the number of bots must be a whole number (got "${bots}") — usage: practice [bots] [skill]`, 'error');
      game.stopDemo();
      if (!(await goOffline(host, out))) return;
      if (game.game.bots.length > 0) kickBots(game, ['all'], out);
      if (bots !== '0') addBots(host, game, [bots, skill], out);
      else out.print('practice: flying alone (practice 2 brings two computer pilots)');
      host.setMenu({ page: 'off', dialog: null });
    },
  });
  return () => {
    removeLeave();
    removePractice();
  };
}
