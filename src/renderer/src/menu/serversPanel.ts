/**
 * The server browser page (issue 24): the masterserver's list, the LAN's
 * answers and the player's kept servers in one table the host fills
 * (BrowserState), sorted by any column and filtered here; Refresh with its
 * progress; what could not be asked; join a row (double click, Enter, a
 * gamepad's A, or the Join button) or an address typed in; watch a row's game
 * instead (the Watch button: a spectator's seat); keep a server as a
 * favourite; a failed join's reason with what to do. Every action is a
 * console line: `servers refresh`, `servers join|watch <kind> <host:port>`,
 * `favourite add|remove …`. The first time the page shows it refreshes.
 */
import './servers.css';
import { filterRows, sortRows, type BrowserColumn, type BrowserRow } from '../../../shared/servers/browserModel';
import { emptyBrowserState, type BrowserState } from '../../../shared/servers/browserState';
import { emptyText, joinErrorText, problemText, statusLine } from '../../../shared/servers/browserWords';
import type { MasterServerType } from '../../../shared/servers/masterProtocol';
import { savedAddress } from '../../../shared/servers/savedServers';
import { el, menuButton, panelFrame, type MenuContext, type MenuPanel } from './menuPanel';
import { serversFilters, toggleButton } from './serversFilters';
import { serversTable } from './serversTable';

export interface ServersPanel extends MenuPanel {
  /** The host's browser state changed. */
  update(state: BrowserState): void;
}

/** An address a console line may carry (it came from the network or was typed): host:port as savedServers.ts reads it, else null. */
const safeAddress = (text: string, portOptional = false): string | null => (savedAddress(text, portOptional ? 1 : null) === null ? null : text);

export function serversPanel(ctx: MenuContext): ServersPanel {
  const { element, body } = panelFrame('servers', 'Server browser');
  element.classList.add('menu-servers');
  let state: BrowserState = emptyBrowserState();
  let sort: { column: BrowserColumn | undefined; descending: boolean } = { column: undefined, descending: false };
  let selected: string | null = null;
  /** A word from the page itself (an address that is not one), shown until the next action. */
  let note = '';
  let refreshedOnce = false;

  const refresh = menuButton('Refresh', () => act(() => ctx.run('servers refresh')), 'servers-refresh');
  const status = el('p', 'servers-status');
  status.id = 'servers-status';
  status.setAttribute('aria-live', 'polite');
  const toolbar = el('div', 'servers-toolbar');
  toolbar.append(refresh, status);
  const problem = el('p', 'servers-problem');
  problem.id = 'servers-problem';

  const filters = serversFilters(() => render());
  const table = serversTable({
    select: (row) => {
      selected = row.address;
      table.select(selected);
      renderActions();
    },
    join: (row) => joinRow(row),
    star: (row) => favourite(row),
    sort: (column) => {
      sort = sort.column === column ? { column, descending: !sort.descending } : { column, descending: false };
      render();
    },
  });
  const empty = el('p', 'servers-empty');
  empty.id = 'servers-empty';
  const message = el('p', 'menu-error servers-message');
  message.id = 'servers-message';
  message.setAttribute('aria-live', 'polite');

  const join = menuButton('Join', () => act(() => selectedRow() && joinRow(selectedRow() as BrowserRow)), 'servers-join');
  const watch = menuButton('Watch', () => act(() => selectedRow() && joinRow(selectedRow() as BrowserRow, 'watch')), 'servers-watch');
  const star = menuButton('☆ Favourite', () => act(() => selectedRow() && favourite(selectedRow() as BrowserRow)), 'servers-favourite');
  // Direct connect: the kind (one of three) and host[:port].
  let directKind: MasterServerType = 'gameserver';
  const kinds = (['slotserver', 'gameserver', 'netgame'] as const).map((kind) =>
    toggleButton(kind, `servers-direct-${kind}`, kind === directKind, (b) => {
      directKind = kind;
      for (const o of kinds) o.setAttribute('aria-pressed', String(o === b));
    }),
  );
  const address = el('input', 'menu-input servers-address');
  address.id = 'servers-address';
  address.type = 'text';
  address.placeholder = 'host:port';
  address.maxLength = 300;
  address.spellcheck = false;
  address.setAttribute('aria-label', 'server address (host:port)');
  const direct = menuButton('Join address', () => act(() => joinTyped()), 'servers-direct-join');
  direct.dataset['primary'] = '';
  const actions = el('div', 'servers-actions');
  const directGroup = el('div', 'servers-group servers-direct');
  directGroup.append(el('span', 'servers-group-label', 'Join an address'), ...kinds, address, direct);
  actions.append(join, watch, star, directGroup);
  const back = menuButton('Back', () => ctx.run(`menu ${ctx.home()}`), 'servers-back');
  back.classList.add('servers-back');
  body.append(toolbar, problem, filters.element, table.element, empty, message, actions, back);

  function act(action: () => void): void {
    note = '';
    action();
    renderMessage();
  }

  function selectedRow(): BrowserRow | null {
    return state.rows.find((r) => r.address === selected) ?? null;
  }

  function joinRow(row: BrowserRow, how: 'join' | 'watch' = 'join'): void {
    note = '';
    const where = safeAddress(row.address);
    if (row.kind === null || row.port === null || where === null) note = `${row.name} cannot be ${how === 'join' ? 'joined' : 'watched'} from here: its ${row.kind === null ? 'kind' : 'address'} is not known`;
    else ctx.run(`servers ${how} ${row.kind} ${where}`);
    renderMessage();
  }

  function joinTyped(): void {
    const text = address.value.trim();
    if (safeAddress(text, true) === null) note = text ? `"${text}" is not an address: type host:port, e.g. 192.168.1.20:6581` : 'type the address of a server first (host:port)';
    else ctx.run(`servers join ${directKind} ${text}`);
  }

  function favourite(row: BrowserRow): void {
    const where = safeAddress(row.address);
    if (row.kind === null || row.port === null || where === null) note = `${row.name} cannot be a favourite: its ${row.kind === null ? 'kind' : 'address'} is not known`;
    else ctx.run(row.favourite ? `favourite remove ${where}` : `favourite add ${where} ${row.kind}`);
    renderMessage();
  }

  function renderActions(): void {
    const row = selectedRow();
    const joinable = row !== null && row.kind !== null && row.port !== null;
    join.disabled = !joinable;
    watch.disabled = !joinable;
    star.disabled = !joinable;
    star.textContent = row?.favourite ? '★ Forget favourite' : '☆ Favourite';
  }

  function renderMessage(): void {
    message.textContent = note || (state.joinError ? joinErrorText(state.joinError) : state.joining ? `${state.joining.watch ? 'connecting to watch' : 'joining'} the ${state.joining.kind} at ${state.joining.address}…` : '');
    message.classList.toggle('servers-joining', !note && !state.joinError && state.joining !== null);
  }

  function render(): void {
    const rows = sortRows(filterRows(state.rows, filters.value()), sort.column, sort.descending);
    table.render(rows, selected, state.status);
    table.sorted(sort.column, sort.descending);
    status.textContent = statusLine(state);
    refresh.textContent = state.status === 'asking' || state.status === 'pinging' ? 'Refreshing…' : 'Refresh';
    problem.textContent = problemText(state);
    problem.hidden = problem.textContent === '';
    empty.textContent = emptyText(state, rows.length);
    empty.hidden = rows.length > 0;
    renderActions();
    renderMessage();
  }

  render();
  return {
    page: 'servers',
    element,
    back: () => `menu ${ctx.home()}`,
    refresh: () => {
      // The first time the page shows, the list is asked for: nobody opens a server browser to look at an empty table.
      if (!refreshedOnce && state.status === 'idle') {
        refreshedOnce = true;
        ctx.run('servers refresh');
      }
    },
    update: (next) => {
      state = { ...emptyBrowserState(), ...next };
      if (state.status !== 'idle') refreshedOnce = true;
      render();
    },
  };
}
