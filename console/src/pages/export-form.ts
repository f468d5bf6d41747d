// Exporting a link's documents to a container at a provider: a destination connection (this one or
// another usable one of the organization), a container chosen with the source picker, then
// POST /connectors/v1/connections/{destination connection}/exports and the job followed to its counts.
import { api } from '../api';
import type { Connection, ConnectorJob, ImportLink, ListPage } from '../connectors';
import { accountName, usable } from '../connectors';
import { announce, h } from '../dom';
import { watchJob } from '../job-watch';
import type { SourcePicker } from '../source-picker';
import { sourcePicker } from '../source-picker';
import { errorState } from '../widgets';

export interface ExportForm {
  element: HTMLElement;
  /** The documents panel reports how many documents are selected. */
  selectionChanged(count: number): void;
}

/** The export's conflict policies, as the API names them; a user's file is never replaced. */
const CONFLICT_CHOICES: [string, string][] = [
  ['rename', 'Keep both: ours as "name (2).ext"'],
  ['skip', 'Skip the document'],
  ['fail', 'Fail the document'],
  ['replace', 'Replace it only if this service exported it'],
];

/** How many connections the destination list offers (the API's largest page). */
const DESTINATION_LIMIT = 200;

export function exportForm(link: ImportLink, from: Connection, selectedIds: () => string[]): ExportForm {
  const prefix = `export-${link.id}`;
  const count = h('p', { class: 'help', 'aria-live': 'polite' }, 'No document selected.');
  const destination = h('select', { id: `${prefix}-connection` });
  const conflict = h(
    'select',
    { id: `${prefix}-conflict` },
    ...CONFLICT_CHOICES.map(([value, label]) => h('option', { value }, label)),
  );
  const pickerSlot = h('div', {});
  const result = h('div', {});
  let picker: SourcePicker | undefined;
  const showPicker = () => {
    picker = sourcePicker(destination.value, `${prefix}-picker`, 'Destination container');
    pickerSlot.replaceChildren(picker.element);
  };
  destination.addEventListener('change', showPicker);
  void fillDestinations(destination, from).then(showPicker, (error: unknown) =>
    pickerSlot.replaceChildren(errorState(error)),
  );

  const form = h(
    'form',
    { class: 'card export', 'aria-labelledby': `${prefix}-title` },
    h('h4', { id: `${prefix}-title` }, 'Export documents'),
    count,
    h('label', { for: `${prefix}-connection` }, 'Destination connection'),
    destination,
    h('fieldset', {}, h('legend', {}, 'Destination container'), pickerSlot),
    h('label', { for: `${prefix}-conflict` }, 'When a file of the same name is there'),
    conflict,
    h('button', { type: 'submit' }, 'Export selected documents'),
    result,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const ids = selectedIds();
    const target = picker?.chosen();
    const missing =
      ids.length === 0
        ? 'Select at least one document above.'
        : !target
          ? 'Choose a destination container: open the provider and press Choose.'
          : undefined;
    if (missing) {
      result.replaceChildren(h('div', { class: 'notice notice-bad', role: 'alert' }, missing));
      return;
    }
    void startExport(
      destination.value,
      {
        vault_id: link.vault_id,
        document_ids: ids,
        destination: { id: target!.id },
        conflict: conflict.value,
      },
      result,
    );
  });
  return {
    element: form,
    selectionChanged: (n) => {
      count.textContent = n === 0 ? 'No document selected.' : `${n} document${n === 1 ? '' : 's'} selected.`;
    },
  };
}

/** The organization's usable connections, this one first and chosen. */
async function fillDestinations(select: HTMLSelectElement, from: Connection): Promise<void> {
  const page = await api<ListPage<Connection>>(
    'GET',
    `/connectors/v1/connections?limit=${DESTINATION_LIMIT}`,
  );
  const others = page.data.filter((c) => c.id !== from.id && usable(c));
  select.replaceChildren(
    ...[from, ...others].map((c) =>
      h(
        'option',
        { value: c.id },
        `${c.provider} · ${accountName(c)} (${c.id})${c.id === from.id ? ' — this connection' : ''}`,
      ),
    ),
  );
}

async function startExport(
  connectionId: string,
  body: { vault_id: string; document_ids: string[]; destination: { id: string }; conflict: string },
  result: HTMLElement,
): Promise<void> {
  try {
    const job = await api<Pick<ConnectorJob, 'id' | 'status'>>(
      'POST',
      `/connectors/v1/connections/${encodeURIComponent(connectionId)}/exports`,
      body,
    );
    announce(`Export started: ${body.document_ids.length} documents`);
    result.replaceChildren(watchJob(job.id, { title: 'Export' }));
  } catch (error) {
    result.replaceChildren(errorState(error));
  }
}
