// A connection's import links: each link's source, vault, schedule, state, last run and last skipped
// scheduled run; owners and admins create links (with the source picker), run them now and delete them.
// Each link opens its runs and its documents (./link-activity.ts).
import { api, canWrite } from '../api';
import type { Connection, ConnectorJob, ImportLink, ListPage } from '../connectors';
import { countsText, jobTone } from '../connectors';
import { announce, badge, formatTime, h, when } from '../dom';
import { watchJob } from '../job-watch';
import { sourcePicker } from '../source-picker';
import { PAGE_SIZE, act, errorState, loadInto, pager } from '../widgets';
import { documentsPanel, runsPanel } from './link-activity';

/** Writes are offered to owners and admins, on a connection that is not revoked (the API refuses them there). */
const writable = (connection: Connection) => canWrite() && connection.status !== 'revoked';

export function importLinksSection(connection: Connection): HTMLElement {
  const list = h('div', {});
  let offset = 0;
  const load = (): Promise<void> =>
    loadInto(list, async () => {
      const page = await api<ListPage<ImportLink>>(
        'GET',
        `/connectors/v1/connections/${encodeURIComponent(connection.id)}/links?limit=${PAGE_SIZE}&offset=${offset}`,
      );
      if (page.data.length === 0 && offset === 0)
        return h(
          'p',
          { class: 'empty' },
          'No import links yet.',
          writable(connection) ? ' Create one to import a matter or folder into a vault.' : '',
        );
      return h(
        'div',
        {},
        page.data.map((link) => linkCard(link, connection, load)),
        pager(
          { offset, hasMore: page.has_more, count: page.data.length },
          (next) => {
            offset = next;
            void load();
          },
          'Import links pages',
        ),
      );
    });
  void load();
  // The form (and its provider browsing) opens on demand, fresh each time; it closes on success.
  const creation =
    writable(connection) &&
    panelToggle('New import link', 'new-link', () =>
      newLinkForm(connection, async () => {
        if (creation) creation.close();
        await load();
      }),
    );
  return h(
    'section',
    { 'aria-labelledby': 'links-title' },
    h('h2', { id: 'links-title' }, 'Import links'),
    creation ? h('div', { class: 'actions' }, creation.button) : null,
    creation ? creation.panel : null,
    list,
  );
}

function newLinkForm(connection: Connection, created: () => Promise<void>): HTMLElement {
  const picker = sourcePicker(connection.id, 'link-source', 'Source to import');
  const vault = h('input', {
    id: 'link-vault',
    type: 'text',
    autocomplete: 'off',
    'aria-describedby': 'link-vault-help',
  });
  const every = h('input', {
    id: 'link-every',
    type: 'number',
    inputmode: 'numeric',
    min: 5,
    max: 10080,
    'aria-describedby': 'link-every-help',
  });
  const result = h('div', {});
  // The API words what is wrong (vault id, schedule bounds): the form does not second-guess it.
  const form = h(
    'form',
    { class: 'card', novalidate: true, 'aria-labelledby': 'new-link-title' },
    h('h3', { id: 'new-link-title' }, 'New import link'),
    h('fieldset', {}, h('legend', {}, 'Source (a matter or folder at the provider)'), picker.element),
    h('label', { for: 'link-vault' }, 'Vault id'),
    vault,
    h('p', { id: 'link-vault-help', class: 'help' }, 'The vault the documents are imported into.'),
    h('label', { for: 'link-every' }, 'Run every (minutes, optional)'),
    every,
    h(
      'p',
      { id: 'link-every-help', class: 'help' },
      'Empty: runs only when started. From 5 minutes to 10,080 (a week).',
    ),
    h('button', { type: 'submit' }, 'Create link'),
    result,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const source = picker.chosen();
    if (!source) {
      result.replaceChildren(
        h(
          'div',
          { class: 'notice notice-bad', role: 'alert' },
          'Choose a source: open the provider and press Choose.',
        ),
      );
      return;
    }
    const body: Record<string, unknown> = {
      vault_id: vault.value.trim(),
      source: { id: source.id, name: source.name },
    };
    if (every.value.trim() !== '') body.schedule = { every_minutes: Number(every.value) };
    void (async () => {
      try {
        await api('POST', `/connectors/v1/connections/${encodeURIComponent(connection.id)}/links`, body);
        announce(`Import link created: ${source.name} into ${vault.value.trim()}`);
        await created();
      } catch (error) {
        result.replaceChildren(errorState(error));
      }
    })();
  });
  return form;
}

function linkCard(link: ImportLink, connection: Connection, reload: () => Promise<void>): HTMLElement {
  const titleId = `link-title-${link.id}`;
  const facts = h('div', {}, linkFacts(link, connection));
  const job = h('div', { class: 'run-job' });
  const refresh = () =>
    void api<ImportLink>('GET', `/connectors/v1/links/${encodeURIComponent(link.id)}`).then(
      (fresh) => facts.replaceChildren(linkFacts(fresh, connection)),
      (error: unknown) => facts.replaceChildren(errorState(error)),
    );
  const follow = (jobId: string) =>
    job.replaceChildren(watchJob(jobId, { title: 'Import run', onSettled: () => refresh() }));
  const runs = panelToggle('Runs', `runs-${link.id}`, () => runsPanel(link.id));
  const documents = panelToggle('Documents', `docs-${link.id}`, () =>
    documentsPanel(link, writable(connection) ? connection : undefined),
  );
  const writes = writable(connection)
    ? [
        h('button', { type: 'button', onclick: () => void runNow(link, follow) }, 'Run now'),
        h(
          'button',
          { type: 'button', class: 'danger', onclick: () => void deleteLink(link, reload) },
          'Delete link',
        ),
      ]
    : [];
  const card = h(
    'article',
    { class: 'card link', 'aria-labelledby': titleId, 'data-link': link.id },
    h(
      'h3',
      { id: titleId },
      'Source ',
      link.source.name
        ? h('span', {}, link.source.name, ' ', h('code', {}, link.source.id))
        : h('code', {}, link.source.id),
      ' into vault ',
      h('code', {}, link.vault_id),
    ),
    facts,
    h(
      'div',
      { class: 'actions', role: 'group', 'aria-label': 'Import link actions' },
      writes[0],
      runs.button,
      documents.button,
      writes[1],
    ),
    job,
    runs.panel,
    documents.panel,
  );
  // A run already going (started elsewhere, or by the schedule) is followed as one started here.
  if (link.status === 'running' && link.active_run_id) follow(link.active_run_id);
  return card;
}

function linkFacts(link: ImportLink, connection: Connection): HTMLElement {
  const last = link.last_run;
  // A revoked connection runs nothing: its links keep their settings but no schedule applies.
  const stopped = connection.status === 'revoked';
  return h(
    'dl',
    {},
    h('dt', {}, 'State'),
    h('dd', {}, badge(link.status, link.status === 'running' ? 'warn' : 'neutral')),
    h('dt', {}, 'Link id'),
    h('dd', {}, h('code', {}, link.id)),
    h('dt', {}, 'Schedule'),
    h(
      'dd',
      { 'data-testid': 'schedule' },
      stopped
        ? 'stopped: the connection is revoked'
        : link.schedule
          ? `every ${link.schedule.every_minutes} minutes`
          : 'none (runs when started)',
    ),
    h('dt', {}, 'Next run'),
    h('dd', { 'data-testid': 'next-run' }, stopped ? '—' : when(link.next_run_at)),
    h('dt', {}, 'Last run'),
    h(
      'dd',
      { 'data-testid': 'last-run' },
      last
        ? [
            badge(last.status, jobTone(last.status)),
            ' ',
            when(last.finished_at),
            ` · ${countsText(last.counts)}`,
            last.reason ? ` · reason: ${last.reason}` : '',
          ]
        : 'never run',
    ),
    h('dt', {}, 'Last skipped scheduled run'),
    h(
      'dd',
      {},
      link.last_skipped
        ? `${formatTime(link.last_skipped.at)}: ${link.last_skipped.reason.replace(/_/g, ' ')}`
        : '—',
    ),
  );
}

async function runNow(link: ImportLink, follow: (jobId: string) => void): Promise<void> {
  await act('Import run started', async () => {
    const job = await api<Pick<ConnectorJob, 'id' | 'status'>>(
      'POST',
      `/connectors/v1/links/${encodeURIComponent(link.id)}/runs`,
    );
    follow(job.id);
  });
}

async function deleteLink(link: ImportLink, reload: () => Promise<void>): Promise<void> {
  const question =
    `Delete the import link of ${link.source.name ?? link.source.id} into vault ${link.vault_id}? ` +
    'Its runs and schedule stop; the documents it imported stay in the vault.';
  if (!window.confirm(question)) return;
  await act('Import link deleted', async () => {
    await api('DELETE', `/connectors/v1/links/${encodeURIComponent(link.id)}`);
    await reload();
  });
}

/** A button that shows and hides a panel, (re)building the panel's content each time it opens. */
function panelToggle(
  text: string,
  id: string,
  content: () => HTMLElement,
): { button: HTMLElement; panel: HTMLElement; close: () => void } {
  const panel = h('div', { id, class: 'panel', hidden: true });
  const button = h('button', {
    type: 'button',
    class: 'secondary',
    'aria-expanded': 'false',
    'aria-controls': id,
  });
  button.textContent = text;
  const set = (open: boolean) => {
    button.setAttribute('aria-expanded', String(open));
    panel.hidden = !open;
    panel.replaceChildren(open ? content() : '');
  };
  button.addEventListener('click', () => set(button.getAttribute('aria-expanded') !== 'true'));
  return {
    button,
    panel,
    close: () => {
      set(false);
      button.focus();
    },
  };
}
