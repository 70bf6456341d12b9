/**
 * Reading a Dockerfile for the image recipe test: its stages and each
 * stage's instructions (comments dropped, `\` continuations joined, JSON
 * (exec) form arguments parsed), and `ARG`s substituted in `FROM` lines.
 * Only what the repository's Dockerfile uses; not a general parser.
 */

export interface Instruction {
  /** Upper-case keyword: FROM, COPY, RUN, … */
  op: string;
  /** The rest of the line, continuations joined by a space. */
  args: string;
}

export interface Stage {
  /** The image it starts from, ARGs substituted (`node:22-slim`). */
  from: string;
  /** Its name (`AS build`), or null. */
  name: string | null;
  instructions: Instruction[];
}

/** The instructions of `text` in order. */
export function instructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (pending === '' && /^\s*(#|$)/.test(line)) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    const whole = (pending + line.trim()).trim();
    pending = '';
    const m = /^(\S+)\s*(.*)$/.exec(whole);
    if (m) out.push({ op: (m[1] as string).toUpperCase(), args: m[2] as string });
  }
  return out;
}

/** The stages of `text`; ARGs before the first FROM fill `${NAME}` in FROM lines. */
export function stages(text: string): Stage[] {
  const args = new Map<string, string>();
  const result: Stage[] = [];
  for (const ins of instructions(text)) {
    if (ins.op === 'ARG' && result.length === 0) {
      const [name, value = ''] = ins.args.split('=');
      args.set((name as string).trim(), value.trim());
    } else if (ins.op === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args);
      if (!m) throw new Error(`Dockerfile: cannot read FROM ${ins.args}`);
      const from = (m[1] as string).replace(/\$\{(\w+)\}/g, (_, n: string) => args.get(n) ?? '');
      result.push({ from, name: m[2] ?? null, instructions: [] });
    } else {
      const stage = result[result.length - 1];
      if (!stage) throw new Error(`Dockerfile: ${ins.op} before FROM`);
      stage.instructions.push(ins);
    }
  }
  return result;
}

/** An exec-form argument list (`["node", "x.js"]`), or null for the shell form. */
export function execForm(args: string): string[] | null {
  if (!args.trimStart().startsWith('[')) return null;
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string')) throw new Error(`Dockerfile: not a list of strings: ${args}`);
  return parsed as string[];
}

/** A COPY's flags (`--from=build`), sources and destination. */
export function copyOf(args: string): { from: string | null; sources: string[]; dest: string } {
  const words = execForm(args) ?? args.split(/\s+/).filter((w) => w !== '');
  const flags = words.filter((w) => w.startsWith('--'));
  const paths = words.filter((w) => !w.startsWith('--'));
  for (const f of flags) if (!/^--(from|chown)=/.test(f)) throw new Error(`Dockerfile: COPY flag ${f} is not one the recipe test follows`);
  const from = flags.find((f) => f.startsWith('--from='))?.slice('--from='.length) ?? null;
  if (paths.length < 2) throw new Error(`Dockerfile: COPY needs a source and a destination: ${args}`);
  return { from, sources: paths.slice(0, -1), dest: paths[paths.length - 1] as string };
}
