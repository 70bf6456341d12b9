/**
 * The kill feed names the weapon in network games too: the victim's game
 * decides its ship's death and (wire v9) names the weapon in its killObject,
 * so the other player's game shows the same one. Two skill-5 hunt pilots
 * duel peer to peer and through a gameserver's forwarding core (hitDuel.ts:
 * real games, sessions and memberships on a memory LAN and a virtual clock),
 * with 50 ms lag and 5 % loss.
 */
import { describe, expect, it } from 'vitest';
import { runHitDuel, type HitProtocol } from '../../support/hitDuel';

describe('the weapon of a kill reaches the other players', () => {
  for (const protocol of ['p2p', 'gameserver'] as HitProtocol[]) {
    it(`${protocol}: every death the victim's game decided shows on the shooter's screen with the same weapon`, { timeout: 60_000 }, async () => {
      const t = await runHitDuel({ protocol, lagMs: 50, lossPct: 5, seed: 11, seconds: 40, tailMs: 4000 });
      console.log(`${protocol}: ${t.kills} kills decided by the victims' games, ${t.killsNamed} shown by the other game with the same weapon`);
      expect(t.kills).toBeGreaterThan(0);
      expect(t.killsNamed).toBe(t.kills);
    });
  }
});
