import { NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import {
  AUTH_BACKEND_PREFIX,
  type AuthType,
  authBackendName,
  SECURETOKEN_PREFIX,
  stalkerAuthUrl,
  stalkerHost,
} from '@sluice/api';
import { useState } from 'react';
import { useEdit, useGlobal } from '../../api/use-live.js';
import { ChangedLabel } from '../../components/ChangedLabel.js';
import { useReportError } from '../../components/form-context.js';
import { KeyValueEditor } from '../../components/KeyValueEditor.js';
import { useTextDraft } from '../../components/use-text-draft.js';
import { TextField, useConfigField } from '../global-config/global-fields.js';
import { authTypeChange, authTypeOptions, localHttpPort, shownAuthType } from './auth-type.js';
import { commitFocusedDraft } from './commit-focused-draft.js';

const formatText = (value: string | null | undefined) => value ?? '';

/** The part of a url the operator types (a stalker host, a secure token key) around the fixed part; required. */
function UrlPartField({
  path,
  label,
  toPart,
  fromPart,
}: {
  path: string[];
  label: string;
  toPart: (url: string) => string;
  fromPart: (part: string) => string | null;
}) {
  const field = useConfigField<string>(path);
  const draft = useTextDraft({
    value: field.value,
    format: (url: string | null | undefined) => (url ? toPart(url) : ''),
    parse: fromPart,
    onCommit: field.set,
  });
  const missing = draft.text.trim() === '' ? `${label} is required` : undefined;
  useReportError(`required:${label}`, missing);
  return (
    <TextInput
      label={<ChangedLabel label={label} changed={field.changed} />}
      aria-label={label}
      value={draft.text}
      onChange={(event) => draft.change(event.currentTarget.value)}
      onBlur={draft.blur}
      error={missing ?? field.issue}
    />
  );
}

/** Sets the url to a named auth backend (auth://NAME) of the Auth backends page, when there are any. */
function AuthBackendChoice({ url, onChoose }: { url: string | undefined; onChoose: (url: string) => void }) {
  const names = Object.keys(useGlobal('auth_backends') ?? {}).sort();
  if (names.length === 0) return null;
  const chosen = authBackendName(url);
  return (
    <NativeSelect
      label="Auth backend"
      aria-label="Auth backend"
      data={[{ value: '', label: 'choose…' }, ...names.map((n) => ({ value: n, label: n }))]}
      value={chosen !== undefined && names.includes(chosen) ? chosen : ''}
      onChange={(event) => {
        commitFocusedDraft();
        if (event.currentTarget.value !== '') onChoose(`${AUTH_BACKEND_PREFIX}${event.currentTarget.value}`);
      }}
      maw={300}
      mt="xs"
    />
  );
}

const hostToUrl = (host: string) => (host.trim() === '' ? null : stalkerAuthUrl(host));
const keyToUrl = (key: string) => `${SECURETOKEN_PREFIX}${key.trim()}`;
const urlToKey = (url: string) => url.slice(SECURETOKEN_PREFIX.length);

/**
 * Authentication type and its settings (spec 001 §4 "Auth type", §9 Auth): the backend url or the
 * part of it the type leaves to the operator, and the extra key/value options sent to the backend.
 */
export function AuthTypeSection({ base, hasName }: { base: string[]; hasName: boolean }) {
  const urlPath = [...base, 'auth', 'url'];
  const extraPath = [...base, 'auth', 'extra'];
  const url = useConfigField<string>(urlPath);
  const extra = useConfigField<Record<string, string>>(extraPath);
  const edit = useEdit();
  const httpPort = localHttpPort(useGlobal('http'));
  const [chosen, setChosen] = useState<AuthType>();
  const type = shownAuthType(url.value, chosen);

  const choose = (next: AuthType) => {
    commitFocusedDraft();
    setChosen(next);
    const change = authTypeChange(next, httpPort);
    edit(urlPath, change.url);
    if ('extra' in change) edit(extraPath, null);
  };

  return (
    <Stack gap="sm">
      <NativeSelect
        label={<ChangedLabel label="Authentication type" changed={url.changed} />}
        aria-label="Authentication type"
        data={authTypeOptions(hasName)}
        value={type}
        onChange={(event) => choose(event.currentTarget.value as AuthType)}
        maw={300}
      />
      {type === 'custom' && (
        <Stack gap={2}>
          <TextField path={urlPath} label="Backend URL" required />
          <Text size="xs" c="dimmed">
            An HTTP backend, or auth://NAME for an auth backend of the Auth backends page.
          </Text>
          <AuthBackendChoice url={url.value} onChoose={url.set} />
        </Stack>
      )}
      {type === 'stalker' && (
        <UrlPartField path={urlPath} label="Stalker portal host" toPart={stalkerHost} fromPart={hostToUrl} />
      )}
      {type === 'securetoken' && (
        <UrlPartField path={urlPath} label="Secure token key" toPart={urlToKey} fromPart={keyToUrl} />
      )}
      {(type === 'iptv' || type === 'vsaas') && (
        <TextInput label="Auth URL" aria-label="Auth URL" readOnly value={formatText(url.value)} />
      )}
      {type !== 'none' && (
        <KeyValueEditor
          name="auth-extra"
          label={<ChangedLabel label="Extra options" changed={extra.changed} />}
          value={extra.value}
          onChange={extra.set}
        />
      )}
    </Stack>
  );
}
