// Every account's content at the sandbox, made on first access from the provider and the account id
// alone: the same account gets the same ids, names, content and versions in every run, so a test can
// count on them, and two accounts get different trees.
import { createHash } from 'node:crypto';
import type { Clock } from '../clock';
import type { ContentShape, FolderNode } from './tree';
import { AccountTree, textContent } from './tree';

/** Seeded content is dated from here, one minute per change, so it too is the same in every run. */
const SEED_EPOCH = Date.parse('2025-01-06T09:00:00.000Z');

const MATTER_NAMES = [
  'Acme Corp. v. Globex',
  'Estate of Harlow',
  'Rivera employment dispute',
  'Northwind lease renewal',
  'In re Blue Harbor LLC',
  'Okafor immigration petition',
  'Lindqvist patent licence',
];

const DOCUMENT_NAMES = [
  'Engagement letter.txt',
  'Complaint.txt',
  'Answer.txt',
  'Discovery requests.txt',
  'Deposition notes.txt',
  'Settlement memo.txt',
  'Billing summary.txt',
  'Correspondence log.txt',
];

const CLIENT_NAMES = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Vandelay'];

/** A number in [0, n) drawn from the account and a label: the same in every run. */
function draw(accountId: string, label: string, n: number): number {
  return createHash('sha256').update(`${accountId}\u0000${label}`).digest().readUInt32BE(0) % n;
}

/** `count` consecutive names of `names` starting where the account's draw says (distinct while count <= length). */
function names(accountId: string, label: string, all: readonly string[], count: number): string[] {
  const start = draw(accountId, label, all.length);
  return Array.from({ length: count }, (_, i) => all[(start + i) % all.length]!);
}

function seedPractice(tree: AccountTree, at: () => number) {
  for (const [m, matterName] of names(tree.accountId, 'matters', MATTER_NAMES, 3).entries()) {
    const matter = tree.addFolder(tree.root, matterName, at());
    const count = 3 + draw(tree.accountId, `documents of ${m}`, 4); // 3 to 6
    for (const [d, name] of names(tree.accountId, `names of ${m}`, DOCUMENT_NAMES, count).entries()) {
      const text =
        `${name.replace(/\.txt$/, '')}\nMatter: ${matterName}\nAccount: ${tree.accountId}\n` +
        `Sandbox document ${d + 1} of ${count} in this matter.\n`;
      tree.putFile(matter, name, { contentType: 'text/plain', content: textContent(text) }, { at: at() });
    }
  }
}

function seedDrive(tree: AccountTree, at: () => number) {
  const client = names(tree.accountId, 'client', CLIENT_NAMES, 1)[0]!;
  const file = (folder: FolderNode, name: string, contentType: string) => {
    const text = `${name}\nFolder: ${folder.name || '(root)'}\nAccount: ${tree.accountId}\n`;
    tree.putFile(folder, name, { contentType, content: textContent(text) }, { at: at() });
  };
  file(tree.root, 'Welcome.txt', 'text/plain');
  file(tree.root, 'Notes.md', 'text/markdown');
  const clients = tree.addFolder(tree.root, 'Clients', at());
  file(clients, 'Client list.csv', 'text/csv');
  const acme = tree.addFolder(clients, client, at());
  file(acme, 'Engagement letter.txt', 'text/plain');
  file(acme, 'Invoice 2025-01.txt', 'text/plain');
  const contracts = tree.addFolder(acme, 'Contracts', at());
  file(contracts, 'Master services agreement.txt', 'text/plain');
  const templates = tree.addFolder(tree.root, 'Templates', at());
  file(templates, 'Letterhead.txt', 'text/plain');
  file(templates, 'NDA template.txt', 'text/plain');
}

/** The trees of every account the sandbox has seen, each seeded when first asked for. */
export class SandboxContentStore {
  private readonly trees = new Map<string, AccountTree>();

  /** `shapeOf`: the shape of a provider's content (the sandbox's two, and each fake's). */
  constructor(
    private readonly clock: Clock,
    readonly shapeOf: (provider: string) => ContentShape | undefined = (provider) =>
      provider === 'practice' || provider === 'drive' ? provider : undefined,
  ) {}

  /** One account's tree at one provider (each provider's accounts have trees of their own). */
  tree(provider: string, accountId: string): AccountTree {
    const shape = this.shapeOf(provider);
    if (!shape) throw new Error(`the sandbox has no provider ${provider}`);
    const key = `${provider}\u0000${accountId}`;
    let tree = this.trees.get(key);
    if (!tree) {
      tree = new AccountTree(shape, accountId, () => this.clock.now());
      let minute = 0;
      const at = () => SEED_EPOCH + ++minute * 60_000;
      if (shape === 'practice') seedPractice(tree, at);
      else seedDrive(tree, at);
      this.trees.set(key, tree);
    }
    return tree;
  }
}
