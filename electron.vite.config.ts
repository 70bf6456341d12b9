import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';

/**
 * Three builds, one per runtime:
 * - main: every Node entry (the Electron main process, the browser shell, the headless bot, the servers, the demo tool);
 * - preload: CommonJS, because a sandboxed preload cannot load ES modules;
 * - renderer: the game page, served by Electron or by the browser shell.
 */
export default defineConfig({
  main: {
    build: {
      externalizeDeps: true,
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          web: resolve(__dirname, 'src/node/web/cli.ts'),
          bot: resolve(__dirname, 'src/node/bot/cli.ts'),
          server: resolve(__dirname, 'src/node/servers/cli.ts'),
          demo: resolve(__dirname, 'src/node/demo/cli.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      externalizeDeps: true,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/renderer/index.html') },
      },
    },
  },
});
