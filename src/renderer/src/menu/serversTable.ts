/**
 * The server browser's table (issue 24): one row per server — favourite
 * star, name, kind, solar systems, players, ping, address — with sortable
 * column headers.
 * Rows are focusable (the menu's Up/Down reach them) and the focused row is
 * the selected one; a double click, Enter, or a gamepad's A on a row joins
 * it; a click on the star keeps or forgets it. Rows are kept per address and
 * updated in place, so pings filling in never take the focus or a click away.
 * Every text comes from the network: it is set as text, never as markup.
 */
import type { BrowserColumn, BrowserRow } from '../../../shared/servers/browserModel';
import type { BrowserState } from '../../../shared/servers/browserState';
import { pingText, playersText, systemsText } from '../../../shared/servers/browserWords';
import { el } from './menuPanel';

export interface TableEvents {
  /** A row got the focus (by mouse, keys or pad). */
  select(row: BrowserRow): void;
  join(row: BrowserRow): void;
  star(row: BrowserRow): void;
  /** A column header was pressed. */
  sort(column: BrowserColumn): void;
}

const COLUMNS: { column: BrowserColumn; label: string }[] = [
  { column: 'name', label: 'Name' },
  { column: 'kind', label: 'Kind' },
  { column: 'systems', label: 'Systems' },
  { column: 'players', label: 'Players' },
  { column: 'ping', label: 'Ping' },
  { column: 'address', label: 'Address' },
];

interface RowView {
  tr: HTMLTableRowElement;
  cells: HTMLTableCellElement[];
  row: BrowserRow;
}

export function serversTable(events: TableEvents) {
  const wrap = el('div', 'servers-table-wrap');
  const table = el('table', 'servers-table');
  table.id = 'servers-table';
  const head = el('tr');
  const star = el('th', 'servers-star-col', '★');
  star.title = 'favourite';
  head.append(star);
  const headers = new Map<BrowserColumn, { th: HTMLTableCellElement; button: HTMLButtonElement }>();
  for (const { column, label } of COLUMNS) {
    const th = el('th', `servers-col-${column}`);
    const button = el('button', 'servers-sort', label);
    button.type = 'button';
    button.id = `servers-sort-${column}`;
    button.addEventListener('click', () => events.sort(column));
    th.append(button);
    head.append(th);
    headers.set(column, { th, button });
  }
  const thead = el('thead');
  thead.append(head);
  const tbody = el('tbody');
  table.append(thead, tbody);
  wrap.append(table);

  const views = new Map<string, RowView>();
  const viewOf = (target: EventTarget | null): RowView | null => {
    const tr = target instanceof Element ? target.closest('tr') : null;
    const address = tr?.dataset['address'];
    return address === undefined ? null : (views.get(address) ?? null);
  };
  tbody.addEventListener('focusin', (e) => {
    const v = viewOf(e.target);
    if (v) events.select(v.row);
  });
  tbody.addEventListener('click', (e) => {
    const v = viewOf(e.target);
    if (!v) return;
    if (e.target instanceof Element && e.target.closest('.servers-star')) return events.star(v.row);
    // A click with no pointer behind it (detail 0) is the gamepad's A or a script: it joins, as Enter does.
    if (e.detail === 0) events.join(v.row);
    else v.tr.focus();
  });
  tbody.addEventListener('dblclick', (e) => {
    const v = viewOf(e.target);
    if (v && !(e.target instanceof Element && e.target.closest('.servers-star'))) events.join(v.row);
  });
  tbody.addEventListener('keydown', (e) => {
    const v = viewOf(e.target);
    if (v && e.key === 'Enter' && !e.repeat) {
      e.preventDefault();
      events.join(v.row);
    }
  });

  const fill = (v: RowView, status: BrowserState['status']) => {
    const r = v.row;
    const texts = [r.favourite ? '★' : '☆', r.name, r.kind ?? '?', systemsText(r), playersText(r), pingText(r, status), r.address];
    texts.forEach((t, i) => {
      const cell = v.cells[i] as HTMLTableCellElement;
      if (cell.textContent !== t) cell.textContent = t;
    });
    (v.cells[3] as HTMLTableCellElement).title = r.systems.length === 0 ? 'no solar systems listed' : `solar systems: ${r.systems.join(', ')}`;
    (v.cells[0] as HTMLTableCellElement).title = r.favourite ? 'a favourite: click to forget it' : 'click to keep it as a favourite';
    v.tr.classList.toggle('servers-favourite', r.favourite === true);
    v.tr.classList.toggle('servers-silent', r.pingMs === null && status === 'done');
  };

  return {
    element: wrap,
    /** Shows `rows` in this order; `selected` is the selected row's address. */
    render(rows: readonly BrowserRow[], selected: string | null, status: BrowserState['status']): void {
      const keep = new Set<string>();
      const focused = document.activeElement instanceof HTMLElement && tbody.contains(document.activeElement) ? document.activeElement : null;
      let at = 0;
      for (const row of rows) {
        keep.add(row.address);
        let v = views.get(row.address);
        if (!v) {
          const tr = el('tr', 'servers-row');
          tr.tabIndex = 0;
          tr.dataset['address'] = row.address;
          const cells = [el('td', 'servers-star'), ...COLUMNS.map(({ column }) => el('td', `servers-col-${column}`))];
          tr.append(...cells);
          v = { tr, cells, row };
          views.set(row.address, v);
        }
        v.row = row;
        fill(v, status);
        v.tr.setAttribute('aria-selected', String(row.address === selected));
        // In order, moving only what is out of place (a moved row keeps its focus).
        if (tbody.children[at] !== v.tr) tbody.insertBefore(v.tr, tbody.children[at] ?? null);
        at += 1;
      }
      for (const [address, v] of views) {
        if (keep.has(address)) continue;
        v.tr.remove();
        views.delete(address);
      }
      // A row moved by a new order loses the focus on the way: it gets it back.
      if (focused?.isConnected && document.activeElement !== focused) focused.focus({ preventScroll: true });
    },
    /** Marks the sorted column (and its direction) on its header. */
    sorted(column: BrowserColumn | undefined, descending: boolean): void {
      for (const [c, { th, button }] of headers) {
        const on = c === column;
        th.setAttribute('aria-sort', on ? (descending ? 'descending' : 'ascending') : 'none');
        button.textContent = `${COLUMNS.find((x) => x.column === c)?.label ?? c}${on ? (descending ? ' ▼' : ' ▲') : ''}`;
      }
    },
    /** Marks `address` selected without rebuilding anything. */
    select(address: string | null): void {
      for (const [a, v] of views) v.tr.setAttribute('aria-selected', String(a === address));
    },
    /** The row element of `address`, if shown. */
    rowElement(address: string): HTMLElement | null {
      return views.get(address)?.tr ?? null;
    },
  };
}
