import { Radio, Group, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useEdit } from '../../api/use-live.js';
import { ChangedLabel } from '../../components/ChangedLabel.js';
import { useReportError } from '../../components/form-context.js';
import { useTextDraft } from '../../components/use-text-draft.js';
import { useConfigField } from '../global-config/global-fields.js';
import {
  COUNTRY_HINT,
  COUNTRY_LIMITS,
  type CountryLimit,
  countryLimitChange,
  countryListKey,
  formatCountries,
  parseCountries,
  shownCountryLimit,
} from './countries.js';
import { commitFocusedDraft } from './commit-focused-draft.js';

const parseCodes = (text: string) => parseCountries(text).codes;

function CountryList({ path, label }: { path: string[]; label: string }) {
  const field = useConfigField<string[]>(path);
  const draft = useTextDraft({
    value: field.value,
    format: formatCountries,
    parse: parseCodes,
    onCommit: field.set,
  });
  const error = parseCountries(draft.text).error;
  useReportError(`countries:${path.join('.')}`, error);
  return (
    <TextInput
      label={<ChangedLabel label={label} changed={field.changed} />}
      aria-label={label}
      description={COUNTRY_HINT}
      value={draft.text}
      onChange={(event) => draft.change(event.currentTarget.value)}
      onBlur={draft.blur}
      error={error ?? field.issue}
      maw={500}
    />
  );
}

/** Country limit (spec 001 §4): disabled, whitelist or blacklist; each choice clears the other list. */
export function CountryLimitSection({ base }: { base: string[] }) {
  const authPath = [...base, 'auth'];
  const auth = useConfigField<{ allowed_countries?: string[]; disallowed_countries?: string[] }>(authPath);
  const edit = useEdit();
  const [chosen, setChosen] = useState<CountryLimit>();
  const limit = shownCountryLimit(auth.value, chosen);
  const listKey = countryListKey(limit);

  const choose = (next: CountryLimit) => {
    commitFocusedDraft();
    setChosen(next);
    for (const [key, value] of Object.entries(countryLimitChange())) edit([...authPath, key], value);
  };

  return (
    <Stack gap="xs">
      <Radio.Group label="Country limit" value={limit} onChange={(value) => choose(value as CountryLimit)}>
        <Group gap="md" mt={4}>
          {COUNTRY_LIMITS.map((value) => (
            <Radio key={value} value={value} label={value} />
          ))}
        </Group>
      </Radio.Group>
      {listKey === 'allowed_countries' && (
        <CountryList path={[...authPath, listKey]} label="Allowed countries" />
      )}
      {listKey === 'disallowed_countries' && (
        <CountryList path={[...authPath, listKey]} label="Disallowed countries" />
      )}
    </Stack>
  );
}
