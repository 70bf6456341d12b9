/**
 * The classes a ClientGame is made of, for its snapshot (snapshot.ts): a
 * class missing here makes recording refuse with its name, and a unit test
 * (test/unit/demo/gameSnapshot.test.ts) snapshots games that have used
 * every part (bots, remote ships, remote objects, a match authority's word).
 */
import { ArenaLog } from '../game/arena';
import { AuthorityVoice } from '../game/authorityVoice';
import { ClientGame } from '../game/clientGame';
import { ClientMatch } from '../game/clientMatch';
import { ExtraClaims } from '../game/extraClaims';
import { ShotLog } from '../game/hitReports';
import { Rejoins } from '../game/matchSync';
import { RemoteObjects } from '../game/remoteObjects';
import { Replicas } from '../game/replicas';
import { RemoteShipTrack } from '../net/smoothing';
import type { SnapshotClasses } from './snapshot';

export const GAME_CLASSES: SnapshotClasses = {
  classes: new Map<string, { prototype: object }>([
    ['ArenaLog', ArenaLog],
    ['AuthorityVoice', AuthorityVoice],
    ['ClientGame', ClientGame],
    ['ClientMatch', ClientMatch],
    ['ExtraClaims', ExtraClaims],
    ['ShotLog', ShotLog],
    ['Rejoins', Rejoins],
    ['RemoteObjects', RemoteObjects],
    ['Replicas', Replicas],
    ['RemoteShipTrack', RemoteShipTrack],
  ]),
  // The recording's ear is the recording's, not the game's.
  omit: new Map([['ClientGame', ['journal']]]),
};
