/**
 * The deployment files say what the servers do (deploy/, docs/DEPLOY.md):
 * every STARLANE_ variable they and the Dockerfile set is one the server
 * kind they run reads (its --help names it), the fleet's ports are the
 * gameserver's defaults, it runs --agones, its health period outlasts the
 * server's ping interval, and the masterserver's ports are its defaults.
 * Read as text (no YAML library); needs `npx electron-vite build` first.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGONES_PORT_NAMES } from '../../src/node/servers/game/agonesLink';
import { repoRoot, serverEntry } from '../support/paths';
import { GAMESERVER_PORT, GAMESERVER_UDP_PORT } from '../../src/shared/servers/joinProtocol';
import { DEFAULT_MASTER_PORT } from '../../src/shared/servers/masterProtocol';

const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');
const fleet = read('deploy/agones/fleet.yaml');
const master = read('deploy/masterserver.yaml');

/** The variables `kind --help` names. */
function variablesOf(kind: string): Set<string> {
  const r = spawnSync(process.execPath, [serverEntry, kind, '--help'], { encoding: 'utf8' });
  expect(r.status).toBe(0);
  return new Set([...r.stdout.matchAll(/env: (STARLANE_[A-Z0-9_]+)/g)].map((m) => m[1] as string));
}

/** `- name: X` followed by `value: "v"` in a manifest's env lists. */
function envOf(yaml: string): Map<string, string | null> {
  const vars = new Map<string, string | null>();
  for (const m of yaml.matchAll(/- name: (STARLANE_[A-Z0-9_]+)\n\s+(?:value: "?([^"\n]*)"?)?/g)) vars.set(m[1] as string, m[2] ?? null);
  return vars;
}

describe('the deployment files', () => {
  it('set only variables the server kinds they run read', () => {
    const game = variablesOf('gameserver');
    const masterVars = variablesOf('masterserver');
    for (const name of envOf(fleet).keys()) expect(game).toContain(name);
    for (const name of envOf(master).keys()) expect(masterVars).toContain(name);
    for (const m of read('Dockerfile').matchAll(/^ENV (STARLANE_[A-Z0-9_]+)=/gm)) for (const kind of [game, masterVars]) expect(kind).toContain(m[1]);
  });

  it('give the fleet the gameserver\'s ports, --agones, and a health period longer than its pings', () => {
    // Dynamic ports under the names the server reads back from its GameServer (agonesLink.ts AGONES_PORT_NAMES).
    expect(fleet).toMatch(new RegExp(`- name: ${AGONES_PORT_NAMES.join}\\n\\s+portPolicy: Dynamic\\n\\s+containerPort: ${GAMESERVER_PORT}\\n\\s+protocol: TCP`));
    expect(fleet).toMatch(new RegExp(`- name: ${AGONES_PORT_NAMES.game}\\n\\s+portPolicy: Dynamic\\n\\s+containerPort: ${GAMESERVER_UDP_PORT}\\n\\s+protocol: UDP`));
    expect(fleet).toMatch(/args: \["gameserver", "--agones"\]/);
    const period = Number(/periodSeconds: (\d+)/.exec(fleet)?.[1]);
    const pings = Number(envOf(fleet).get('STARLANE_AGONES_HEALTH_SECONDS'));
    expect(pings).toBeGreaterThan(0);
    expect(pings).toBeLessThan(period);
    expect(read('deploy/agones/fleetautoscaler.yaml')).toMatch(/fleetName: starlane\n/);
    expect(fleet).toMatch(/kind: Fleet\nmetadata:\n\s+name: starlane\n/);
  });

  it('give the masterserver its default port and the image\'s status page, and the fleet its address', () => {
    expect(master).toMatch(new RegExp(`containerPort: ${DEFAULT_MASTER_PORT}`));
    expect(master).toMatch(/containerPort: 8080/);
    expect(read('Dockerfile')).toMatch(/^ENV STARLANE_HTTP_PORT=8080$/m);
    expect(envOf(fleet).get('STARLANE_MASTER')).toBe(`starlane-master:${DEFAULT_MASTER_PORT}`);
    expect(master).toMatch(/kind: Service\nmetadata:\n\s+name: starlane-master\n/);
    for (const yaml of [fleet, master]) expect(yaml).toMatch(/enableServiceLinks: false/);
  });
});
