import type { HostApi } from '../../../shared/host/contract';
import { connectWebSocketHost } from './wsHost';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in the browser shell. */
    starlane?: HostApi;
  }
}

/**
 * Finds the host: the Electron preload bridge when present, otherwise the
 * browser shell's WebSocket on the page's own origin with the URL's token.
 */
export async function connectHost(onClose: (reason: string) => void): Promise<HostApi> {
  if (window.starlane) return window.starlane;
  const token = new URLSearchParams(location.search).get('token');
  if (!token) throw new Error('no host: open the address the browser shell printed (it carries a token)');
  const url = `ws://${location.host}/host?token=${encodeURIComponent(token)}`;
  return connectWebSocketHost(url, onClose);
}
