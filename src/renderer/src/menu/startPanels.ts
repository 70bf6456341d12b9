/**
 * The three ways into a game from the main menu — practice against bots,
 * play on the LAN, host a netgame — each a short form whose start button
 * runs the console lines that do it (`practice`, `protocol …; connect`,
 * `host netgame`), with the match limits as the killlimit and timelimit cvars.
 */
import { RULES } from '../../../shared/game/rules';
import { MAX_KILL_LIMIT } from '../../../shared/game/match';
import { DEFAULT_SKILL, MAX_SKILL, MIN_SKILL } from '../../../shared/game/pilots/skill';
import { MAX_SLOTS } from '../../../shared/wire/types';
import { cvarInt, el, menuButton, numberField, panelFrame, type MenuContext, type MenuPanel } from './menuPanel';

/** The most minutes the time-limit field takes (the cvar's own limit is a day). */
const MAX_MINUTES = 240;

/** Kill and time limit fields, read from and written to the cvars. */
function limitFields(ctx: MenuContext, page: string) {
  const s = ctx.settings();
  const kills = numberField('kill limit (0: none)', `${page}-killlimit`, 0, MAX_KILL_LIMIT, cvarInt(s, 'killlimit', RULES.match.killLimit));
  const minutes = numberField('time limit, minutes (0: none)', `${page}-timelimit`, 0, MAX_MINUTES, Math.round(cvarInt(s, 'timelimit', RULES.match.timeLimitS) / 60));
  return {
    rows: [kills.row, minutes.row],
    refresh: () => {
      const now = ctx.settings();
      kills.input.value = String(cvarInt(now, 'killlimit', RULES.match.killLimit));
      minutes.input.value = String(Math.round(cvarInt(now, 'timelimit', RULES.match.timeLimitS) / 60));
    },
    line: () => `killlimit ${kills.value()}; timelimit ${minutes.value() * 60}`,
  };
}

export function practicePanel(ctx: MenuContext): MenuPanel {
  const { element, body } = panelFrame('practice', 'Practice', 'Fly offline against computer pilots. Skill 1 flies with lasers and poor aim; skill 5 uses every weapon.');
  const bots = numberField('computer pilots', 'practice-bots', 0, MAX_SLOTS - 1, 2);
  const skill = numberField(`skill (${MIN_SKILL}–${MAX_SKILL})`, 'practice-skill', MIN_SKILL, MAX_SKILL, DEFAULT_SKILL);
  const limits = limitFields(ctx, 'practice');
  const start = menuButton('Start practice', () => ctx.run(`${limits.line()}; practice ${bots.value()} ${skill.value()}`), 'practice-start');
  start.dataset['primary'] = '';
  body.append(bots.row, skill.row, ...limits.rows, start, menuButton('Back', () => ctx.run('menu main')));
  return { page: 'practice', element, back: () => 'menu main', refresh: limits.refresh };
}

export function lanPanel(ctx: MenuContext): MenuPanel {
  const { element, body } = panelFrame('lan', 'Play on LAN', 'Joins the game running on your network, or starts one that others join.');
  const join = (protocol: string) => () => ctx.run(`protocol ${protocol}; connect; menu off`);
  const p2p = menuButton('Peer-to-peer', join('p2p'), 'lan-p2p');
  p2p.dataset['primary'] = '';
  body.append(
    p2p,
    el('p', 'menu-note', 'Every player sends their ship to every other: smooth flight, up to 4 players (8 with net_maxplayers).'),
    menuButton('Lockstep', join('lockstep'), 'lan-lockstep'),
    el('p', 'menu-note', 'Every machine steps one shared world with everyone\'s input, frame by frame (2–4 players).'),
    menuButton('Back', () => ctx.run('menu main')),
  );
  return { page: 'lan', element, back: () => 'menu main' };
}

export function hostPanel(ctx: MenuContext): MenuPanel {
  const { element, body } = panelFrame('host', 'Host a game', 'Runs a netgame server inside your game; others find it on the LAN or in the server browser, or connect to this machine.');
  const limits = limitFields(ctx, 'host');
  const start = menuButton('Start hosting', () => ctx.run(`${limits.line()}; host netgame; menu off`), 'host-start');
  start.dataset['primary'] = '';
  body.append(...limits.rows, start, menuButton('Back', () => ctx.run('menu main')));
  return { page: 'host', element, back: () => 'menu main', refresh: limits.refresh };
}
