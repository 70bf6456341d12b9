import { describeBrowser } from './browser';

/**
 * The e2e project's setup (it runs only when e2e files are in the run): decide
 * the browser once and say which it is, or end the run at once with one line
 * saying how to get one, before any test has started anything.
 */
export async function setup(): Promise<void> {
  let line: string;
  try {
    line = await describeBrowser();
  } catch (err) {
    process.stderr.write(`\ne2e: ${(err as Error).message.split('\n')[0] ?? String(err)}\n`);
    process.exit(1);
  }
  console.log(line);
}
