/**
 * The form of an active-safety block (0xF364 ADAS / 0xF365 DSM): every field of the standard's layout
 * (domain/terminal-params/active-safety.ts) grouped as the standard groups them, with its label in the
 * user's language, its unit and its range; choices as a select, bit masks in hex.
 */
import { NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { blockFields, type ActiveSafetyBlock, type BlockField, type BlockLayout } from '../../../domain/terminal-params/active-safety.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { TERMINAL_PARAMS_NS } from './messages.ts';

const hex = (v: number) => `0x${v.toString(16).toUpperCase().padStart(8, '0')}`;

function FieldInput({ field, value, onChange }: { field: BlockField; value: number; onChange(v: number): void }) {
  const t = useT(TERMINAL_PARAMS_NS);
  const lang = useLang();
  const label = `${lang === 'zh' ? field.zh : field.en}${field.unit ? ` (${field.unit})` : ''}`;
  const testId = `block-${field.key}`;
  if (field.options) {
    return (
      <Select size="xs" label={label} allowDeselect={false} value={String(value)} onChange={(v) => v !== null && onChange(Number(v))}
        data={field.options.map((o) => ({ value: String(o.value), label: `${o.value} · ${lang === 'zh' ? o.zh : o.en}` }))} data-testid={testId} />
    );
  }
  if (field.mask) {
    return (
      <TextInput size="xs" label={label} defaultValue={hex(value)} key={value}
        onBlur={(e) => { const n = Number.parseInt(e.currentTarget.value.replace(/^0x/i, ''), 16); if (Number.isInteger(n) && n >= 0 && n <= field.max) onChange(n); else e.currentTarget.value = hex(value); }}
        data-testid={testId} />
    );
  }
  return (
    <NumberInput size="xs" label={label} description={t('range', { min: field.min, max: field.max })} min={field.min} max={field.max} allowDecimal={false} allowNegative={false}
      value={value} onChange={(v) => typeof v === 'number' && onChange(v)} data-testid={testId} />
  );
}

export function BlockForm({ layout, value, onChange }: { layout: BlockLayout; value: ActiveSafetyBlock; onChange(next: ActiveSafetyBlock): void }) {
  const t = useT(TERMINAL_PARAMS_NS);
  const fields = blockFields(layout);
  const groups = [...new Set(fields.map((f) => f.group))];
  return (
    <Stack gap="sm" data-testid={`block-form-${layout.key}`}>
      {groups.map((g) => (
        <Stack key={g} gap={4}>
          <Text fw={600}>{t(`group.${g}`)}</Text>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="xs">
            {fields.filter((f) => f.group === g).map((f) => (
              <FieldInput key={f.key} field={f} value={value[f.key] ?? f.def} onChange={(v) => onChange({ ...value, [f.key]: v })} />
            ))}
          </SimpleGrid>
        </Stack>
      ))}
    </Stack>
  );
}
