import { describeBrowser } from './browser';

/**
 * The e2e project's setup: decide the browser once and say which it is, or stop
 * the run at once with one line saying how to get one.
 */
export async function setup(): Promise<void> {
  try {
    console.log(await describeBrowser());
  } catch (err) {
    const line = (err as Error).message.split('\n')[0] ?? String(err);
    const stop = new Error(`e2e: ${line}`);
    stop.stack = stop.message;
    throw stop;
  }
}
