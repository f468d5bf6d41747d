// A recover job as stored (its keys are the job repository's): every failed or skipped delivery of an
// endpoint in a time window replayed, a page per queue message.

/** The job view's status (its zod view schema lists the same three). */
export type JobStatus = 'processing' | 'succeeded' | 'failed';

export interface JobItem {
  id: string;
  organizationId: string;
  type: 'webhooks.endpoint.recover';
  endpointId: string;
  /** The window, epoch ms. */
  since: number;
  until: number;
  status: JobStatus;
  counts: { matched: number; replayed: number; failed: number };
  /**
   * The page the next recover message runs (0 first; absent on a job started before paging), and
   * where in the endpoint's deliveries it starts.
   */
  page?: number;
  cursor?: string;
  error?: string;
  createdAt: number;
  updatedAt: number;
}
