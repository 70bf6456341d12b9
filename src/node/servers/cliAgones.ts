/**
 * The gameserver's `--agones` options and how the command wires the Agones
 * link (game/agonesLink.ts) to the running server: connect before anything
 * listens, Ready and labels once everything does, player changes, the
 * GameServer's state to the masterserver, Shutdown last on a signal.
 */
import { Command, Option } from 'commander';
import type { Logger } from '../log';
import type { FleetState } from '../../shared/servers/masterProtocol';
import type { MasterRegistration } from './master/masterClient';
import { AgonesLink, sidecarAddress } from './game/agonesLink';
import type { Gameserver } from './game/gameserver';
import { seconds } from './cliOptions';
import type { ServeExtras } from './cliPlayerServers';

/** Agones' default health period (GameServer `spec.health.periodSeconds`): the pings' default interval. */
export const DEFAULT_AGONES_HEALTH_S = 5;

export interface AgonesOpts {
  agones?: boolean;
  agonesHealthSeconds: number;
  agonesConnectSeconds: number;
}

/** Adds `--agones`, `--agones-health-seconds` and the hidden `--agones-connect-seconds` to the gameserver command. */
export function withAgonesOptions(cmd: Command): Command {
  return cmd
    .option('--agones', 'run as an Agones game server: tell the SDK sidecar (localhost:$AGONES_SDK_GRPC_PORT, default 9357) when it is ready, its health, its players and labels, and follow its allocation (docs/DEPLOY.md)')
    .option('--agones-health-seconds <s>', 'with --agones: seconds between health pings (keep it at most the GameServer\'s health periodSeconds)', seconds(0.05, 3600), DEFAULT_AGONES_HEALTH_S)
    .addOption(new Option('--agones-connect-seconds <s>', 'with --agones: how long the sidecar may take to answer at start').argParser(seconds(0.1, 600)).default(5).hideHelp());
}

/** The masterserver's word for an Agones GameServer state, or null for a state it is not told (Scheduled, Shutdown, …). */
export function fleetStateOf(agonesState: string): FleetState | null {
  return agonesState === 'Ready' ? 'ready' : agonesState === 'Reserved' ? 'reserved' : agonesState === 'Allocated' ? 'allocated' : null;
}

/** What the gameserver command holds of Agones once connected. */
export interface AgonesRun {
  link: AgonesLink;
  /** The seated players changed: tell the sidecar. */
  players(server: Gameserver): void;
  /** The steps for serveAndRegister: Ready and labels once listening, Shutdown when stopped. */
  extras(server: Gameserver, name: string, registration: () => MasterRegistration | undefined): Pick<ServeExtras, 'listening' | 'stopped'>;
  /** The status JSON's `agones`: where the sidecar is and the GameServer's state. */
  status(): { sidecar: string; state: string | null };
}

/** Connects to the sidecar (or fails with one line); null without `--agones`. */
export async function startAgones(o: AgonesOpts, cmd: Command, log: Logger): Promise<AgonesRun | null> {
  if (!o.agones) {
    if (cmd.getOptionValueSource('agonesHealthSeconds') !== 'default') cmd.error('error: --agones-health-seconds needs --agones');
    return null;
  }
  const where = sidecarAddress();
  // Loaded only here: the other servers never load gRPC.
  const { default: AgonesSDK } = await import('@google-cloud/agones-sdk');
  let link: AgonesLink;
  try {
    link = await AgonesLink.connect(new AgonesSDK(), { log, where, connectMs: Math.round(o.agonesConnectSeconds * 1000), healthMs: Math.round(o.agonesHealthSeconds * 1000) });
  } catch (err) {
    throw new Error(`gameserver: --agones: ${(err as Error).message}`, { cause: err });
  }
  return {
    link,
    players: (server) => link.players(server.players().map((p) => p.name)),
    extras: (server, name, registration) => {
      link.onState((state) => {
        const fleet = fleetStateOf(state);
        if (fleet) registration()?.fleetState(fleet);
      });
      return {
        listening: () => link.ready(server.maxPlayers, { server: name, galaxy: server.galaxy, systems: server.systems().map((s) => s.name).join('.'), players: String(server.playerCount()) }),
        stopped: () => link.shutdown(),
      };
    },
    status: () => ({ sidecar: where, state: link.state }),
  };
}
