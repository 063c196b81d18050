// Recall and the session it goes into: a recall from another session keeps the session continued and offers the
// choice (continue that image's session, or a new one); a recall from the session continued offers nothing.
import { beforeEach, describe, expect, it } from 'vitest';
import { useComposeStore } from './store.ts';

const request = { prompt: 'a mug', model: 'nano-banana-2' as const, n: 1 as const };

describe('recall and the session it continues', () => {
  beforeEach(() => useComposeStore.setState({ session: { id: 'ses_current', title: 'Current' }, serviceSessionId: null, recallOffer: null }));

  it('keeps the session continued and offers the recalled image’s own', () => {
    useComposeStore.getState().recall(request, [], { sessionId: 'ses_other', serviceSessionId: 's_other' });
    expect(useComposeStore.getState()).toMatchObject({ session: { id: 'ses_current' }, recallOffer: { sessionId: 'ses_other' } });
    expect(useComposeStore.getState().draft.prompt).toBe('a mug');
    useComposeStore.getState().answerRecallOffer('continue');
    expect(useComposeStore.getState()).toMatchObject({ session: { id: 'ses_other' }, serviceSessionId: null, recallOffer: null });
  });

  it('starts a new session when asked', () => {
    useComposeStore.getState().recall(request, [], { sessionId: 'ses_other', serviceSessionId: null });
    useComposeStore.getState().answerRecallOffer('new');
    expect(useComposeStore.getState()).toMatchObject({ session: null, serviceSessionId: null, recallOffer: null });
  });

  it('continues by the service’s session id when this library does not have the session (a file from elsewhere)', () => {
    useComposeStore.getState().recall(request, [], { sessionId: null, serviceSessionId: 's_elsewhere' });
    useComposeStore.getState().answerRecallOffer('continue');
    expect(useComposeStore.getState()).toMatchObject({ session: null, serviceSessionId: 's_elsewhere', recallOffer: null });
  });

  it('offers nothing for a recall from the session continued, or without a source', () => {
    useComposeStore.getState().recall(request, [], { sessionId: 'ses_current', serviceSessionId: null });
    expect(useComposeStore.getState().recallOffer).toBeNull();
    useComposeStore.getState().recall(request, []);
    expect(useComposeStore.getState().recallOffer).toBeNull();
  });
});
