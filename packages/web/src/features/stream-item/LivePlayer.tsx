import { Button, SegmentedControl, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useAdminToken, withAdminToken } from '../auth/admin-token.js';
import { playbackUrl } from '../media-list/play-url.js';
import { LiveVideo } from '../media-list/LiveVideo.js';
import { embedCode, embedUrl } from './embed-code.js';
import { useStream, useStreamStats } from './use-stream.js';
import { WebrtcVideo } from './WebrtcVideo.js';
import { whepUrl } from './whep-session.js';

/** Spec 001 §9: player minimum height 480 plus 40 px. */
const PLAYER_MIN_HEIGHT_PX = 520;

/** The live player (spec 001 §4): shown when static or after a click; none for a disabled stream. */
export function LivePlayer({ name }: { name: string }) {
  const stream = useStream(name);
  const [clicked, setClicked] = useState(false);
  // HLS, or WebRTC playback over WHEP (the spec has no text for the choice: "WebRTC" is ours).
  const [kind, setKind] = useState('HLS');
  const token = useAdminToken();
  // The playlist exists once the stream runs; loading it before would fail the player for good.
  const alive = useStreamStats(name)?.alive === true;
  if (stream?.disabled === true) return null;
  const url = embedUrl(window.location.origin, name, true);
  return (
    <Stack gap="sm" maw={720}>
      <SegmentedControl
        aria-label="Playback protocol"
        w="fit-content"
        data={['HLS', 'WebRTC']}
        value={kind}
        onChange={setKind}
      />
      {stream?.static === true || clicked ? (
        alive &&
        (kind === 'WebRTC' ? (
          <div style={{ minHeight: PLAYER_MIN_HEIGHT_PX }}>
            <WebrtcVideo src={withAdminToken(whepUrl(name), token)} style={{ height: 480 }} />
          </div>
        ) : (
          <HlsVideo src={withAdminToken(playbackUrl(name), token)} />
        ))
      ) : (
        <Button variant="default" w="fit-content" onClick={() => setClicked(true)}>
          Play
        </Button>
      )}
      <TextInput label="URL" aria-label="URL" readOnly value={url} />
      <TextInput label="HTML code" aria-label="HTML code" readOnly value={embedCode(url)} />
    </Stack>
  );
}

function HlsVideo({ src }: { src: string }) {
  return (
    <div style={{ minHeight: PLAYER_MIN_HEIGHT_PX }}>
      <LiveVideo src={src} style={{ height: 480 }} />
    </div>
  );
}
