// The local server's credentials.json console session: minted on first start, kept while it has
// life left, re-minted when it is about to expire.
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { createLocalDeps } from '../../functions/compose/local';
import { ensureDevCredentials } from '../../functions/dev-runtime/identity/bootstrap';
import { ManualClock } from '../../functions/platform/clock';

const DAY = 24 * 3600 * 1000;

describe('development console token', () => {
  it('is an owner session for the development organization, valid 30 days, re-minted near expiry', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ces-console-token-'));
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const deps = createLocalDeps({ dataDir, clock });
    const first = await ensureDevCredentials(deps, dataDir, 'http://localhost:1');
    const claims = decodeJwt(first.credentials.consoleToken!);
    expect(claims).toMatchObject({ org_id: first.credentials.organizationId, role: 'owner' });
    expect(claims.exp! - claims.iat!).toBe(30 * 24 * 3600);
    expect(statSync(join(dataDir, 'console-idp.json')).mode & 0o777).toBe(0o600);

    clock.advance(28 * DAY);
    const kept = await ensureDevCredentials(deps, dataDir, 'http://localhost:2');
    expect(kept.created).toBe(false);
    expect(kept.credentials.consoleToken).toBe(first.credentials.consoleToken);

    clock.advance(1.5 * DAY); // less than a day left
    const renewed = await ensureDevCredentials(deps, dataDir, 'http://localhost:2');
    expect(renewed.credentials.consoleToken).not.toBe(first.credentials.consoleToken);
    expect(decodeJwt(renewed.credentials.consoleToken!).exp! * 1000).toBe(clock.now() + 30 * DAY);
  });
});
