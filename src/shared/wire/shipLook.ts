/**
 * The ship a pilot chooses to be seen in: a design and a colour, each
 * either chosen or left to the slot ("auto": slot n flies design n mod 3 in
 * colour n mod 8, so neighbouring slots differ in both). Looks only: the
 * simulation never reads them, and its golden hash does not depend on them.
 *
 * The choice travels wherever the pilot's name travels (docs/PROTOCOL.md,
 * "Ship looks"): peer to peer as a `playerLook` event beside the name in
 * connect requests and node-alives, to a slot-, game- or netgame server as
 * a `my ship:` line that the server passes on as `ship ip:` lines. Each
 * choice is one byte on the wire, LOOK_AUTO for "by slot".
 */

export const SHIP_DESIGNS = ['dart', 'wasp', 'manta'] as const;
export type ShipDesign = (typeof SHIP_DESIGNS)[number];

/** The eight pilot colours by name, in palette order (the renderer's PILOT_COLOURS). */
export const SHIP_COLOURS = ['blue', 'orange', 'green', 'yellow', 'violet', 'cyan', 'pink', 'white'] as const;
export type ShipColour = (typeof SHIP_COLOURS)[number];

/** A choice left to the slot, on the wire and in a ShipLook. */
export const LOOK_AUTO = 0xff;
/** What the `ship_design` and `ship_colour` cvars say for "by slot". */
export const AUTO_WORD = 'auto';

/** A pilot's choice: indexes into SHIP_DESIGNS and SHIP_COLOURS, or LOOK_AUTO for each left to the slot. */
export interface ShipLook {
  design: number;
  colour: number;
}

/** Nothing chosen: design and colour by slot. */
export const AUTO_LOOK: Readonly<ShipLook> = Object.freeze({ design: LOOK_AUTO, colour: LOOK_AUTO });

/** True for a look the wire and the lines may carry: each part an index of its list or LOOK_AUTO. */
export function isShipLook(look: ShipLook): boolean {
  const ok = (v: number, n: number) => Number.isInteger(v) && ((v >= 0 && v < n) || v === LOOK_AUTO);
  return ok(look.design, SHIP_DESIGNS.length) && ok(look.colour, SHIP_COLOURS.length);
}

export function sameLook(a: ShipLook, b: ShipLook): boolean {
  return a.design === b.design && a.colour === b.colour;
}

/** The look slot `slot` flies in: the choice where made, the slot's own design and colour where left to it. */
export function resolvedLook(slot: number, look: ShipLook = AUTO_LOOK): { design: ShipDesign; colour: number } {
  const i = Math.max(0, Math.trunc(slot));
  const design = look.design === LOOK_AUTO || look.design >= SHIP_DESIGNS.length ? i % SHIP_DESIGNS.length : look.design;
  const colour = look.colour === LOOK_AUTO || look.colour >= SHIP_COLOURS.length ? i % SHIP_COLOURS.length : look.colour;
  return { design: SHIP_DESIGNS[design]!, colour };
}

/** The index of a design word (`auto` → LOOK_AUTO), or null for anything else. */
export function designIndex(word: string): number | null {
  if (word === AUTO_WORD) return LOOK_AUTO;
  const i = (SHIP_DESIGNS as readonly string[]).indexOf(word);
  return i < 0 ? null : i;
}

/** The index of a colour word (`auto` → LOOK_AUTO), or null for anything else. */
export function colourIndex(word: string): number | null {
  if (word === AUTO_WORD) return LOOK_AUTO;
  const i = (SHIP_COLOURS as readonly string[]).indexOf(word);
  return i < 0 ? null : i;
}

/** The look as two words, `wasp orange` (`auto` for a part left to the slot): the text the lines carry and the console prints. */
export function formatLook(look: ShipLook): string {
  const design = look.design === LOOK_AUTO ? AUTO_WORD : (SHIP_DESIGNS[look.design] ?? AUTO_WORD);
  const colour = look.colour === LOOK_AUTO ? AUTO_WORD : (SHIP_COLOURS[look.colour] ?? AUTO_WORD);
  return `${design} ${colour}`;
}

/** Reads `formatLook`'s two words exactly, or null. */
export function parseLook(text: string): ShipLook | null {
  const m = /^([a-z]+) ([a-z]+)$/.exec(text);
  if (!m) return null;
  const design = designIndex(m[1] ?? '');
  const colour = colourIndex(m[2] ?? '');
  return design === null || colour === null ? null : { design, colour };
}

/** The archived cvars that hold the player's choice (node/host/shipCvars.ts registers them). */
export const SHIP_DESIGN_CVAR = 'ship_design';
export const SHIP_COLOUR_CVAR = 'ship_colour';

/** The look the saved cvars choose (a part missing or unknown: auto), as the host sends it and the page draws our own ship. */
export function lookFromCvars(cvars: Readonly<Record<string, string>>): ShipLook {
  return { design: designIndex(cvars[SHIP_DESIGN_CVAR] ?? AUTO_WORD) ?? LOOK_AUTO, colour: colourIndex(cvars[SHIP_COLOUR_CVAR] ?? AUTO_WORD) ?? LOOK_AUTO };
}
