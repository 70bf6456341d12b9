/**
 * Watching a game instead of playing it: `spectate [host[:port] | n]` takes
 * a spectator's seat at a gameserver (no slot, no ship), or in a p2p,
 * lockstep, slotserver or netgame game connects without joining; offline,
 * with an address, it switches to the gameserver protocol first. `camera`
 * steers the watch camera (watchCamera.ts): the own view, following a
 * player (next, previous or a slot) with its HUD, or the free camera flown
 * by the controls; while a demo plays it steers the demo's camera.
 */
import { NO_SLOT } from '../../shared/wire/types';
import { GAMESERVER_PROTOCOL } from '../protocol/gameserver';
import { OFFLINE_PROTOCOL } from '../protocol/offline';
import type { HostService } from './hostService';
import { protocolReport } from './protocolSwitch';
import { rebind } from './subsystemCommand';
import { WatchCamera } from '../../shared/game/watchCamera';

export function registerWatchCommands(host: HostService): void {
  host.console.addCommand({
    name: 'spectate',
    help: 'watch a game without playing: a spectator seat at a gameserver (offline, spectate host[:port] switches to the gameserver protocol); in a p2p, lockstep, slotserver or netgame game, connected but not joined',
    usage: '[host[:port] | n]',
    args: { max: 1 },
    run: async (args, out) => {
      const protocol = host.subsystems.protocol;
      const target = args[0];
      if (protocol.bound() === OFFLINE_PROTOCOL || protocol.bound() === null) {
        if (target === undefined) return out.print(`spectate: offline there is nothing to watch; spectate host[:port] watches a gameserver, or choose a protocol first (protocol p2p, slotserver, gameserver, netgame)`, 'error');
        const result = await rebind(host, protocol, protocolReport(host), GAMESERVER_PROTOCOL, out);
        if (!result.ok) return;
      }
      const line = protocol.table.spectate?.(target) ?? `spectate: the ${protocol.bound() ?? 'bound'} protocol cannot watch a game`;
      if (line !== null) out.print(line);
    },
  });

  host.console.addCommand({
    name: 'camera',
    help: 'while watching (spectate, connected but not joined, or a demo): own view, follow a player (next, prev or a slot) with its HUD, or free (flown by your controls)',
    usage: 'own | follow [next|prev|<slot>] | free',
    args: { min: 1, max: 2 },
    complete: () => ['own', 'follow', 'free'],
    run: (args, out) => {
      const game = host.game;
      const [what, which] = args;
      if (game?.demo) return host.console.execute(`demo camera ${what === 'own' ? 'recorder' : what}${which === undefined ? '' : ` ${which}`}`, out);
      if (!game || !game.game.watching) return out.print('camera: you are flying your own ship (spectate, or unjoin, to watch the game)', 'error');
      const cam = game.camera;
      const world = game.game.curr;
      const slots = WatchCamera.slots(world).filter((s) => s !== game.game.localSlot || game.game.localSlot === NO_SLOT);
      if (what === 'own') cam.mode = { mode: 'own' };
      else if (what === 'free') cam.freeCamera(world, NO_SLOT);
      else if (what === 'follow') {
        if (which === undefined || which === 'next' || which === 'prev') {
          if (cam.cycle({ ...world, ships: world.ships.filter((s) => slots.includes(s.slot)) }, NO_SLOT, which === 'prev' ? -1 : 1) === null) return out.print('camera follow: no ship to follow yet', 'error');
        } else {
          const slot = /^\d{1,3}$/.test(which) ? Number(which) : NaN;
          if (!slots.includes(slot)) return out.print(`camera follow: no ship in slot ${which} (ships: ${slots.join(', ') || 'none'})`, 'error');
          cam.mode = { mode: 'follow', slot };
        }
      } else return out.print('camera: own, follow [next|prev|<slot>] or free', 'error');
      const m = cam.mode;
      out.print(m.mode === 'free' ? 'camera: free (your controls fly it)' : m.mode === 'follow' ? `camera: following slot ${m.slot}` : 'camera: own view (the first ship)');
    },
  });
}
