// The application resources as the API answers them: zod schemas the use cases' view types are
// inferred from, the route entries name as their responses, and the OpenAPI document shows.
import * as z from 'zod/mini';
import { isoTimeSchema } from '../../platform/clock';
import { idSchema } from '../../platform/ids';
import { lazy } from '../../platform/lazy';
import { snakeCasePage } from '../../platform/pagination';
import { PERMISSIONS } from '../../platform/permissions';

const applicationId = lazy(() => idSchema('app', 'an application'));
const apiKeyId = lazy(() => idSchema('key', 'an API key'));

/** The spec's binding object. */
export const keyBindingView = lazy(() =>
  z
    .object({ id: idSchema('bnd', 'a key binding'), application_id: applicationId(), api_key_id: apiKeyId() })
    .clone()
    .register(z.globalRegistry, { id: 'KeyBinding' }),
);
export type KeyBindingBody = z.infer<ReturnType<typeof keyBindingView>>;

/** The console's applications page: a page of applications with their bound keys, and every key. */
export const applicationListView = lazy(() =>
  z
    .extend(
      snakeCasePage(
        z
          .object({
            id: applicationId(),
            name: z.string(),
            created_at: isoTimeSchema(),
            api_key_ids: z.array(apiKeyId()).check(z.describe('The keys bound to the application')),
          })
          .clone()
          .register(z.globalRegistry, { id: 'Application' }),
      ),
      {
        keys: z
          .array(
            z
              .object({
                id: apiKeyId(),
                name: z.string(),
                permissions: z.array(z.enum(PERMISSIONS)),
                system: z.boolean(),
                revoked: z.boolean(),
                application_id: z
                  .nullable(applicationId())
                  .check(z.describe('The application it is bound to, if any')),
              })
              .clone()
              .register(z.globalRegistry, { id: 'ApiKeySummary' }),
          )
          .check(z.describe("Every API key of the organization (never a key's secret)")),
      },
    )
    .clone()
    .register(z.globalRegistry, { id: 'ApplicationList' }),
);
export type ApplicationList = z.infer<ReturnType<typeof applicationListView>>;
