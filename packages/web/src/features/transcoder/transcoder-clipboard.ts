import { type Transcoder, transcoder } from '@sluice/api';
import { CLIPBOARD_KEY } from './transcoder-constants.js';

/** The part of the browser's Storage the clipboard uses (a test passes a Map-backed one). */
export type SettingsStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** Copy settings: the transcoder as it shows, unsaved edits included, kept in local storage. */
export function copySettings(storage: SettingsStorage, settings: Transcoder): void {
  storage.setItem(CLIPBOARD_KEY, JSON.stringify(settings));
}

/**
 * The copied settings, or undefined when nothing usable was copied: the stored text is checked
 * against the config schema, since another version of the console may have written it.
 */
export function readCopiedSettings(storage: SettingsStorage): Transcoder | undefined {
  const text = storage.getItem(CLIPBOARD_KEY);
  if (text === null) return undefined;
  try {
    const parsed = transcoder.safeParse(JSON.parse(text));
    return parsed.success && Object.keys(parsed.data).length > 0 ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
