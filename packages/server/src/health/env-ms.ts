/**
 * A product timer's period from the environment, in ms, when set to a positive number; its default
 * otherwise. Tests shorten a timer this way rather than wait it out (issue 26); operators have no
 * reason to: each variable is listed in docs/api.md beside the notice it times.
 */
export function envMs(name: string, fallbackMs: number, env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env[name]);
  return env[name] && Number.isFinite(value) && value > 0 ? value : fallbackMs;
}
