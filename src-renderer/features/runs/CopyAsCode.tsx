// "Copy as code" for a turn: curl or TypeScript fetch with $STUDIO_API_KEY, never the key itself.
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
      <CopyButton text={code.typescript} label={t('turn.copyFetch')} testId="copy-fetch" />
    </>
  );
}
