import { Button, Group } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import type { useItemSaveFlow } from '../../api/use-item-save-flow.js';
import { SaveStatus } from '../../components/SaveStatus.js';
import { ConfirmModal } from './ConfirmModal.js';
import { DISABLE_CONFIRMATION, NO_TRACKS_CONFIRMATION, SAVE_DELAY_MS } from './transcoder-constants.js';
import { enabledDefaults, isEnabled, videoTracks } from './transcoder-model.js';
import { useCopiedSettings } from './use-copied-settings.js';
import type { TranscoderAccess } from './use-transcoder.js';

interface TranscoderActionsProps {
  transcoder: TranscoderAccess;
  flow: ReturnType<typeof useItemSaveFlow>;
  /** Called when the transcoder is switched on or replaced, to open its first track. */
  onReplaced: (firstTrack: string | null) => void;
}

const firstTrack = (t: Parameters<typeof videoTracks>[0]) => videoTracks(t)[0]?.[0] ?? null;

/**
 * Save, Disable transcoder, Enable transcoder, Enable and paste settings, Copy settings and Paste
 * settings (spec 001 §2, §4 "Transcoder"), with the two confirmations of §5.
 */
export function TranscoderActions({ transcoder, flow, onReplaced }: TranscoderActionsProps) {
  const { value, replace } = transcoder;
  const enabled = isEnabled(value);
  const { copied, copy } = useCopiedSettings();
  const [asking, setAsking] = useState<'no-tracks' | 'disable' | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  // Spec 001 §9: with tracks, Save waits 100 ms, so the blur of the field being left commits first.
  const saveSoon = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void flow.save(), SAVE_DELAY_MS);
  };
  const onSave = () => (enabled && videoTracks(value).length === 0 ? setAsking('no-tracks') : saveSoon());
  const paste = () => {
    if (!copied) return;
    replace(structuredClone(copied));
    onReplaced(firstTrack(copied));
  };
  const disable = () => {
    setAsking(null);
    replace(null);
    onReplaced(null);
    void flow.save();
  };

  return (
    <Group gap="sm">
      <Button onClick={onSave} disabled={!flow.canSave}>
        Save
      </Button>
      {enabled ? (
        <>
          <Button variant="default" color="red" onClick={() => setAsking('disable')}>
            Disable transcoder
          </Button>
          <Button variant="default" onClick={() => copy(value)}>
            Copy settings
          </Button>
          <Button variant="default" onClick={paste} disabled={!copied}>
            Paste settings
          </Button>
        </>
      ) : (
        <>
          <Button
            variant="default"
            onClick={() => {
              replace(enabledDefaults());
              onReplaced('0');
            }}
          >
            Enable transcoder
          </Button>
          <Button variant="default" onClick={paste} disabled={!copied}>
            Enable and paste settings
          </Button>
        </>
      )}
      <SaveStatus status={flow.status} />
      <ConfirmModal
        opened={asking === 'no-tracks'}
        title="Save"
        question={NO_TRACKS_CONFIRMATION}
        confirmLabel="Save"
        onConfirm={() => {
          setAsking(null);
          saveSoon();
        }}
        onCancel={() => setAsking(null)}
      />
      <ConfirmModal
        opened={asking === 'disable'}
        title="Disable transcoder"
        question={DISABLE_CONFIRMATION}
        confirmLabel="Reset and save"
        onConfirm={disable}
        onCancel={() => setAsking(null)}
      />
    </Group>
  );
}
