/**
 * Command-line arguments for the project's commands: `--help` prints the usage and exits 0; a mistake
 * (an unknown option, a missing value, a stray argument) prints one line and the usage and exits 2. No
 * stack trace for anything a person typed.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export type Options = NonNullable<ParseArgsConfig['options']>;

/** What a command takes: its usage text and its options (strings and flags). */
export interface CommandSpec<O extends Options> {
  usage: string;
  options: O;
  /** Positional arguments it accepts, at most. */
  positionals?: number;
}

export type Parsed<O extends Options> =
  | {
      ok: true;
      values: {
        [K in keyof O]: O[K] extends { type: 'boolean' } ? boolean : O[K] extends { default: string } ? string : string | undefined;
      };
      positionals: string[];
    }
  | { ok: false; exitCode: number };

/** Parses `args`; prints the usage (stdout for --help, stderr after a mistake) and says how to exit when there is nothing to run. */
export function parseCommandLine<O extends Options>(spec: CommandSpec<O>, args: string[]): Parsed<O> {
  try {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: { ...spec.options, help: { type: 'boolean', short: 'h' } },
    });
    if ((values as { help?: boolean }).help) {
      console.log(spec.usage);
      return { ok: false, exitCode: 0 };
    }
    if (positionals.length > (spec.positionals ?? 0)) throw new Error(`unexpected argument "${positionals.at(-1)}"`);
    return { ok: true, values: values as never, positionals };
  } catch (error) {
    // Node's messages name the option ("Unknown option '--nope'"); the rest of its text is for programmers.
    const message = error instanceof Error ? error.message.split('. ')[0]!.replace(/^TypeError \[\w+\]: /, '') : String(error);
    console.error(`error: ${message}\n\n${spec.usage}`);
    return { ok: false, exitCode: 2 };
  }
}

/** Output piped into a command that stops reading (`npm run build | head`) ends quietly, not with a stack trace. */
export function quietOnClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
}
