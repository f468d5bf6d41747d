// The client libraries move with the API document: a changed docs/openapi.json is refused until each
// client's version is bumped and its generated layer regenerated (scripts/clients.ts, run by CI).
import { stampProblem } from '../../scripts/clients';

const stamp = { version: '1.0.0', document_sha256: 'aaa' };

describe('client version stamps', () => {
  it('accept a client generated from the current document at its current version', () => {
    expect(stampProblem('ts', stamp, { version: '1.0.0', documentSha256: 'aaa' })).toBeUndefined();
  });

  it('refuse a changed document while the version stays the same', () => {
    expect(stampProblem('ts', stamp, { version: '1.0.0', documentSha256: 'bbb' })?.kind).toBe('not-bumped');
  });

  it('ask for a regeneration after a bump, and when the stamp is missing', () => {
    expect(stampProblem('ts', stamp, { version: '1.1.0', documentSha256: 'bbb' })?.kind).toBe('stale');
    expect(stampProblem('ts', stamp, { version: '1.1.0', documentSha256: 'aaa' })?.kind).toBe('stale');
    expect(stampProblem('ts', undefined, { version: '1.0.0', documentSha256: 'aaa' })?.kind).toBe('missing');
  });
});
