// Settings from main (environment, key state, keychain, language) and the mutations that change them.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { call, onEvent } from '../../lib/desktop.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import type { MethodInputOf } from '../../lib/ipc-types.ts';
import { setUiLanguage } from '../../i18n/index.ts';
import { applyTheme } from '../../lib/theme.ts';

/** The settings (one shared query). Cheap to call from many components: it subscribes to nothing else. */
export const settingsQuery = queryOptions({ queryKey: queryKeys.settings(), queryFn: () => call('settingsGet', {}), staleTime: Infinity });

export function useSettings() {
  return useQuery(settingsQuery);
}

/**
 * Keeps the settings query fresh (main's settings and service events) and applies the language and theme to the
 * document. Mounted once, by App: run per component, every session header scrolling into view re-set
 * `<html lang>`, which restyles the whole document (~10 ms a frame in the gallery-scroll bench).
 */
export function useSettingsSync(): void {
  const client = useQueryClient();
  const query = useSettings();
  useEffect(() => {
    const refresh = () => void client.invalidateQueries({ queryKey: queryKeys.settings() });
    const offs = [onEvent('settings:changed', refresh), onEvent('service:status', refresh)];
    // Events before this point went unheard, and the start-up answer was asked for as the window opened: ask once
    // more (nothing re-renders when nothing changed). Not from inside this effect: App's own useSettings() checks,
    // in an effect that runs after this one, that its query result is still the one it rendered, and a refetch
    // under way differs (its fetch status), so App, and with it the whole tree, would render again before the first
    // paint. A microtask runs once React has run every effect of the commit.
    let live = true;
    queueMicrotask(() => {
      if (live) refresh();
    });
    return () => {
      live = false;
      offs.forEach((off) => off());
    };
  }, [client]);
  const language = query.data?.language;
  useEffect(() => {
    if (language) setUiLanguage(language);
  }, [language]);
  const theme = query.data?.theme;
  useEffect(() => {
    if (theme) applyTheme(theme);
  }, [theme]);
}

function useSettingsMutation<K extends 'settingsSetLanguage' | 'settingsSetTheme' | 'environmentSelect' | 'environmentSetRemote' | 'keySet' | 'keyClear'>(name: K) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: MethodInputOf<K>) => call(name, input),
    onSuccess: (state) => {
      client.setQueryData(queryKeys.settings(), state);
      // Another environment means another library view and another local console.
      if (name === 'environmentSelect' || name === 'keySet' || name === 'keyClear') void client.invalidateQueries();
    },
  });
}

export const useSetLanguage = () => useSettingsMutation('settingsSetLanguage');
export const useSetTheme = () => useSettingsMutation('settingsSetTheme');
export const useSelectEnvironment = () => useSettingsMutation('environmentSelect');
export const useSetRemote = () => useSettingsMutation('environmentSetRemote');
export const useSetKey = () => useSettingsMutation('keySet');
export const useClearKey = () => useSettingsMutation('keyClear');

export function useTestConnection() {
  return useMutation({ mutationFn: (input: MethodInputOf<'keyTest'>) => call('keyTest', input) });
}
