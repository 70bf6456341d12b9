/**
 * The settings page (issue 24): Pilot, Controls, Network, Match limits,
 * Display and Sound. Every setting is the console's — a name, a binding or a cvar — so
 * each control runs the console line that sets it (`name`, `bind`, `<cvar>
 * <value>`), the host saves it and sends the settings back, and the page
 * shows what the host holds. The cvars' ranges, choices, defaults and help
 * come from the host (HostSnapshot.cvars), written once in their definitions.
 */
import './settings.css';
import type { CvarInfo } from '../../../shared/console/cvarInfo';
import { quoteArgument } from '../../../shared/console/tokenize';
import { PLAYER_NAME_MAX } from '../../../shared/wire/strings';
import { toggleFullscreen } from '../view/fullscreen';
import { BindCapture } from './bindCapture';
import { cvarControl, type CvarControl, type CvarSpec } from './cvarControls';
import { el, menuButton, panelFrame, type MenuContext, type MenuPanel } from './menuPanel';
import { controlsSection } from './settingsControls';
import { nameField } from './nameField';

/** What the page needs besides the menu: the host's cvar descriptions. */
export interface SettingsDeps {
  cvars: readonly CvarInfo[];
}

/** A section of cvar controls under a heading. */
function cvarSection(ctx: MenuContext, infoOf: (name: string) => CvarInfo | undefined, id: string, title: string, note: string, specs: CvarSpec[]) {
  const element = el('section', 'settings-section');
  element.id = id;
  element.append(el('h2', 'settings-heading', title));
  if (note) element.append(el('p', 'menu-note', note));
  const controls = specs.map((spec) => cvarControl(ctx, infoOf(spec.cvar), spec));
  element.append(...controls.map((c) => c.element));
  return { element, controls };
}

/** The Pilot section: the name the others see, set with `name`. */
function pilotSection(ctx: MenuContext) {
  const element = el('section', 'settings-section');
  element.id = 'settings-pilot';
  const line = el('div', 'menu-field');
  const field = nameField('settings-name', 'settings-name', 'settings-error');
  const { input, error } = field;
  let dirty = false;
  const commit = () => {
    dirty = false;
    const name = field.checked();
    if (name !== null && name !== ctx.settings().playerName) ctx.run(`name ${quoteArgument(name)}`);
  };
  input.addEventListener('input', () => (dirty = true));
  const rename = menuButton('Rename', commit, 'settings-rename');
  line.append(el('span', 'menu-field-label', 'Pilot name'), input, rename);
  element.append(el('h2', 'settings-heading', 'Pilot'), line, el('p', 'menu-note settings-hint', `The name other players see (1–${PLAYER_NAME_MAX} characters; Enter or Rename sets it).`), error);
  return {
    element,
    input,
    commit,
    refresh: () => {
      if (dirty && document.activeElement === input) return;
      dirty = false;
      input.value = ctx.settings().playerName;
    },
  };
}

/** The Display section's fullscreen switch (the Fullscreen API, as F11 and Alt+Enter; not a cvar: the window keeps it). */
function fullscreenControl() {
  const element = el('div', 'settings-cvar');
  const line = el('div', 'menu-field');
  const error = el('p', 'settings-error');
  error.hidden = true;
  const button = menuButton('', () => {
    error.hidden = true;
    toggleFullscreen(document, (why) => {
      error.textContent = why;
      error.hidden = false;
    });
  }, 'settings-fullscreen');
  button.classList.add('settings-toggle');
  const show = () => {
    const on = document.fullscreenElement !== null;
    button.textContent = on ? 'on' : 'off';
    button.setAttribute('aria-pressed', String(on));
    button.setAttribute('aria-label', `Fullscreen: ${on ? 'on' : 'off'}`);
  };
  document.addEventListener('fullscreenchange', show);
  show();
  line.append(el('span', 'menu-field-label', 'Fullscreen'), button);
  element.append(line, el('p', 'menu-note settings-hint', 'F11 (browser) and Alt+Enter switch it too; the window opens again as you leave it.'), error);
  return element;
}

export function settingsPanel(ctx: MenuContext, deps: SettingsDeps = { cvars: [] }): MenuPanel {
  const { element, body } = panelFrame('settings', 'Settings');
  element.classList.add('settings-panel');
  const byName = new Map(deps.cvars.map((c) => [c.name, c]));
  const infoOf = (name: string) => byName.get(name);
  const capture = new BindCapture(() => [...element.children].filter((c): c is HTMLElement => c instanceof HTMLElement && c !== capture.element));

  const pilot = pilotSection(ctx);
  const ship = cvarSection(ctx, infoOf, 'settings-ship', 'Ship', 'How every player sees your ship (looks only; auto: by your slot).', [
    { cvar: 'ship_design', label: 'Design' },
    { cvar: 'ship_colour', label: 'Colour' },
  ]);
  const controls = controlsSection(ctx, capture, infoOf);
  const network = cvarSection(ctx, infoOf, 'settings-network', 'Network', 'Used from the next packet; saved for every game.', [
    { cvar: 'sendfreq', label: 'Send rate (packets/s)' },
    { cvar: 'net_smooth', label: 'Smoothing (ms)', step: 10 },
    { cvar: 'netgraph', label: 'Net graph' },
  ]);
  const match = cvarSection(ctx, infoOf, 'settings-match', 'Match limits', 'For the matches your game decides: offline, when you host, or as the first player of a peer-to-peer game.', [
    { cvar: 'killlimit', label: 'Kill limit (0: none)' },
    { cvar: 'timelimit', label: 'Time limit, minutes (0: none)', scale: 60, unit: 'minutes' },
  ]);
  const display = cvarSection(ctx, infoOf, 'settings-display', 'Display', 'Applied at once.', [
    { cvar: 'ui_scale', label: 'UI scale', step: 0.05 },
    { cvar: 'r_quality', label: 'Quality' },
  ]);
  display.element.insertBefore(fullscreenControl(), display.element.children[2] ?? null);
  const sound = cvarSection(ctx, infoOf, 'settings-sound', 'Sound', 'Applied at once. Sound starts with your first key press or click (sound none in the console turns it off altogether).', [
    { cvar: 'volume', label: 'Master volume', step: 0.05 },
    { cvar: 's_effects', label: 'Effects volume', step: 0.05 },
    { cvar: 's_engine', label: 'Engine hum', step: 0.05 },
    { cvar: 's_mute', label: 'Mute' },
  ]);

  const sections = [pilot.element, ship.element, controls.element, network.element, match.element, display.element, sound.element];
  const cvars: CvarControl[] = [...ship.controls, ...controls.cvars, ...network.controls, ...match.controls, ...display.controls, ...sound.controls];
  // Enter in a field sets it (the menu's own Enter would press a page's main button; this page has none).
  const commits = new Map<HTMLInputElement, () => void>([[pilot.input, pilot.commit]]);
  for (const c of cvars) if (c.input && c.commit) commits.set(c.input, c.commit);

  const back = () => ctx.run(`menu ${ctx.home()}`);
  const top = el('nav', 'settings-nav');
  top.setAttribute('aria-label', 'settings sections');
  for (const [label, section] of [['Pilot', pilot.element], ['Controls', controls.element], ['Network', network.element], ['Match', match.element], ['Display', display.element], ['Sound', sound.element]] as const) {
    const go = menuButton(label, () => {
      section.scrollIntoView({ block: 'start' });
      section.querySelector<HTMLElement>('button, input')?.focus({ preventScroll: true });
    }, `settings-go-${label.toLowerCase()}`);
    go.classList.add('settings-nav-button');
    top.append(go);
  }
  const backTop = menuButton('Back', back, 'settings-back');
  backTop.classList.add('settings-nav-button', 'settings-back');
  top.append(backTop);
  const backBottom = menuButton('Back', back, 'settings-back-bottom');
  backBottom.classList.add('settings-wide');
  body.append(top, ...sections, backBottom);
  element.append(capture.element);
  // No browser menu on a right click: the right button may be what the player is binding.
  element.addEventListener('contextmenu', (e) => e.preventDefault());

  return {
    page: 'settings',
    element,
    // Esc (or the pad's B) while the modal shows closes it and stays here.
    back: () => {
      if (!capture.busy) return `menu ${ctx.home()}`;
      capture.cancel();
      return null;
    },
    refresh: () => {
      const settings = ctx.settings();
      pilot.refresh();
      controls.refresh(settings);
      for (const c of [...network.controls, ...match.controls, ...display.controls, ...sound.controls]) c.refresh(settings);
    },
    takeKey: (e) => {
      if (capture.takeKey(e)) return true;
      const commit = e.key === 'Enter' && !e.altKey && e.target instanceof HTMLInputElement ? commits.get(e.target) : undefined;
      if (!commit) return false;
      commit();
      return true;
    },
    takePad: (buttons) => capture.takePad(buttons),
  };
}
