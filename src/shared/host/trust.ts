/**
 * Whether a message claiming to come from the game page really does: the
 * sending frame must be the game window's main frame and its document must be
 * the game's own page (same scheme, host and path; query and fragment are
 * ignored). Anything else — a subframe, a navigated-away page, another file —
 * is untrusted. Pure, so both the Electron shell and tests can use it.
 */
export function isTrustedSender(sender: { isGameWindow: boolean; isMainFrame: boolean; frameUrl: string | null }, gameUrl: string): boolean {
  if (!sender.isGameWindow || !sender.isMainFrame || sender.frameUrl === null) return false;
  const page = (url: string): string | null => {
    try {
      const u = new URL(url);
      return `${u.protocol}//${u.host}${u.pathname}`;
    } catch {
      return null;
    }
  };
  const expected = page(gameUrl);
  return expected !== null && page(sender.frameUrl) === expected;
}
