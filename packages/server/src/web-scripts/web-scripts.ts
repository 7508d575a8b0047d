import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAbsolute, resolve, sep } from 'node:path';
import type { Config } from '@sluice/api';
import { normalPrefix, webScriptProblem } from './web-script-config.js';
import { contentTypeOf, scriptFilePath } from './web-script-path.js';

/** How often a missing folder is looked for again (its notice goes within this once it exists). */
const RECHECK_MS = 3000;
/** The file a script's `extra` parameters are served as, at `/{prefix}/web_script.json`. */
export const EXTRA_FILE = 'web_script.json';

interface Active {
  key: string;
  prefix: string;
  root: string;
  extra: Record<string, string>;
}

/**
 * `web_script PREFIX PATH k=v…`: the files of PATH served at /PREFIX/ (GET and HEAD; a folder's
 * index.html; `/PREFIX` redirects to `/PREFIX/`), and the `extra` parameters as JSON at
 * /PREFIX/web_script.json for the application to read. Asked after playback, so a stream's or a
 * VOD's URL is never shadowed; a prefix that clashes (webScriptProblem) or a missing folder is a
 * header notice, and the others are served.
 */
export class WebScripts {
  private active: Active[] = [];
  private problems = new Map<string, string>();
  private missing = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly baseDir: string) {
    this.timer = setInterval(() => void this.checkFolders(), RECHECK_MS);
    this.timer.unref();
  }

  async apply(config: Config): Promise<void> {
    const active: Active[] = [];
    this.problems.clear();
    for (const [key, script] of Object.entries(config.web_scripts ?? {})) {
      const problem = webScriptProblem(config, key);
      if (problem) {
        this.problems.set(key, problem);
        continue;
      }
      const path = script.path!;
      active.push({
        key,
        prefix: normalPrefix(script.prefix ?? key),
        root: isAbsolute(path) ? path : resolve(this.baseDir, path),
        extra: script.extra ?? {},
      });
    }
    // Longest prefix first: /app/docs is asked before /app.
    this.active = active.sort((a, b) => b.prefix.length - a.prefix.length);
    await this.checkFolders();
  }

  /** Header notices: error_web_script_<prefix> for a clash or a missing folder. */
  notices(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [key, text] of [...this.problems, ...this.missing])
      out[`error_web_script_${key.replace(/[^A-Za-z0-9]/g, '_')}`] = text;
    return out;
  }

  close(): void {
    clearInterval(this.timer);
  }

  /** Answers a request under a web script's prefix; false for anything else. */
  readonly handle = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (this.active.length === 0 || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    for (const script of this.active) {
      const base = `/${script.prefix}`;
      if (path === base) {
        res.writeHead(301, { location: `${base}/${q < 0 ? '' : url.slice(q)}` }).end();
        return true;
      }
      if (!path.startsWith(`${base}/`)) continue;
      void this.serve(script, path.slice(base.length + 1), req, res);
      return true;
    }
    return false;
  };

  private async serve(
    script: Active,
    rest: string,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const fail = (status: number, text: string) => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${text}\n`);
    };
    try {
      if (rest === EXTRA_FILE) {
        const body = JSON.stringify({ prefix: script.prefix, extra: script.extra });
        res.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'no-cache',
        });
        return void res.end(req.method === 'HEAD' ? undefined : body);
      }
      const found = scriptFilePath(script.root, rest);
      if ('refused' in found) return fail(found.refused === 'bad path' ? 400 : 404, found.refused);
      // A symlink inside the folder that points out of it is refused like `..`.
      const [real, realRoot] = await Promise.all([realpath(found.file), realpath(script.root)]);
      if (!real.startsWith(realRoot + sep)) return fail(404, 'not found');
      const info = await stat(real);
      if (!info.isFile()) return fail(404, 'not found');
      res.writeHead(200, {
        'content-type': contentTypeOf(real),
        'content-length': info.size,
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
      });
      if (req.method === 'HEAD') return void res.end();
      const stream = createReadStream(real);
      stream.on('error', () => res.destroy());
      res.on('close', () => stream.destroy());
      stream.pipe(res);
    } catch {
      fail(404, 'not found');
    }
  }

  private async checkFolders(): Promise<void> {
    const missing = new Map<string, string>();
    for (const script of this.active) {
      const ok = await stat(script.root).then(
        (s) => s.isDirectory(),
        () => false,
      );
      if (!ok)
        missing.set(
          script.key,
          `Web script /${script.prefix}: folder ${script.root} is missing or not a folder; it answers 404 until it exists`,
        );
    }
    this.missing = missing;
  }
}
