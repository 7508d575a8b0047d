import { Stack } from '@mantine/core';
import { LocationsSection } from './LocationsSection.js';
import { MediaItemPane } from './MediaItemPane.js';
import classes from './media-page.module.css';
import { OriginServersSection } from './OriginServersSection.js';
import { PlayProvider } from './play-context.js';
import { StreamsPage } from './StreamsPage.js';
import { useSelectedItem } from './use-selected-item.js';
import { VodSection } from './VodSection.js';

/**
 * The media list (route root, spec 000 §2) and the frame of every media item page: with an item
 * selected (route parameter mediaName) the lists narrow to a column beside it. They stay mounted
 * either way, so opening an item keeps the list's state. On a narrow screen the item's page
 * replaces the list instead (media-page.module.css).
 */
export function MediaPage() {
  const selected = useSelectedItem();
  const compact = selected !== undefined;
  const selectedStream = selected?.route === 'stream-item' ? selected.name : undefined;
  const selectedLive =
    selected?.route === 'location-item' || selected?.route === 'published-item' ? selected.name : undefined;
  const selectedMirror = selected?.route === 'mirror-item' ? selected.name : undefined;
  const selectedMirrored = selected?.route === 'mirrored-item' ? selected.name : undefined;
  const selectedVod =
    selected?.route === 'vod-item' || selected?.route === 'file-item' ? selected.name : undefined;
  return (
    <PlayProvider>
      <div className={classes.layout} data-compact={compact || undefined}>
        <Stack gap="xl" className={classes.list}>
          <StreamsPage selected={selectedStream} compact={compact} />
          <LocationsSection selected={selectedLive} compact={compact} />
          <OriginServersSection
            selectedMirror={selectedMirror}
            selectedStream={selectedMirrored}
            compact={compact}
          />
          <VodSection selected={selectedVod} compact={compact} />
        </Stack>
        {compact && (
          <div className={classes.pane}>
            <MediaItemPane />
          </div>
        )}
      </div>
    </PlayProvider>
  );
}
