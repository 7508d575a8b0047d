import { createHash } from 'node:crypto';
import { type ConfigDocument, type DocumentState, startsOf, stateOf } from './document.js';
import type { Entry } from './tree.js';

/**
 * The revision of a config text: a hash of the text alone, so the same text has the same revision
 * after a restart (read_raw_config's ETag, If-Match, the revision log's conflict check). It is a
 * sha256 over the sha256 of each page of PAGE_ENTRIES top-level entries (page text: the entries'
 * leading, own and trailing text) and the closing text. The pages follow the text's parse, so
 * they are the same whichever way the document was made; an edit that keeps every entry object
 * of a page (a splice keeps all but the edited ones) keeps that page's hash: an edit of one
 * stream hashes ~20 KB, not the 1.7 MB of a 20,000-stream file (~2–5 ms an edit on this machine).
 */
const PAGE_ENTRIES = 256;

interface Pages {
  entries: readonly Entry[];
  digests: Buffer[];
  revision: string;
}

const pagesOf = new WeakMap<DocumentState, Pages>();
/** The pages of the document a next document was merged over, until its revision is asked for. */
const handedOn = new WeakMap<DocumentState, Pages>();

/** `next` was merged over `previous`: its revision may reuse the hashes of unchanged pages. */
export function handOnPages(previous: DocumentState, next: DocumentState): void {
  const pages = pagesOf.get(previous);
  if (pages) handedOn.set(next, pages);
}

function samePage(a: readonly Entry[], b: readonly Entry[], from: number, to: number): boolean {
  if (a.length < to || b.length < to) return false;
  for (let i = from; i < to; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function revisionOf(document: ConfigDocument): string {
  const state = stateOf(document);
  const known = pagesOf.get(state);
  if (known) return known.revision;
  const before = handedOn.get(state);
  handedOn.delete(state);
  const { entries } = state.tree;
  const starts = startsOf(state);
  const digests: Buffer[] = [];
  const whole = createHash('sha256');
  for (let page = 0, from = 0; from < entries.length; page++, from += PAGE_ENTRIES) {
    const to = Math.min(entries.length, from + PAGE_ENTRIES);
    const kept = before?.digests[page];
    const digest =
      kept && samePage(before.entries, entries, from, to)
        ? kept
        : createHash('sha256').update(state.text.slice(starts[from], starts[to])).digest();
    digests.push(digest);
    whole.update(digest);
  }
  whole.update(state.text.slice(starts[entries.length]));
  const revision = whole.digest('base64url').slice(0, 22);
  pagesOf.set(state, { entries, digests, revision });
  return revision;
}
