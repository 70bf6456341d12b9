/**
 * The dialog a player reads when a game ends without their asking: the
 * reason as a sentence (the console's hints are buttons there), the title
 * by what happened, and Reconnect only where there is somewhere to go back to.
 */
import { describe, expect, it } from 'vitest';
import { dialogText, lostDialog } from '../../../src/node/host/gameDialogs';

describe('lost-game dialogs', () => {
  it('a broken connection: "Connection lost", the reason without the console hint, Back to menu and Reconnect to the server', () => {
    const d = lostDialog('lost connection to the gameserver at 127.0.0.1:6581: read ECONNRESET (type connect 127.0.0.1:6581 to join again)', '127.0.0.1:6581');
    expect(d).toEqual({
      title: 'Connection lost',
      text: 'lost connection to the gameserver at 127.0.0.1:6581: read ECONNRESET',
      actions: [
        { label: 'Back to menu', command: 'leave' },
        { label: 'Reconnect', command: 'menu main; connect 127.0.0.1:6581' },
      ],
    });
  });

  it('removed by the server: "Removed from the game"', () => {
    expect(lostDialog('disconnected from the slotserver: the server removed you (type connect [::1]:6580 to join again)', '[::1]:6580').title).toBe('Removed from the game');
  });

  it('a server its admin closed: "The server closed", and no Reconnect', () => {
    const d = lostDialog('the gameserver "Arena" closed: shut down by its admin (SIGTERM). You are not in a game — servers lists the others, or connect host[:port] joins one', '10.0.0.2:6581');
    expect(d.title).toBe('The server closed');
    expect(d.text).toBe('the gameserver "Arena" closed: shut down by its admin (SIGTERM).');
    expect(d.actions.map((a) => a.label)).toEqual(['Back to menu']);
  });

  it('no server to go back to: no Reconnect', () => {
    expect(lostDialog('lost contact with the gameserver "Arena": no answer for 10 s; disconnecting', null).actions.map((a) => a.label)).toEqual(['Back to menu']);
    expect(dialogText('lost contact with the gameserver "Arena": no answer for 10 s; disconnecting')).toBe('lost contact with the gameserver "Arena": no answer for 10 s');
  });
});
