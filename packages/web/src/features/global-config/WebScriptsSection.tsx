import { Fieldset, Stack } from '@mantine/core';
import { ChangedLabel } from '../../components/ChangedLabel.js';
import { useReportError } from '../../components/form-context.js';
import { nextRowId, useRowDraft } from '../../components/use-row-draft.js';
import { useConfigField } from './global-fields.js';
import {
  isEmptyScript,
  rowsToScripts,
  scriptErrors,
  scriptsToRows,
  type WebScriptRow,
  type WebScripts,
} from './web-script-rows.js';
import { WebScriptRowEditor } from './WebScriptRowEditor.js';

const toRows = (scripts: WebScripts | null | undefined) => scriptsToRows(scripts, nextRowId);
const emptyRow = (): WebScriptRow => ({ id: nextRowId(), prefix: '', path: '', extra: '' });

/** Web scripts (spec 000 §2): prefix, path, extra params; empty rows go on blur, a new row is always last. */
export function WebScriptsSection() {
  const field = useConfigField<WebScripts>(['web_scripts']);
  const draft = useRowDraft({
    value: field.value,
    toRows,
    fromRows: rowsToScripts,
    emptyRow,
    isEmpty: isEmptyScript,
    validate: scriptErrors,
    onCommit: field.set,
  });
  useReportError('web-scripts', draft.errors.values().next().value);

  return (
    <Fieldset legend={<ChangedLabel label="Web scripts" changed={field.changed} />}>
      <Stack gap={6}>
        {draft.rows.map((row, index) => (
          <WebScriptRowEditor
            key={row.id}
            row={row}
            index={index}
            error={draft.errors.get(row.id)}
            onChange={(patch) => draft.update(row.id, patch)}
            onLeave={() => draft.blurRow(row.id)}
          />
        ))}
      </Stack>
    </Fieldset>
  );
}
