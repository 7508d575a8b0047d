import { Button, Group, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { PULSE_METRICS } from '@sluice/api';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useDebouncedCommit } from '../../components/use-debounced-commit.js';
import { INPUT_DEBOUNCE_MS } from '../../components/use-text-draft.js';
import { QUERY_BLUR_DELAY_MS, canShow, queryError, withMetric } from './query-field.js';

/**
 * The custom query field (spec 000 §2, §5): "invalid format" once typing pauses for the input
 * debounce; "show" disabled while the text is empty or invalid; the metric list under the field
 * while it has focus, kept for the blur delay so a click on a metric lands.
 */
export function PulseQueryField({ initial, onShow }: { initial: string; onShow: (query: string) => void }) {
  const [text, setText] = useState(initial);
  const [checked, setChecked] = useState(initial);
  const [helpOpen, setHelpOpen] = useState(false);
  const debounce = useDebouncedCommit(INPUT_DEBOUNCE_MS);
  const blurTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(blurTimer.current), []);

  const change = (value: string) => {
    setText(value);
    debounce.schedule(() => setChecked(value));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    debounce.flush();
    if (canShow(text)) onShow(text.trim());
  };

  return (
    <form
      onSubmit={submit}
      aria-label="custom query"
      onFocus={() => clearTimeout(blurTimer.current)}
      onBlur={(e) => {
        // Focus moving to a metric of the list keeps it open; leaving the form closes it, late.
        if (e.currentTarget.contains(e.relatedTarget)) return;
        blurTimer.current = setTimeout(() => setHelpOpen(false), QUERY_BLUR_DELAY_MS);
      }}
    >
      <Stack gap={4}>
        <Group align="flex-start" gap="xs" wrap="nowrap">
          <TextInput
            label="Query"
            placeholder="max:1m-savg:cpu_usage"
            value={text}
            onChange={(e) => change(e.currentTarget.value)}
            onFocus={() => setHelpOpen(true)}
            error={queryError(checked)}
            description="group:period-aggregator:metric{tags} — group max, min or sum; period 1s to 1h; aggregator tavg8 for traffic, savg for others"
            style={{ flex: 1 }}
            spellCheck={false}
            autoComplete="off"
          />
          <Button type="submit" disabled={!canShow(text)} mt={46}>
            show
          </Button>
        </Group>
        {helpOpen && (
          <Text size="xs" component="div" role="group" aria-label="metrics">
            Metrics:{' '}
            {PULSE_METRICS.map((metric, i) => (
              <span key={metric}>
                {i > 0 && ', '}
                <UnstyledButton
                  type="button"
                  fz="xs"
                  td="underline"
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => change(withMetric(text, metric))}
                >
                  {metric}
                </UnstyledButton>
              </span>
            ))}
          </Text>
        )}
      </Stack>
    </form>
  );
}
