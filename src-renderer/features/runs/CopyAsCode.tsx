// "Copy as code" for a turn: curl, Node or Python (requests) with $STUDIO_API_KEY, never the key itself; each waits the
// full 5 minutes, sends X-Client-Turn-Id and downloads the files (src-shared/copy-as-code.ts).
import { generateRequestAsCode } from '../../../src-shared/copy-as-code.ts';
import type { TurnRecord } from '../../../src-shared/ipc/generation.ts';
import { appText, useText } from '../../i18n/text.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useSettings } from '../settings/index.ts';

export function CopyAsCode({ turn }: { turn: TurnRecord }) {
  const t = useText(appText);
  const language = useLanguage();
  const settings = useSettings().data;
  const baseUrl = settings?.environments[turn.environment].baseUrl ?? 'https://api.example.com';
  const code = generateRequestAsCode({ baseUrl, request: turn.request, serviceSessionId: turn.serviceSessionId, language });
  return (
    <>
      <CopyButton text={code.curl} label={t('turn.copyCurl')} testId="copy-curl" />
      <CopyButton text={code.node} label={t('turn.copyFetch')} testId="copy-fetch" />
      <CopyButton text={code.python} label={t('turn.copyPython')} testId="copy-python" />
    </>
  );
}
