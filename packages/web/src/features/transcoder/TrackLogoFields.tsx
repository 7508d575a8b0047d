import { Button, FileButton, Group, NativeSelect, TextInput } from '@mantine/core';
import { useTextDraft } from '../../components/use-text-draft.js';
import type { LogoCorner } from '@sluice/api';
import {
  cornerOf,
  CORNERS,
  logoFilePath,
  setLogoCorner,
  setLogoPath,
  type VideoTrack,
} from './transcoder-model.js';
import { useLogos } from './use-logos.js';

type Logo = NonNullable<VideoTrack['logo']>;

const CORNER_LABELS: Record<LogoCorner, string> = {
  top_left: 'top left',
  top_right: 'top right',
  bottom_left: 'bottom left',
  bottom_right: 'bottom right',
};

const formatPath = (logo: Logo | undefined) => logo?.path ?? '';

/**
 * A track's logo (spec 001 §4 "Logo position", §7 logo calls): a path typed (trimmed) or an
 * uploaded file chosen ('@name'), pinned to a corner 10 px in; files are uploaded and deleted here,
 * delete offered only for a file no stream uses.
 */
export function TrackLogoFields({
  logo,
  onChange,
}: {
  logo: Logo | undefined;
  onChange: (logo: Logo | null) => void;
}) {
  const { logos, upload, remove } = useLogos();
  const path = useTextDraft<Logo | undefined, Logo | undefined>({
    value: logo,
    format: formatPath,
    parse: (text) => setLogoPath(logo, text),
    onCommit: (next) => onChange(next ?? null),
  });
  const names = Object.keys(logos).sort();
  const chosen = logo?.path.startsWith('@') ? logo.path.slice(1) : '';
  const corner = cornerOf(logo) ?? '';
  // Spec 001 §7: Delete only for a logo no stream uses.
  const unused = logos[chosen]?.streams.length === 0;

  return (
    <Group gap="md" align="flex-end">
      <TextInput
        label="Logo path"
        aria-label="Logo path"
        value={path.text}
        onChange={(event) => path.change(event.currentTarget.value)}
        onBlur={path.blur}
        w={220}
      />
      <NativeSelect
        label="Logo file"
        aria-label="Logo file"
        data={[
          { value: '', label: '—' },
          ...(names.includes(chosen) || chosen === '' ? names : [...names, chosen]),
        ]}
        value={chosen}
        onChange={(event) => {
          const name = event.currentTarget.value;
          onChange(name === '' ? null : { ...logo, path: logoFilePath(name) });
        }}
        w={180}
      />
      <FileButton onChange={(file) => file && void upload(file.name, file)} accept="image/*">
        {(props) => (
          <Button variant="default" {...props}>
            Upload logo
          </Button>
        )}
      </FileButton>
      {unused && (
        <Button
          variant="subtle"
          color="red"
          // The file is gone: the track no longer points at it.
          onClick={() => void remove(chosen).then((gone) => gone && onChange(null))}
        >
          Delete logo
        </Button>
      )}
      <NativeSelect
        label="Logo position"
        aria-label="Logo position"
        disabled={!logo}
        data={[{ value: '', label: '—' }, ...CORNERS.map((c) => ({ value: c, label: CORNER_LABELS[c] }))]}
        value={corner}
        onChange={(event) => {
          if (!logo) return;
          const next = event.currentTarget.value as LogoCorner | '';
          onChange(setLogoCorner(logo, next === '' ? null : next));
        }}
        w={150}
      />
      {logo && (
        <Button variant="subtle" onClick={() => onChange(null)}>
          Remove logo
        </Button>
      )}
    </Group>
  );
}
