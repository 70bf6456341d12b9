/**
 * HTML for the servers' status pages. Everything that came from a client or
 * another server (names, OS strings, URLs) goes through {@link escapeHtml};
 * URLs are only linked when they are plain http(s).
 */

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `url` as a link when it is an absolute http(s) URL, otherwise as escaped text. */
export function linkOrText(url: string, label = url): string {
  try {
    const u = new URL(url);
    if (u.protocol === 'http:' || u.protocol === 'https:') return `<a href="${escapeHtml(u.href)}" rel="nofollow noopener">${escapeHtml(label)}</a>`;
  } catch {
    /* not a URL: shown as text */
  }
  return escapeHtml(label);
}

/** A complete status page: a title, one paragraph of escaped text per `intro` line, a table with escaped cells (cells marked `html` are trusted markup). */
export function statusPage(
  title: string,
  intro: string | readonly string[],
  columns: readonly string[],
  rows: readonly (readonly (string | { html: string })[])[],
  refreshSeconds = 10,
): string {
  const cell = (c: string | { html: string }) => (typeof c === 'string' ? escapeHtml(c) : c.html);
  const body = rows.length
    ? rows.map((r) => `<tr>${r.map((c) => `<td>${cell(c)}</td>`).join('')}</tr>`).join('\n')
    : `<tr><td colspan="${columns.length}">(none)</td></tr>`;
  const paragraphs = (typeof intro === 'string' ? [intro] : intro).map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="${refreshSeconds}">
<title>${escapeHtml(title)}</title>
<style>body{font-family:sans-serif;background:#050914;color:#cfe3ff}table{border-collapse:collapse}td,th{padding:4px 10px;border-bottom:1px solid #234}a{color:#9fc4ff}</style>
</head><body><h1>${escapeHtml(title)}</h1>${paragraphs}
<table><thead><tr>${columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr></thead>
<tbody>
${body}
</tbody></table></body></html>
`;
}
