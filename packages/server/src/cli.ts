import { resolve } from 'node:path';

export interface CliOptions {
  configPath: string;
  /** Interface the HTTP ports bind to. */
  host: string;
  consoleDir: string | undefined;
}

const USAGE = `usage: sluice [--config FILE] [--host ADDRESS] [--console-dir DIR]
  --config FILE       the config file (default data/sluice.conf; written with a random admin password if missing)
  --host ADDRESS      address the HTTP ports bind to (default 0.0.0.0)
  --console-dir DIR   the built console to serve under /admin (default packages/web/dist)`;

/** Parses argv; throws an Error carrying the usage text on anything unknown. */
export function parseArgs(argv: readonly string[], defaults: { consoleDir: string | undefined }): CliOptions {
  const options: CliOptions = {
    configPath: resolve('data/sluice.conf'),
    host: '0.0.0.0',
    consoleDir: defaults.consoleDir,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new Error(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    if (flag === '--config') options.configPath = resolve(value());
    else if (flag === '--host') options.host = value();
    else if (flag === '--console-dir') options.consoleDir = resolve(value());
    else if (flag === '--help' || flag === '-h') throw new Error(USAGE);
    else throw new Error(`unknown argument ${arg}\n${USAGE}`);
  }
  return options;
}
