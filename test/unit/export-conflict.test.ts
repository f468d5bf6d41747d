// The export's name rules on values: what each conflict policy does with each holder of a name, the
// numbered names `rename` tries, which provider answers fail one document rather than the export, and
// the names and ids no client lets choose a URL.
import type { ConflictPolicy, NameHolder } from '../../functions/connectors/domain/export-conflict';
import {
  CONFLICT_POLICIES,
  decideConflict,
  numberedName,
  refusesDocument,
} from '../../functions/connectors/domain/export-conflict';
import { nameProblem } from '../../functions/connectors/infra/content/api';
import { ProviderApiError, apiUrl, pathSegment } from '../../functions/connectors/infra/content/http';

describe('an export name conflict', () => {
  const table = (replaces: boolean) =>
    Object.fromEntries(
      CONFLICT_POLICIES.map((policy: ConflictPolicy) => [
        policy,
        Object.fromEntries(
          (['free', 'claimed', 'own', 'ours', 'theirs'] as NameHolder[]).map((holder) => {
            const d = decideConflict(policy, holder, replaces);
            return [holder, d.action === 'fail' ? `fail:${d.reason}` : d.action];
          }),
        ),
      ]),
    );

  it('never replaces a file this service did not create, whatever the policy', () => {
    for (const policy of CONFLICT_POLICIES)
      for (const replaces of [true, false])
        expect(decideConflict(policy, 'theirs', replaces).action).not.toBe('replace');
  });

  it('decides per policy and holder', () => {
    expect(table(true)).toEqual({
      rename: { free: 'upload', claimed: 'upload', own: 'replace', ours: 'rename', theirs: 'rename' },
      skip: { free: 'upload', claimed: 'upload', own: 'replace', ours: 'skip', theirs: 'skip' },
      fail: {
        free: 'upload',
        claimed: 'upload',
        own: 'replace',
        ours: 'fail:name_conflict',
        theirs: 'fail:name_conflict',
      },
      replace: {
        free: 'upload',
        claimed: 'upload',
        own: 'replace',
        ours: 'replace',
        theirs: 'fail:not_ours',
      },
    });
    // A provider that keeps every upload its own file (Clio): our own file is a conflict like another.
    expect(table(false)).toMatchObject({
      rename: { own: 'rename', ours: 'rename' },
      replace: { own: 'fail:name_conflict', ours: 'fail:name_conflict', theirs: 'fail:not_ours' },
    });
  });

  it('numbers names before the extension, keeping dotfiles and extensionless names whole', () => {
    expect(numberedName('Letterhead.txt', 1)).toBe('Letterhead.txt');
    expect(numberedName('Letterhead.txt', 2)).toBe('Letterhead (2).txt');
    expect(numberedName('archive.tar.gz', 3)).toBe('archive.tar (3).gz');
    expect(numberedName('README', 2)).toBe('README (2)');
    expect(numberedName('.env', 2)).toBe('.env (2)');
  });

  it('fails one document for a refusal of that document, the export for the connection or destination', () => {
    for (const status of [400, 409, 412, 413, 415, 422]) expect(refusesDocument(status)).toBe(true);
    for (const status of [undefined, 401, 403, 404, 408, 429, 500, 503])
      expect(refusesDocument(status)).toBe(false);
  });
});

describe('names and ids in provider URLs', () => {
  it('refuses names that are a path segment or hold a separator or a control character', () => {
    for (const name of ['', ' ', '.', '..', 'a/b', '../x', 'a\\b', 'nul\u0000', 'cr\rlf\n', 'del\u007f'])
      expect(nameProblem(name)).toEqual(expect.any(String));
    for (const name of ['Letterhead.txt', '...', '.env', 'a..b', 'Résumé (final).pdf', '%2e%2e'])
      expect(nameProblem(name)).toBeUndefined();
  });

  it('refuses, for every provider alike, bidirectional controls and names over 255 characters', () => {
    // "invoice<RLO>fdp.exe" shows as "invoiceexe.pdf"; each of the embeddings, overrides, isolates and marks.
    for (const control of [
      '\u202e',
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200e',
      '\u200f',
      '\u061c',
    ])
      expect(nameProblem(`invoice${control}fdp.exe`)).toMatch(/bidirectional/);
    expect(nameProblem('c1\u0085control')).toMatch(/control character/);
    expect(nameProblem('x'.repeat(255))).toBeUndefined();
    expect(nameProblem('x'.repeat(256))).toMatch(/longer than 255/);
    // Hebrew and Arabic names are names: only the invisible controls are refused.
    expect(nameProblem('חוזה שכירות.pdf')).toBeUndefined();
    expect(nameProblem('عقد.pdf')).toBeUndefined();
    // A provider's own rules come after the shared ones.
    expect(nameProblem('a:b', { reserved: /[:]/, reservedText: 'no colons' })).toBe('no colons');
  });

  it('encodes a value as exactly one segment: no dot-segment, no separator survives', () => {
    const url = (value: string) =>
      apiUrl('https://api.example/v1', `/folders/f1/files/${pathSegment(value, 'upload')}`, {});
    expect(url('a/b')).toBe('https://api.example/v1/folders/f1/files/a%2Fb');
    expect(url('%2e%2e')).toBe('https://api.example/v1/folders/f1/files/%252e%252e');
    expect(url('...')).toBe('https://api.example/v1/folders/f1/files/...');
    expect(url('a?b#c')).toBe('https://api.example/v1/folders/f1/files/a%3Fb%23c');
    expect(new URL(url('..\\x')).pathname).toBe('/v1/folders/f1/files/..%5Cx');
    for (const bad of ['', '.', '..']) {
      expect(() => pathSegment(bad, 'upload')).toThrow(ProviderApiError);
      expect(() => pathSegment(bad, 'upload')).toThrow(expect.objectContaining({ status: 404 }));
    }
  });
});
