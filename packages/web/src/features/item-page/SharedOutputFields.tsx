import { IntegerField, SecondsField } from '../stream-item/stream-fields.js';

/** The output settings a location or a mirror hands to each of its streams (spec 001 §2): Max sessions and Client timeout. */
export function SharedOutputFields({ base }: { base: string[] }) {
  return (
    <>
      <IntegerField path={[...base, 'auth', 'max_sessions']} label="Max sessions" />
      <SecondsField
        path={[...base, 'clients_timeout']}
        label="Client timeout"
        description="After this timeout from last client ondemand stream will be turned off"
      />
    </>
  );
}
