/**
 * A client's own stall is not its server's silence. The Node session adapter
 * (GameSession, as serverClient sets it up for a gameserver or a netgame)
 * runs on a memory LAN and a virtual clock against a stand-in server that
 * pings each second and answers time sync. When the server freezes for 4 s
 * the player reads "server not responding" and a removal just after is
 * excused as the stall's doing (the client rejoins); when the client's own
 * process stalls for 4 s (stopped, suspended) it says nothing of the server
 * and a removal that follows is not excused: it goes back to offline play
 * with the reason (a netgame drops a client that stopped for falling behind).
 */
import { describe, expect, it } from 'vitest';
import { OWN_STALL_MS } from '../../../src/node/protocol/gameSession';
import { ServerRemoval } from '../../../src/node/protocol/serverRemoval';
import { removedLine } from '../../../src/node/protocol/leaveWords';
import { joinedToStandInServer } from '../../support/nodeSession';
import { runUntil } from '../../support/sessionRig';
import { VirtualClock } from '../../support/virtualClock';

const TOKEN = 0xbeef;
const NOT_RESPONDING = /^server not responding \(\d+ s\)$/;

/** A joined session and its stand-in server; `frozen` silences the server. */
function joinedSession() {
  const clock = new VirtualClock();
  const printed: string[] = [];
  const { server, session, stop } = joinedToStandInServer(clock, TOKEN, (line) => printed.push(line));
  clock.advance(3_000);
  return { clock, server, session, printed, stop };
}

describe('our own stall is not the server\'s silence', () => {
  it('a server frozen for 4 s: "server not responding", and a removal right after is excused (the client rejoins)', () => {
    const { clock, server, session, printed, stop } = joinedSession();
    server.frozen = true;
    clock.advance(4_000);
    server.frozen = false;
    runUntil(clock, 'the server heard again', () => printed.some((l) => l.startsWith('server responding again')));
    stop();
    console.log(`server frozen 4 s: ${printed.filter((l) => /server/.test(l)).join(' / ')}`);
    expect(printed.filter((l) => NOT_RESPONDING.test(l)).length).toBeGreaterThanOrEqual(2);
    expect(session.serverSilence.excuses(clock.now())).toBe(true);
  });

  it('our own process stalled for 4 s (the server kept answering): nothing said of the server, and a removal is not excused', () => {
    const { clock, session, printed, stop } = joinedSession();
    clock.stall(4_000);
    clock.advance(1_500);
    stop();
    console.log(`client stalled 4 s (own-stall threshold ${OWN_STALL_MS} ms): ${printed.filter((l) => /server/.test(l)).join(' / ') || 'nothing said of the server'}`);
    expect(printed.filter((l) => NOT_RESPONDING.test(l) || l.startsWith('server responding again'))).toEqual([]);
    expect(session.serverSilence.excuses(clock.now())).toBe(false);
  });
});

describe('why the server removed us', () => {
  it('its reason goes into the line that ends the game; when the game ends some other way it is printed as the server sent it', () => {
    const printed: string[] = [];
    const removal = new ServerRemoval('netgame', (l) => printed.push(l));
    expect(removal.heard('welcome to the game')).toBe(false);
    expect(removal.heard('removed: 101 frames behind the server, limit 100')).toBe(true);
    expect(printed).toEqual([]);
    expect(removedLine('netgame', removal.take(), ' (type connect 10.0.0.2:6583 to join again)')).toBe(
      'disconnected from the netgame: the server removed you: 101 frames behind the server, limit 100 (type connect 10.0.0.2:6583 to join again)',
    );
    expect(removedLine('gameserver', removal.take(), '')).toBe('disconnected from the gameserver: the server removed you');
    removal.heard('removed: no game datagram for 15 s');
    removal.flush();
    expect(printed).toEqual(['netgame: removed: no game datagram for 15 s']);
    expect(removal.take()).toBeNull();
  });
});
