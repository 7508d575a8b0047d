import { Stack } from '@mantine/core';
import { useMediaName } from '../item-page/use-media-name.js';
import { LivePlayer } from './LivePlayer.js';
import { LogPanel } from './LogPanel.js';
import { MediaInfoPanel } from './MediaInfoPanel.js';
import { StreamIdentityForm } from './StreamIdentityForm.js';
import { StreamStateControls } from './StreamStateControls.js';
import { TrafficChart } from './TrafficChart.js';

/** The stream's overview tab (spec 001 §2). */
export function OverviewTab() {
  const name = useMediaName();
  return (
    <Stack gap="lg">
      <StreamIdentityForm name={name} />
      <StreamStateControls name={name} />
      <TrafficChart name={name} />
      <MediaInfoPanel name={name} />
      <LivePlayer name={name} />
      <LogPanel name={name} />
    </Stack>
  );
}
