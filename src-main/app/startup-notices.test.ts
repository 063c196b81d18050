// The notice for a rebuilt service.db names what was kept and where the damaged file is, and tells a rebuild from the
// damaged file alone, one the backup filled in, and one that kept nothing (Local starts a new account) apart.
import { describe, expect, it } from 'vitest';
import type { ServiceRecovery } from '../../src-service/start.ts';
import { serviceRecoveryNotice } from './startup-notices.ts';

const recovery: ServiceRecovery = {
  at: '2026-11-26T22:06:55.234Z',
  reason: 'quick_check_failed',
  damaged_path: '/data/local-service/service.db.damaged-2026-11-26T220655234Z',
  backup_taken_at: null,
  salvaged: { accounts: 1, api_keys: 1, images: 3 },
  from_backup: {},
  unreadable: ['sessions'],
  dropped: { key_usage: 2 },
  accounts: ['acc_0000000001'],
  files_set_aside: 0,
  files_folder: null,
};

describe('serviceRecoveryNotice', () => {
  it('rows from the damaged file alone: service_salvaged, with what was kept, what was not, and the kept file', () => {
    expect(serviceRecoveryNotice(recovery)).toEqual({
      code: 'service_salvaged',
      params: {
        damagedPath: recovery.damaged_path,
        reason: 'quick_check_failed',
        kept: 'accounts 1, api_keys 1, images 3',
        backupDate: '',
        notSalvaged: 'sessions, key_usage 2',
      },
    });
  });

  it('the backup filled something in: service_restored with its date, the counts added up by table', () => {
    const notice = serviceRecoveryNotice({ ...recovery, backup_taken_at: '2026-11-26T21:58:01.002Z', from_backup: { images: 2, turns: 1 } });
    expect(notice.code).toBe('service_restored');
    expect(notice.params).toMatchObject({ backupDate: '2026-11-26T21:58:01.002Z', kept: 'accounts 1, api_keys 1, images 5, turns 1' });
  });

  it('no account kept (nothing readable, no backup): service_reset, and a missing file has no path', () => {
    const notice = serviceRecoveryNotice({ ...recovery, reason: 'missing', damaged_path: null, salvaged: {}, accounts: [] });
    expect(notice).toMatchObject({ code: 'service_reset', params: { damagedPath: '', reason: 'missing', kept: '' } });
  });
});
