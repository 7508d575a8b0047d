import { mediaName } from '@sluice/api';

/** Spec 000 §8, 001 §8: a name already taken. */
export const NAME_USED = 'this name is already used';

/** '{label} is required' (spec 001 §5). */
export const required = (label: string) => `${label} is required`;

/** Whitespace is stripped as it is typed (spec 000 §5 Location name). */
export const stripWhitespace = (text: string): string => text.replace(/\s+/g, '');

/** The config schema's complaint about a name, if any (no whitespace, no .. segment, …). */
function schemaProblem(name: string): string | undefined {
  const result = mediaName.safeParse(name);
  return result.success ? undefined : result.error.issues[0]?.message;
}

/**
 * Why a new location can't be created with `name` (spec 000 §5): required, and not a name a
 * location or a VOD already has. An empty name only disables create; it says nothing.
 */
export function locationNameProblem(
  name: string,
  taken: { lives?: object | undefined; vods?: object | undefined },
): string | undefined {
  if (!name) return undefined;
  if (Object.hasOwn(taken.lives ?? {}, name) || Object.hasOwn(taken.vods ?? {}, name)) return NAME_USED;
  return schemaProblem(name);
}

/** Why a new stream can't be created with `name`: required, a valid name, unique among streams. */
export function streamNameProblem(name: string, streams: object | undefined): string | undefined {
  if (!name) return required('Name');
  if (Object.hasOwn(streams ?? {}, name)) return NAME_USED;
  return schemaProblem(name);
}
