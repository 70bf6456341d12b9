/** The two DOM chores every overlay of the view does: find its elements, and change a text only when it differs. */

/** The element with `id`; a page without it is a build error worth a clear message. */
export function byId(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`page is missing #${id}`);
  return el;
}

/** Sets `el`'s text to `text` if it is not that already (no needless layout work every frame). */
export function setText(el: HTMLElement, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}
