// A connector job followed to its end: GET /connectors/jobs/{id} every second while it is processing,
// shown in a live region (status, counts, a wait and its reason, the failure reason and per-item
// failures). Polling stops by itself once the job settles or its panel leaves the page.
import { api } from './api';
import type { ConnectorJob } from './connectors';
import { countsText, jobTone } from './connectors';
import { badge, formatTime, h } from './dom';
import { errorState } from './widgets';

const POLL_MS = 1000;

export interface JobWatchOptions {
  /** What the job is, for the panel's heading: "Import run", "Export". */
  title: string;
  /** Called once, when the job has succeeded or failed. */
  onSettled?: (job: ConnectorJob) => void;
}

/** A panel that follows `jobId` until it settles. */
export function watchJob(jobId: string, options: JobWatchOptions): HTMLElement {
  const panel = h('div', {
    class: 'job',
    role: 'status',
    'aria-live': 'polite',
    'data-job': jobId,
  });
  panel.replaceChildren(h('p', { class: 'loading' }, `${options.title} ${jobId}: starting…`));
  let first = true;
  const poll = async (): Promise<void> => {
    // A panel no longer in the page (another page, a reload of its section) stops asking.
    if (!first && !panel.isConnected) return;
    first = false;
    let job: ConnectorJob;
    try {
      job = await api<ConnectorJob>('GET', `/connectors/jobs/${encodeURIComponent(jobId)}`);
    } catch (error) {
      panel.replaceChildren(
        errorState(error),
        retryButton(() => void poll()),
      );
      return;
    }
    panel.replaceChildren(...jobSummary(options.title, job));
    if (job.status === 'processing') setTimeout(() => void poll(), POLL_MS);
    else options.onSettled?.(job);
  };
  // The first look once the panel is in the page (a caller appends it right after this returns).
  queueMicrotask(() => void poll());
  return panel;
}

function retryButton(retry: () => void): HTMLElement {
  return h('button', { type: 'button', class: 'secondary', onclick: retry }, 'Check again');
}

/** The job's state in words: what the API says, nothing inferred. */
export function jobSummary(title: string, job: ConnectorJob): Node[] {
  const failures = job.failures ?? [];
  const parts: (HTMLElement | null)[] = [
    h(
      'p',
      {},
      h('strong', {}, `${title} `),
      h('code', {}, job.id),
      ' ',
      badge(job.status, jobTone(job.status)),
      job.finished_at ? ` finished ${formatTime(job.finished_at)}` : '',
    ),
    job.counts ? h('p', { class: 'counts', 'data-testid': 'job-counts' }, countsText(job.counts)) : null,
    job.waiting
      ? h(
          'p',
          { class: 'help' },
          `Waiting (${job.waiting.reason}) until ${formatTime(job.waiting.until)}; it resumes by itself.`,
        )
      : null,
    job.status === 'failed'
      ? h(
          'p',
          { class: 'notice notice-bad' },
          `Failed: ${job.reason ?? 'unknown reason'}${job.message ? ` — ${job.message}` : ''}`,
        )
      : null,
    failures.length
      ? h(
          'ul',
          { class: 'failures', 'aria-label': 'Items that failed' },
          failures.map((f) =>
            h('li', {}, `${f.name ?? f.document_id ?? f.item_id ?? ''}: ${f.reason.replace(/_/g, ' ')}`),
          ),
        )
      : null,
  ];
  return parts.filter((node): node is HTMLElement => node !== null);
}
