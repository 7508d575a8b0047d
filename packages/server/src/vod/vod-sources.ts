import { extname } from 'node:path';
import type { LocatedFile } from './vod-locate.js';
import type { OpenVodSource, VodSource } from './vod-source.js';

/** The readers of files (vod-source.ts): MP4 and its kin, and everything else. */
export interface VodOpeners {
  mp4: OpenVodSource;
  other: OpenVodSource;
}

/** Files the MP4 reader opens (ISO BMFF and QuickTime); the rest go to the ffmpeg reader. */
const MP4_EXTENSIONS = new Set(['.mp4', '.m4v', '.m4a', '.mp4a', '.mov', '.f4v', '.3gp', '.3g2']);

/** Opened sources kept for players coming back: a 2-hour file's index is parsed once, not per request. */
export const VOD_SOURCES_KEPT = 64;

interface Entry {
  sizeBytes: number;
  mtimeMs: number;
  opening: Promise<VodSource>;
  /** Requests reading from the source now: it is closed only once they are done. */
  users: number;
  evicted: boolean;
}

/** A source borrowed for one answer: `release` once the answer is done with it. */
export interface Borrowed {
  source: VodSource;
  release: () => void;
}

/**
 * The opened sources, least recently used dropped first. A file changed on disk (size or mtime
 * differs from when it was opened) is opened again; a file that failed to open is not tried again
 * until it changes. A source is closed when dropped and no answer is using it.
 */
export class VodSources {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly openers: VodOpeners,
    private readonly kept = VOD_SOURCES_KEPT,
  ) {}

  /** The source of `file`; rejects with the reader's Error (naming the file) when it can't be opened. */
  async borrow(file: LocatedFile): Promise<Borrowed> {
    let entry = this.entries.get(file.absolute);
    if (entry && (entry.sizeBytes !== file.sizeBytes || entry.mtimeMs !== file.mtimeMs)) {
      this.drop(file.absolute, entry);
      entry = undefined;
    }
    if (entry) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(file.absolute);
      this.entries.set(file.absolute, entry);
    } else {
      entry = {
        sizeBytes: file.sizeBytes,
        mtimeMs: file.mtimeMs,
        opening: this.open(file),
        users: 0,
        evicted: false,
      };
      // A failed open is kept too: the same damaged file is not parsed again on every request.
      entry.opening.catch(() => undefined);
      this.entries.set(file.absolute, entry);
      this.trim();
    }
    const held = entry;
    held.users++;
    try {
      const source = await held.opening;
      let released = false;
      return {
        source,
        release: () => {
          if (released) return;
          released = true;
          this.unuse(held);
        },
      };
    } catch (error) {
      this.unuse(held);
      throw error;
    }
  }

  /** The source of `file` if it is open already (the tracks of a file being downloaded). */
  async peek(file: LocatedFile): Promise<VodSource | undefined> {
    const entry = this.entries.get(file.absolute);
    if (!entry || entry.sizeBytes !== file.sizeBytes || entry.mtimeMs !== file.mtimeMs) return undefined;
    return entry.opening.catch(() => undefined);
  }

  /** Forgets the source of a file that is gone from disk. */
  forget(absolute: string): void {
    const entry = this.entries.get(absolute);
    if (entry) this.drop(absolute, entry);
  }

  get size(): number {
    return this.entries.size;
  }

  close(): void {
    for (const [path, entry] of [...this.entries]) this.drop(path, entry);
  }

  private open(file: LocatedFile): Promise<VodSource> {
    const opener = MP4_EXTENSIONS.has(extname(file.absolute).toLowerCase())
      ? this.openers.mp4
      : this.openers.other;
    return opener(file.absolute);
  }

  private trim(): void {
    for (const [path, entry] of this.entries) {
      if (this.entries.size <= this.kept) break;
      this.drop(path, entry);
    }
  }

  private drop(path: string, entry: Entry): void {
    if (this.entries.get(path) === entry) this.entries.delete(path);
    entry.evicted = true;
    if (entry.users === 0) closeWhenOpen(entry);
  }

  private unuse(entry: Entry): void {
    entry.users--;
    if (entry.evicted && entry.users === 0) closeWhenOpen(entry);
  }
}

function closeWhenOpen(entry: Entry): void {
  entry.opening.then(
    (source) => source.close(),
    () => undefined,
  );
}
