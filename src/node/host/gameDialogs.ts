/**
 * What a player sees, beyond a console line, when a game ends or a join
 * fails without their asking (issue 24):
 * - a game lost (connection broken, removed, the server closed): a dialog
 *   with the reason and "Back to menu" / "Reconnect" (to where we were);
 * - a join that fails while the server browser shows: the reason in the
 *   browser (BrowserState.joinError); while another menu page shows: a
 *   dialog. A join typed in the console with the menu closed fails in the
 *   console only, where the player is looking;
 * - a join that succeeds while a menu page shows (the browser, the main
 *   menu after Reconnect), or a game being watched from there (`spectate`,
 *   the browser's Watch): the menu closes and the game has the screen.
 */
import type { NetDelivery } from '../../shared/net/gameLink';
import type { DialogAction, MenuDialog } from '../../shared/menu/menuState';
import type { HostService } from './hostService';

/** The reason as a sentence for a dialog: the console's "(type connect … to join again)" is the Reconnect button there. */
export function dialogText(line: string): string {
  return line
    .replace(/\s*\(type connect [^)]* to join again\)\s*$/, '')
    .replace(/;\s*disconnecting$/, '')
    .replace(/\s*You are not in a game — .*$/, '');
}

/** The dialog for a game that ended without the player asking. */
export function lostDialog(line: string, target: string | null): MenuDialog {
  // closedLine (leaveWords.ts): the server said it was closing, and why.
  const closed = /^the \S+ ".*" closed: /.test(line);
  const title = /removed you/.test(line) ? 'Removed from the game' : closed ? 'The server closed' : 'Connection lost';
  const actions: DialogAction[] = [{ label: 'Back to menu', command: 'leave' }];
  // A server its admin closed is not there to go back to.
  if (target !== null && !closed) actions.push({ label: 'Reconnect', command: `menu main; connect ${target}` });
  return { title, text: dialogText(line), actions };
}

export class GameDialogs {
  private joined = false;

  constructor(private readonly host: HostService) {}

  /** Every delivery of the network to the game: a join that lands under a menu page closes the menu. */
  delivered(d: NetDelivery): void {
    if (d.kind !== 'players') return;
    // Watching a game (a spectator's seat, or connected but not joined) has the screen too.
    const joined = d.localSlot !== null && (d.players.some((p) => p.slot === d.localSlot && p.joined) || this.host.game?.game.watching === true);
    const page = this.host.menu.page;
    if (joined && !this.joined && page !== 'off' && page !== 'pause' && page !== 'settings' && this.host.menu.dialog === null) {
      this.host.setMenu({ page: 'off', dialog: null });
      if (this.host.browser.joinError) this.host.setBrowser({ joinError: null });
    }
    this.joined = joined;
  }

  /** The protocol said a connect attempt failed or a game was lost (ProtocolContext.connectionEnded). */
  ended(outcome: 'failed' | 'lost', line: string, target?: string): void {
    const menu = this.host.menu;
    if (outcome === 'lost') {
      this.host.setMenu({ page: menu.page === 'off' ? 'main' : menu.page, dialog: lostDialog(line, target ?? null) });
      return;
    }
    if (menu.page === 'servers') {
      this.host.setBrowser({ joinError: { address: target ?? '', reason: dialogText(line) } });
    } else if (menu.page !== 'off') {
      this.host.setMenu({ dialog: { title: 'Could not join', text: dialogText(line), actions: [{ label: 'OK', command: `menu ${menu.page}` }] } });
    }
  }
}
