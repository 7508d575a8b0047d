import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text assets worth compressing; images and fonts in their own formats are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;

/**
 * Writes NAME.br and NAME.gz beside every text file of the build, once, at the highest levels
 * (brotli 11, gzip 9): the server sends them as they are (console-static.ts), so no request pays
 * for compressing. A variant no smaller than the file is not written.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'sluice-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    // The files of this build by name, not a walk of the folder: another build may share it.
    writeBundle(_options, bundle) {
      for (const name of Object.keys(bundle).filter((n) => COMPRESSIBLE.test(n))) {
        const path = join(outDir, name);
        const bytes = readFileSync(path);
        const brotli = brotliCompressSync(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        });
        const gzip = gzipSync(bytes, { level: 9 });
        if (brotli.length < bytes.length) writeFileSync(`${path}.br`, brotli);
        if (gzip.length < bytes.length) writeFileSync(`${path}.gz`, gzip);
      }
    },
  };
}
