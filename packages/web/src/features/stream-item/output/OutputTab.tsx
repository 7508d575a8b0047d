import { useMemo } from 'react';
import { ItemForm } from '../../item-page/ItemForm.js';
import { useMediaName } from '../../item-page/use-media-name.js';
import { FlagField, IntegerField, SecondsField } from '../stream-fields.js';
import { AdditionalOptions } from './AdditionalOptions.js';
import { ProtocolUrls } from './ProtocolUrls.js';
import { PublishingBlock } from './PublishingBlock.js';
import { PushUrls } from './PushUrls.js';

/** The stream's output tab (spec 001 §2 Output), saved as one delta keyed by the stream. */
export function OutputTab() {
  const name = useMediaName();
  const base = useMemo(() => ['streams', name], [name]);
  return (
    <ItemForm base={base} gap="lg" maw={900}>
      <ProtocolUrls name={name} />
      <FlagField path={[...base, 'thumbnails', 'enabled']} label="Thumbnails" />
      <IntegerField path={[...base, 'max_sessions']} label="Max sessions" />
      <SecondsField
        path={[...base, 'clients_timeout']}
        label="Client timeout"
        description="After this timeout from last client ondemand stream will be turned off"
      />
      <AdditionalOptions base={base} />
      <PushUrls base={base} />
      <PublishingBlock name={name} />
    </ItemForm>
  );
}
