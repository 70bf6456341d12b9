/**
 * A small recording process for the demo crash test (and the crash bench):
 * `node --import tsx test/support/demoRecorder.ts <file> <flushMs>` records
 * through the real DemoWriter, a text chunk naming its number every
 * millisecond or so, and prints `flushed <chunks> <timeMs>` on stdout after
 * each flush reached the disk (the chunks on it, the time of the last), until it is killed;
 * its first line is `started <epoch ms>`, when the recording started.
 */
import { DemoWriter } from '../../src/node/demo/demoWriter';
import { DemoKind, textBody } from '../../src/shared/demo/demoFormat';
import { demoHeader } from './demoHeader';

const [file, flushArg] = process.argv.slice(2);
if (!file) throw new Error('usage: demoRecorder <file> <flushMs>');
const flushMs = Number(flushArg ?? 50);
const writer = await DemoWriter.create(
  file,
  demoHeader({ protocol: 'offline', seed: 1, server: null, recorder: { slot: 0, name: 'crash-test' }, players: [{ slot: 0, name: 'crash-test' }], startedAt: new Date(0).toISOString() }),
  { flushMs },
);
// When the recording started, by the wall clock (the crash bench measures what a kill loses against it).
process.stdout.write(`started ${Date.now()}\n`);
let n = 0;
let flushes = 0;
setInterval(() => {
  for (let i = 0; i < 4; i++) writer.add(DemoKind.Text, textBody(`chunk ${n++}`));
  if (writer.stats.flushes > flushes) {
    flushes = writer.stats.flushes;
    process.stdout.write(`flushed ${writer.stats.chunksWritten} ${writer.stats.writtenUpToMs}\n`);
  }
}, 1);
