/**
 * `npm run demo -- <command>` / `node out/main/demo.js`: the demo tool
 * (docs/DEMO.md).
 * - `info <file>`: the header, chunk counts, length and players, and where
 *   and why the file stops; exit status 0 for a whole file or a crash's
 *   prefix, 1 for one damaged before its end or not a demo at all.
 * - `verify <dir>`: a line for every `.sldemo` file in the folder; exit
 *   status 1 if any is damaged before its last chunk or is no demo.
 * - `play <file>`: replays a client demo headless as fast as it goes (the
 *   console's timedemo without a window), printing every digest the replay
 *   checks and timedemo's figures; exit status 1 if it is refused, a
 *   digest differs or a chunk cannot be played.
 * A missing file or folder is exit status 2 with the reason.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import { APP_VERSION } from '../version';
import { infoLines, verifyLine } from './demoReport';
import { readDemo } from '../../shared/demo/demoFormat';
import { GamePlayback } from '../../shared/demo/gamePlayback';
import { timedemo, timedemoLine } from '../../shared/demo/timedemo';
import { crc32 } from './demoCrc';

/** Exit status for a file or folder that cannot be read at all. */
const EXIT_UNREADABLE = 2;

async function readOrSay(path: string): Promise<Uint8Array | null> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (err) {
    console.error(`demo: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    process.exitCode = EXIT_UNREADABLE;
    return null;
  }
}

const program = new Command('demo')
  .description('Reads Starlane demo files (.sldemo): what they hold and whether they are whole')
  .version(APP_VERSION)
  .showHelpAfterError();

program
  .command('info')
  .description('print a demo file\'s header, chunk counts, length and players, and where and why it stops')
  .argument('<file>', 'a .sldemo file')
  .action(async (file: string) => {
    const bytes = await readOrSay(file);
    if (!bytes) return;
    const { lines, verdict } = infoLines(file, bytes);
    for (const l of lines) console.log(l);
    if (verdict === 'damaged' || verdict === 'not-a-demo') process.exitCode = 1;
  });

program
  .command('verify')
  .description('check every .sldemo file in a folder; exit status 1 if any is damaged before its last chunk or is no demo')
  .argument('<dir>', 'a folder of demo files (e.g. the user-data demos/ folder)')
  .action(async (dir: string) => {
    let names: string[];
    try {
      names = (await readdir(dir)).filter((n) => n.endsWith('.sldemo')).sort();
    } catch (err) {
      console.error(`demo: cannot read the folder ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      process.exitCode = EXIT_UNREADABLE;
      return;
    }
    let bad = 0;
    for (const name of names) {
      const bytes = await readOrSay(join(dir, name));
      if (!bytes) {
        bad += 1;
        continue;
      }
      const { line, verdict } = verifyLine(name, bytes);
      console.log(line);
      if (verdict === 'damaged' || verdict === 'not-a-demo') bad += 1;
    }
    console.log(`${names.length} demo file(s) in ${dir}: ${names.length - bad} whole or playable up to a crash, ${bad} damaged or unreadable`);
    if (bad > 0 && process.exitCode !== EXIT_UNREADABLE) process.exitCode = 1;
  });

program
  .command('play')
  .description('replay a client demo headless as fast as it goes: every digest checked against the replayed game, then timedemo\'s figures; exit status 1 if it is refused, a digest differs or a chunk cannot be played')
  .argument('<file>', 'a .sldemo file')
  .option('--json', 'one JSON line per digest {"event":"demo-digest","tick","hash","frame","matches"} and a last {"event":"timedemo",…}', false)
  .action(async (file: string, o: { json: boolean }) => {
    const bytes = await readOrSay(file);
    if (!bytes) return;
    const read = readDemo(bytes, crc32);
    if (!read.ok) {
      console.error(`demo: ${file} is not a Starlane demo: ${read.detail} (${read.why})`);
      process.exitCode = 1;
      return;
    }
    const opened = GamePlayback.open(read, APP_VERSION);
    if (!opened.ok) {
      console.error(`demo: cannot play ${file}: ${opened.reason}`);
      process.exitCode = 1;
      return;
    }
    const p = opened.playback;
    p.hooks.digest = (d) => {
      const matches = d.hash === d.recorded;
      if (o.json) console.log(JSON.stringify({ event: 'demo-digest', tick: d.tick, hash: d.hash, frame: d.frame, matches }));
      else console.log(`${d.frame ? 'frame' : 'tick'} ${d.tick}: ${d.hash}${matches ? '' : ` — the recording had ${d.recorded}`}`);
    };
    const r = timedemo(p, () => performance.now());
    const { checked, matched, differed } = p.digests;
    const digests = `digests: ${checked} checked, ${matched} matched, ${differed.length} differed`;
    if (o.json) console.log(JSON.stringify({ event: 'timedemo', ...r, checked, matched, differed: differed.length, failure: p.failure }));
    else console.log(`${timedemoLine(file, r)}; ${digests}`);
    if (p.failure) console.error(`demo: playback stopped at ${p.failure}`);
    if (p.failure || differed.length > 0) process.exitCode = 1;
  });

program.parseAsync().catch((err: unknown) => {
  process.stderr.write(`demo: ${(err as Error).message}\n`);
  process.exit(1);
});
