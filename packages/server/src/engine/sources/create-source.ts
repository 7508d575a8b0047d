import { remuxArgs, testSourceArgs } from '../ffmpeg/args.js';
import type { SourcePlan } from '../source-url.js';
import type { PublishSlots } from '../publish-slots.js';
import { FfmpegSource } from './ffmpeg-source.js';
import { HttpTsSource } from './http-ts-source.js';
import { PublishSource } from './publish-source.js';
import type { Source, SourceEvents } from './source.js';
import { UdpSource } from './udp-source.js';

export interface SourceContext {
  ffmpegPath: string;
  /** The environment of ffmpeg children (it carries the owner mark, see ffmpeg/leftovers.ts). */
  childEnv: NodeJS.ProcessEnv;
  /** Where publish:// sources wait for their publishers. */
  slots: PublishSlots;
  /** The uploaded logos' folder, for transcoder logo overlays (transcoder/logo-store.ts). */
  logoDir?: string;
}

/** The stream a source belongs to, for publish:// sources. */
export interface SourceOwner {
  name: string;
  password: string | undefined;
  onPublish: string | undefined;
  /** The cluster key tshttp pulls prove (stream cluster_key, or a mirror's). */
  clusterKey?: string | undefined;
}

/** Builds the driver a plan calls for. */
export function createSource(
  plan: SourcePlan,
  label: string,
  timeoutMs: number,
  events: SourceEvents,
  context: SourceContext,
  owner: SourceOwner,
): Source {
  switch (plan.kind) {
    case 'publish':
      return new PublishSource(
        { ...owner, slots: context.slots, binary: context.ffmpegPath, env: context.childEnv },
        events,
      );
    case 'udp':
      return new UdpSource(plan, events);
    case 'tshttp':
      return new HttpTsSource(owner.clusterKey ? { ...plan, clusterKey: owner.clusterKey } : plan, events);
    case 'remux':
    case 'test':
      return new FfmpegSource(
        {
          binary: context.ffmpegPath,
          args: plan.kind === 'test' ? testSourceArgs(plan.options) : remuxArgs(plan.input),
          env: context.childEnv,
          staleTimeoutMs: timeoutMs,
          label,
        },
        events,
      );
  }
}

/** A URL fit for logs and errors: the password, if any, replaced. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/:@]*):[^/@]*@/i, '$1:***@');
}
