/** The CLI's outside world, injectable for tests. */
export interface CliIO {
  out(s: string): void;
  err(s: string): void;
  /** Reads all of stdin. */
  readStdin(): Promise<string>;
  /** Reads stdin line by line (for --jsonl). */
  stdinLines(): AsyncIterable<string>;
  cwd: string;
}

export function nodeIO(): CliIO {
  // A closed pipe (`appset render … | head`) ends the output, like other Unix tools, not a crash.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
  return {
    out: (s) => void process.stdout.write(s),
    err: (s) => void process.stderr.write(s),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    stdinLines: () => {
      const readline = require('readline') as typeof import('readline');
      return readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
    },
    cwd: process.cwd(),
  };
}
