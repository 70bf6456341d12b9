/** The read-only hooks the renderer exposes on window (see src/renderer/src/main.ts). */
interface Window {
  __starlane?: {
    ready: boolean;
    consoleText(): string;
    tick(): number;
    rendered(): number;
    ship(): { speed: number; lasers: number };
    remotes(): { slot: number; name: string; pos: { x: number; y: number; z: number } }[];
    chat(): string[];
  };
}
