// What an import link did: its runs (newest first, with counts and failure reasons) and the documents
// it imported (its ledger), both paginated. Owners and admins select documents to export.
import { api } from '../api';
import type { Connection, ConnectorJob, ImportLink, LinkDocument, ListPage } from '../connectors';
import { countsText, jobTone } from '../connectors';
import { badge, formatTime, h, when } from '../dom';
import { PAGE_SIZE, dataTable, loadInto, pager } from '../widgets';
import { exportForm } from './export-form';

export function runsPanel(linkId: string): HTMLElement {
  const container = h('div', {});
  let offset = 0;
  const load = (): Promise<void> =>
    loadInto(container, async () => {
      const page = await api<ListPage<ConnectorJob>>(
        'GET',
        `/connectors/v1/links/${encodeURIComponent(linkId)}/runs?limit=${PAGE_SIZE}&offset=${offset}`,
      );
      if (page.data.length === 0 && offset === 0) return h('p', { class: 'empty' }, 'No runs yet.');
      return h(
        'div',
        {},
        dataTable(
          'Runs, newest first',
          ['Run', 'Trigger', 'Status', 'Counts', 'Reason', 'Started', 'Finished'],
          page.data.map(runRow),
          { class: 'runs', visibleCaption: true },
        ),
        pager(
          { offset, hasMore: page.has_more, count: page.data.length },
          (next) => {
            offset = next;
            void load();
          },
          'Runs pages',
        ),
      );
    });
  void load();
  return container;
}

function runRow(run: ConnectorJob): HTMLElement {
  const reason = run.reason
    ? `${run.reason}${run.message ? `: ${run.message}` : ''}`
    : run.waiting
      ? `waiting (${run.waiting.reason}) until ${formatTime(run.waiting.until)}`
      : '—';
  return h(
    'tr',
    { 'data-run': run.id },
    h('td', {}, h('code', {}, run.id)),
    h('td', {}, run.trigger ?? '—'),
    h('td', {}, badge(run.status, jobTone(run.status))),
    h('td', {}, countsText(run.counts)),
    h('td', {}, reason),
    h('td', {}, when(run.created_at)),
    h('td', {}, when(run.finished_at)),
  );
}

/**
 * The documents `link` imported. With `exportFrom` (an owner or admin on a usable connection), each
 * row has a checkbox and the export form follows; the selection holds across pages.
 */
export function documentsPanel(link: ImportLink, exportFrom: Connection | undefined): HTMLElement {
  const selected = new Set<string>();
  const form = exportFrom ? exportForm(link, exportFrom, () => [...selected]) : undefined;
  const table = h('div', {});
  let offset = 0;
  const toggle = (doc: LinkDocument, on: boolean) => {
    if (on) selected.add(doc.document_id);
    else selected.delete(doc.document_id);
    form?.selectionChanged(selected.size);
  };
  const load = (): Promise<void> =>
    loadInto(table, async () => {
      const page = await api<ListPage<LinkDocument>>(
        'GET',
        `/connectors/v1/links/${encodeURIComponent(link.id)}/documents?limit=${PAGE_SIZE}&offset=${offset}`,
      );
      if (page.data.length === 0 && offset === 0)
        return h('p', { class: 'empty' }, 'No documents imported yet: run the link.');
      return h(
        'div',
        {},
        documentsTable(page.data, form ? { selected, toggle } : undefined),
        pager(
          { offset, hasMore: page.has_more, count: page.data.length },
          (next) => {
            offset = next;
            void load();
          },
          'Documents pages',
        ),
      );
    });
  void load();
  return h('div', {}, table, form?.element);
}

interface Selection {
  selected: Set<string>;
  toggle: (doc: LinkDocument, on: boolean) => void;
}

function documentsTable(documents: LinkDocument[], selection: Selection | undefined): HTMLElement {
  const columns = [
    'Name',
    'Document id',
    'Status',
    'Provider version',
    'Vault version',
    'Imported',
    'Updated',
  ];
  const boxes: HTMLInputElement[] = [];
  const rows = documents.map((doc) => {
    const box =
      selection &&
      h('input', {
        type: 'checkbox',
        'aria-label': `Select ${doc.source.name}`,
        checked: selection.selected.has(doc.document_id),
        onchange: (event: Event) => selection.toggle(doc, (event.target as HTMLInputElement).checked),
      });
    if (box) boxes.push(box);
    return h(
      'tr',
      { 'data-document': doc.document_id },
      box ? h('td', {}, box) : null,
      h('td', {}, doc.source.name),
      h('td', {}, h('code', {}, doc.document_id)),
      h('td', {}, badge(doc.status.replace(/_/g, ' '), doc.status === 'imported' ? 'ok' : 'neutral')),
      h('td', {}, doc.source.version ?? '—'),
      h('td', {}, doc.vault_version === null ? '—' : String(doc.vault_version)),
      h('td', {}, when(doc.imported_at)),
      h('td', {}, when(doc.updated_at)),
    );
  });
  const selectPage =
    selection &&
    h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        onclick: () => {
          boxes.forEach((box, i) => {
            box.checked = true;
            selection.toggle(documents[i]!, true);
          });
        },
      },
      'Select all on this page',
    );
  return h(
    'div',
    {},
    dataTable('Imported documents', selection ? ['Export', ...columns] : columns, rows, {
      class: 'documents',
      visibleCaption: true,
    }),
    selectPage,
  );
}
