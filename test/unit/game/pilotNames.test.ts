/**
 * The names the game page shows (src/renderer/src/net/pilotNames.ts): the
 * name we play under — the slot table's in a network game, the settings'
 * offline — computer pilots as "bot <slot>", and ours marked "(you)" among
 * others.
 */
import { describe, expect, it } from 'vitest';
import { markedAsYou, PilotNames, type NameSources } from '../../../src/renderer/src/net/pilotNames';
import type { NetPlayer } from '../../../src/shared/net/gameLink';

const player = (slot: number, name: string, local = false): NetPlayer => ({ slot, name, joined: true, local, address: `127.0.0.1:${6526 + slot}` });

function names(over: Partial<{ players: NetPlayer[]; netSlot: number | null; settingsName: string; viewSlot: number; bots: number[] }>): PilotNames {
  const s = { players: [], netSlot: null, settingsName: 'pilot', viewSlot: 0, bots: [], ...over };
  const from: NameSources = { players: () => s.players, netSlot: () => s.netSlot, settingsName: () => s.settingsName, viewSlot: () => s.viewSlot, bots: () => s.bots };
  return new PilotNames(from);
}

describe('pilot names on the page', () => {
  it('a second "pilot" in a peer-to-peer game plays as pilot-2: the HUD, the scoreboard and the feed say so', () => {
    const lan = names({ players: [player(0, 'pilot'), player(1, 'pilot-2', true)], netSlot: 1, viewSlot: 1 });
    expect(lan.own()).toBe('pilot-2');
    expect(lan.of(1)).toBe('pilot-2');
    expect(lan.label(1)).toBe('pilot-2 (you)');
    expect(lan.of(0)).toBe('pilot');
    expect(lan.label(0)).toBe('pilot');
    expect(lan.label(5)).toBe('slot 5');
  });

  it('offline the name is the settings\' one; computer pilots are "bot <slot>"', () => {
    const practice = names({ settingsName: 'rookie', bots: [1, 2] });
    expect(practice.own()).toBe('rookie');
    expect(practice.label(0)).toBe('rookie (you)');
    expect(practice.label(2)).toBe('bot 2');
  });

  it('a slot table without our entry yet falls back to the settings\' name', () => {
    expect(names({ players: [player(0, 'owl')], netSlot: 1, viewSlot: 1, settingsName: 'pilot' }).own()).toBe('pilot');
  });

  it('marks our name the way the console\'s players list does', () => {
    expect(markedAsYou('pilot-2')).toBe('pilot-2 (you)');
  });
});
