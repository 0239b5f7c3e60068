import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Drawer, Group, Loader, Modal, ScrollArea, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { missingAlarmPopup } from '../../../domain/permissions/alarm-popup.ts';
import type { RegistryEntry } from '../../../domain/permissions/registry.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { useAccess } from '../../session/store.ts';
import { privApi, roleApi } from './api.ts';
import { SYSTEM_NS } from './messages.ts';
import { PermissionTree } from './permission-tree.ts';
import { PermTreeView } from './PermTreeView.tsx';
import type { PermissionRecord, Role } from './types.ts';
import { errorMessage } from './ui/format.ts';

type Loaded = { tree: PermissionTree<PermissionRecord>; initial: ReadonlySet<number> };

/**
 * The grant of one role as a checkbox tree of the registry (GET /permissions), saved with
 * POST /role/role_permissions. A non-administrator can only grant what it holds itself (the
 * server refuses the rest with 403), so those boxes are disabled here. Names only; an administrator
 * can show ids. Saving a monitoring or safety role without the /global alarm pop-up asks first.
 */
export function RolePermissionsDrawer({ role, canSave, onClose, onSaved }: { role: Role; canSave: boolean; onClose: () => void; onSaved: () => void }) {
  const t = useT(SYSTEM_NS);
  const access = useAccess();
  const [loaded, setLoaded] = useState<Loaded | undefined>(undefined);
  const [failed, setFailed] = useState<string | undefined>(undefined);
  const [granted, setGranted] = useState<ReadonlySet<number>>(new Set());
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const [keyword, setKeyword] = useState('');
  const [saving, setSaving] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [showIds, setShowIds] = useState(false);
  const [popupWarning, setPopupWarning] = useState<RegistryEntry[] | undefined>(undefined);
  const lang = useLang();

  useEffect(() => {
    let stale = false;
    Promise.all([privApi.registry(), roleApi.permissions(role.id)]).then(
      ([records, current]) => {
        if (stale) return;
        const initial = new Set(current.permissionIds);
        setLoaded({ tree: new PermissionTree(records), initial });
        setGranted(initial);
        setFailed(undefined);
      },
      (e: unknown) => !stale && setFailed(errorMessage(e)),
    );
    return () => {
      stale = true;
    };
  }, [role.id, attempt]);

  const visible = useMemo(() => loaded?.tree.matching(keyword), [loaded, keyword]);
  const dirty = loaded !== undefined && !sameSet(loaded.initial, granted);

  const save = async () => {
    setPopupWarning(undefined);
    setSaving(true);
    try {
      await roleApi.savePermissions(role.id, [...granted].sort((a, b) => a - b));
      notifications.show({ color: 'green', message: t('role.permSaved'), autoClose: 2000 });
      onSaved();
    } catch {
      // the client toasted the server's message; the edits stay for another try
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer opened onClose={() => !saving && onClose()} position="right" size="lg" title={t('role.permTitle', { name: role.name })}>
      {failed && (
        <Alert color="red" role="alert">
          {failed}{' '}
          <Button size="compact-xs" variant="subtle" onClick={() => setAttempt((n) => n + 1)}>
            {t('common.retry')}
          </Button>
        </Alert>
      )}
      {!loaded && !failed && (
        <Group justify="center" p="lg">
          <Loader size="sm" aria-label={t('common.loading')} />
        </Group>
      )}
      {loaded && (
        <Stack gap="xs" h="calc(100vh - 110px)">
          <Group gap="xs" wrap="nowrap">
            {access.isAdmin && <Switch size="xs" label={t('role.showIds')} checked={showIds} onChange={(e) => setShowIds(e.currentTarget.checked)} data-testid="perm-show-ids" />}
            <TextInput size="xs" style={{ flex: 1 }} placeholder={t('priv.searchPlaceholder')} aria-label={t('priv.searchPlaceholder')} value={keyword} onChange={(e) => setKeyword(e.currentTarget.value)} />
            <Button size="xs" variant="default" onClick={() => setExpanded(new Set(loaded.tree.allIds()))}>
              {t('role.expandAll')}
            </Button>
            <Button size="xs" variant="default" onClick={() => setExpanded(new Set())}>
              {t('role.collapseAll')}
            </Button>
          </Group>
          <ScrollArea style={{ flex: 1 }} type="auto">
            <PermTreeView
              tree={loaded.tree}
              visible={visible}
              expanded={expanded}
              onExpandedChange={setExpanded}
              showIds={showIds}
              mode={{
                kind: 'check',
                granted,
                onToggle: (id, on) => setGranted(loaded.tree.setGranted(granted, id, on)),
                disabled: (id) => !canSave || !access.hasId(id),
              }}
            />
          </ScrollArea>
          <Group justify="space-between">
            <Text size="sm" c={dirty ? 'orange' : 'dimmed'}>
              {t('role.grantedCount', { count: granted.size, total: loaded.tree.size })}
              {dirty ? ` · ${t('role.unsaved')}` : ''}
            </Text>
            <Group gap="xs">
              <Button variant="default" onClick={onClose} disabled={saving}>
                {t('common.close')}
              </Button>
              {canSave && (
                <Button
                  onClick={() => {
                    const groups = missingAlarmPopup(granted);
                    if (groups.length > 0) setPopupWarning(groups);
                    else void save();
                  }}
                  loading={saving}
                  disabled={!dirty}
                  data-testid="perm-save"
                  data-perm="/system/role:update"
                >
                  {t('common.save')}
                </Button>
              )}
            </Group>
          </Group>
        </Stack>
      )}
      <Modal opened={popupWarning !== undefined} onClose={() => setPopupWarning(undefined)} title={t('role.popupTitle')} centered size="md" data-testid="popup-warning">
        <Text size="sm">{t('role.popupWarn', { groups: (popupWarning ?? []).map((g) => (lang === 'en' ? g.en : g.zh)).join('、') })}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setPopupWarning(undefined)}>
            {t('role.popupBack')}
          </Button>
          <Button color="orange" onClick={() => void save()} data-testid="popup-save-anyway">
            {t('role.popupSaveAnyway')}
          </Button>
        </Group>
      </Modal>
    </Drawer>
  );
}

function sameSet(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}
