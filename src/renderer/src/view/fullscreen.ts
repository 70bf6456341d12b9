/**
 * Fullscreen from the keyboard, as desktop games do: Alt+Enter in both
 * shells, and F11 in the browser shell (in the Electron window F11 is the
 * application menu's). Both go through the Fullscreen API, which Electron
 * turns into a fullscreen window.
 */

/** Whether `e` asks for fullscreen in `shell`. */
export function isFullscreenKey(e: Pick<KeyboardEvent, 'code' | 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey'>, shell: 'electron' | 'browser'): boolean {
  if (e.code === 'Enter' || e.code === 'NumpadEnter') return e.altKey && !e.ctrlKey && !e.metaKey;
  return e.code === 'F11' && shell === 'browser' && !e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey;
}

/** Enters fullscreen, or leaves it; a refusal (no user gesture, no API) is said in `say`. */
export function toggleFullscreen(doc: Document, say: (line: string) => void): void {
  const done = doc.fullscreenElement ? doc.exitFullscreen() : doc.documentElement.requestFullscreen();
  void done.catch((err: unknown) => say(`fullscreen: ${err instanceof Error ? err.message : String(err)}`));
}
