/**
 * `bind`, `unbind`, `unbindall`, `bindreset`, `bindlist` on a real host: the
 * console edits the one bindings table, which is saved in settings.json (a
 * new host in the same folder has it) and sent to the page; `keys` reads it.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../../src/node/host/createHost';
import type { HostService } from '../../src/node/host/hostService';
import type { HostEvent } from '../../src/shared/host/contract';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';
import { tempDir } from '../support/testRun';

const hosts: HostService[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.dispose()));
});

async function hostIn(userDataDir: string): Promise<{ host: HostService; run(line: string): Promise<string[]>; events: HostEvent[] }> {
  const host = await createHost({ shell: 'browser', appVersion: 'test', userDataDir, clientPort: await freeUdpPorts(P2P_PORT_SPAN), broadcastAddress: '127.255.255.255', lanInterfaces: [], log: pino({ level: 'silent' }), onQuit: () => undefined });
  hosts.push(host);
  const events: HostEvent[] = [];
  host.onEvents((b) => events.push(...b));
  return {
    host,
    events,
    run: async (line) => {
      // Events reach listeners in one batch per turn of the event loop.
      await new Promise((r) => setImmediate(r));
      const from = events.length;
      await host.command(line);
      await new Promise((r) => setImmediate(r));
      return events.slice(from).flatMap((e) => (e.kind === 'console' && e.level !== 'echo' ? [e.text] : []));
    },
  };
}

describe('bind and friends', () => {
  it('bind shows, sets and replaces; the table is saved, sent to the page and kept across a restart', async () => {
    const dir = tempDir('bind');
    const a = await hostIn(dir);
    expect(await a.run('bind w')).toEqual(['W (KeyW) runs "+thrust"']);
    expect(await a.run('bind j +fire')).toEqual(['J (KeyJ) runs "+fire"']);
    expect(await a.run('bind space +thrust')).toEqual(['Space (Space) runs "+thrust" (it ran "+fire")']);
    expect(await a.run('bind F5 say gg')).toEqual(['F5 (F5) runs "say gg"']);
    expect(await a.run('bind mouse3 +missile')).toEqual(['middle mouse (Mouse3) runs "+missile"']);
    expect(await a.run('unbind w')).toEqual(['W (KeyW) unbound (it ran "+thrust")']);
    expect(await a.run('unbind w')).toEqual(['W (KeyW) was not bound']);
    // The page was sent the new table with each change.
    const sent = a.events.filter((e): e is Extract<HostEvent, { kind: 'settings' }> => e.kind === 'settings').at(-1);
    expect(sent?.settings.bindings).toMatchObject({ KeyJ: '+fire', Space: '+thrust', F5: 'say gg', Mouse3: '+missile' });
    expect(sent?.settings.bindings['KeyW']).toBeUndefined();
    const keys = await a.run('keys');
    expect(keys.find((l) => l.endsWith('thrust / reverse'))).toMatch(/^\s+Space \/ S\s+thrust \/ reverse$/);
    expect(keys.find((l) => l.endsWith('fire laser'))).toMatch(/^\s+left mouse, pad RT, J\s+fire laser$/);
    await a.host.dispose();

    const b = await hostIn(dir);
    expect(await b.run('bind j')).toEqual(['J (KeyJ) runs "+fire"']);
    expect(await b.run('bind f5')).toEqual(['F5 (F5) runs "say gg"']);
    const list = await b.run('bindlist');
    expect(list.at(-1)).toBe(`${list.length - 1} bindings`);
    expect(list).toContain('  KeyJ       +fire');
  });

  it('says clearly what it cannot bind', async () => {
    const a = await hostIn(tempDir('bind'));
    expect(await a.run('bind')).toEqual(['usage: bind <input> [command]']);
    expect(await a.run('bind ü +fire')).toEqual(['bind: "ü" is no input: a key (w, space, shift, F5, or its code: KeyW, ArrowUp), mouse1..mouse5, or a gamepad button (Pad…)']);
    expect(await a.run('bind k +jump')).toEqual(['bind: no action +jump; the actions are +thrust +brake +yawleft +yawright +pitchup +pitchdown +rollleft +rollright +fire +afterburner +missile +mine +emp target +scores toggleconsole']);
    expect(await a.run(`bind k "${'x'.repeat(130)}"`)).toEqual(['bind: a command is 1–128 printable characters (got 130)']);
  });

  it('unbindall keeps the console key; bindreset brings the defaults back', async () => {
    const a = await hostIn(tempDir('bind'));
    expect(await a.run('unbindall')).toEqual(['every binding removed but the console key (` (backquote))']);
    expect(await a.run('bindlist')).toEqual(['  Backquote  toggleconsole', '1 binding']);
    expect(await a.run('bindreset')).toEqual(['bindings reset to the defaults (type keys to see them)']);
    expect(await a.run('bind w')).toEqual(['W (KeyW) runs "+thrust"']);
  });
});
