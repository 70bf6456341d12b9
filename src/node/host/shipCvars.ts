/**
 * The ship a player is seen in: the archived cvars `ship_design` and
 * `ship_colour` (each `auto`, left to the slot, or one of the list in
 * shared/wire/shipLook.ts) and the `ship` command that sets both and says
 * what others see. The settings screen shows the two cvars; a network game
 * takes a change to the other players within a moment (the session reads
 * the look every tick).
 */
import { AUTO_WORD, colourIndex, designIndex, SHIP_COLOUR_CVAR, SHIP_COLOURS, SHIP_DESIGN_CVAR, SHIP_DESIGNS } from '../../shared/wire/shipLook';
import type { HostService } from './hostService';

export function registerShipCvars(host: HostService): () => void {
  const c = host.console;
  const design = host.addCvar({
    name: SHIP_DESIGN_CVAR,
    type: 'string',
    default: AUTO_WORD,
    allowed: [AUTO_WORD, ...SHIP_DESIGNS],
    help: `your ship's design as every player sees it: ${SHIP_DESIGNS.join(', ')} (looks only), or auto (by your slot)`,
    flags: { archive: true },
  });
  const colour = host.addCvar({
    name: SHIP_COLOUR_CVAR,
    type: 'string',
    default: AUTO_WORD,
    allowed: [AUTO_WORD, ...SHIP_COLOURS],
    help: `your ship's colour as every player sees it: ${SHIP_COLOURS.join(', ')}, or auto (by your slot)`,
    flags: { archive: true },
  });
  const describe = (): string => {
    const chosen = `${design.text} ${colour.text}`;
    const auto = design.text === AUTO_WORD || colour.text === AUTO_WORD;
    return `your ship: ${chosen}${auto ? ' (auto follows your slot in each game)' : ''}; every player sees it`;
  };
  const removeCommand = c.addCommand({
    name: 'ship',
    help: 'show or choose the design and colour every player sees your ship in (looks only)',
    usage: `[${[...SHIP_DESIGNS, AUTO_WORD].join('|')}] [colour|auto]`,
    args: { max: 2 },
    run: (args, out) => {
      const [d, k] = args;
      if (d !== undefined && designIndex(d) === null) return out.print(`ship not changed: no design "${d}" (${[...SHIP_DESIGNS, AUTO_WORD].join(', ')})`, 'error');
      if (k !== undefined && colourIndex(k) === null) return out.print(`ship not changed: no colour "${k}" (${[...SHIP_COLOURS, AUTO_WORD].join(', ')})`, 'error');
      if (d !== undefined) design.set(d);
      if (k !== undefined) colour.set(k);
      out.print(describe());
    },
  });
  return () => {
    removeCommand();
    c.removeCvar(design.name);
    c.removeCvar(colour.name);
  };
}
