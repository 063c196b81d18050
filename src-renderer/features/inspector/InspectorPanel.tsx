// The webhook inspector page (DESIGN.md §1): receiver, deliveries grouped by delivery id, the verdict of the
// selected attempt, paste to verify, and send a test notification.
import { useText } from '../../i18n/text.ts';
import { DeliveryDetail } from './DeliveryDetail.tsx';
import { DeliveryList } from './DeliveryList.tsx';
import { inspectorText } from './i18n.ts';
import { PasteVerifyForm } from './PasteVerifyForm.tsx';
import { ReceiverCard } from './ReceiverCard.tsx';
import { SendTestForm } from './SendTestForm.tsx';

export function InspectorPanel() {
  const t = useText(inspectorText);
  return (
    <div className="page inspector-page" data-testid="inspector-panel">
      <h2 className="page-title">
        {t('title')} <span className="muted small">{t('subtitle')}</span>
      </h2>
      <ReceiverCard />
      <div className="inspector-columns">
        <DeliveryList />
        <DeliveryDetail />
      </div>
      <div className="card-grid">
        <PasteVerifyForm />
        <SendTestForm />
      </div>
    </div>
  );
}
