// Request and response schemas of the portal routes (./portal-routes.ts): links, sessions, settings.
import * as z from 'zod/mini';
import { CONSOLE_ROLES } from '../../platform/console-sessions';
import { isoTimeSchema } from '../../platform/clock';
import { idSchema } from '../../platform/ids';
import { lazy } from '../../platform/lazy';
import {
  LINK_TTL_MAX_SECONDS,
  PORTAL_ROLES,
  PORTAL_SECTIONS,
  SESSION_TTL_MAX_SECONDS,
} from '../../platform/portal-sessions';

const ROLES = [...PORTAL_ROLES, ...CONSOLE_ROLES] as const;
const sessionId = lazy(() => idSchema('pss', 'a portal session'));

/** What both kinds of link take besides their role. */
const mintCommon = () => ({
  organization_id: z.optional(
    idSchema('org', 'an organization').check(
      z.describe("The organization; a customer key's own by default, required with a system key"),
    ),
  ),
  user: z.optional(
    z
      .string()
      .check(
        z.minLength(1),
        z.maxLength(200),
        z.describe('Who the user is in your product: shown in the header and the session list'),
      ),
  ),
  link_ttl_seconds: z.optional(
    z
      .int()
      .check(
        z.gte(30),
        z.lte(LINK_TTL_MAX_SECONDS),
        z.describe('How long the link can be opened (default 900)'),
      ),
  ),
  session_ttl_seconds: z.optional(
    z
      .int()
      .check(
        z.gte(60),
        z.lte(SESSION_TTL_MAX_SECONDS),
        z.describe('How long the session lasts once opened (default and most 28800)'),
      ),
  ),
});

/** A portal link (the default kind) or a console link, each with the roles of its kind. */
export const mintLinkBody = lazy(() =>
  z.union([
    z.strictObject({
      kind: z.optional(
        z.literal('portal').check(z.describe("The embeddable portal for a customer's own users (default)")),
      ),
      ...mintCommon(),
      application_id: z.optional(idSchema('app', 'an application')),
      role: z.enum(PORTAL_ROLES),
      sections: z.optional(
        z
          .array(z.enum(PORTAL_SECTIONS))
          .check(z.minLength(1), z.maxLength(2), z.describe('The portal sections shown (default both)')),
      ),
    }),
    z.strictObject({
      kind: z
        .literal('console')
        .check(z.describe("The full console, for a deployment's operators (system key only)")),
      ...mintCommon(),
      role: z.enum(CONSOLE_ROLES),
    }),
  ]),
);

export const portalLinkView = lazy(() =>
  z
    .object({
      id: idSchema('pln', 'a portal link'),
      url: z
        .string()
        .check(
          z.describe(
            'Open once, in a browser or an iframe: its secret is in the fragment, never sent to a server',
          ),
        ),
      expires_at: isoTimeSchema(),
    })
    .clone()
    .register(z.globalRegistry, { id: 'PortalLink' }),
);

export const portalSessionView = lazy(() =>
  z
    .object({
      id: sessionId(),
      kind: z.enum(['portal', 'console']),
      organization_id: idSchema('org', 'an organization'),
      application_id: z.nullable(idSchema('app', 'an application')),
      role: z.enum(ROLES),
      sections: z.array(z.enum(PORTAL_SECTIONS)),
      user: z.nullable(z.string()),
      created_at: isoTimeSchema(),
      expires_at: isoTimeSchema(),
    })
    .clone()
    .register(z.globalRegistry, { id: 'PortalSession' }),
);

export const portalSessionListView = lazy(() =>
  z
    .object({ data: z.array(portalSessionView()) })
    .clone()
    .register(z.globalRegistry, { id: 'PortalSessionList' }),
);

export const portalSessionPath = lazy(() => z.object({ id: sessionId() }));
export const portalLinkPath = lazy(() => z.object({ id: idSchema('pln', 'a portal link') }));

const ORIGIN = /^(https:\/\/[a-z0-9.-]+(:\d{1,5})?|http:\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?)$/;

const portalSettingsFields = () =>
  z.object({
    frame_ancestors: z
      .array(
        z.string().check(z.regex(ORIGIN, 'must be an origin: https://host[:port] (http only for localhost)')),
      )
      .check(z.maxLength(20), z.describe('Origins that may frame the portal; none by default')),
    brand_color: z.nullable(z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/, 'must be #rrggbb'))),
    logo_url: z.nullable(
      z.string().check(z.maxLength(2000), z.regex(/^https:\/\/[^\s"'<>]+$/, 'must be an https URL')),
    ),
    appearance: z.enum(['light', 'dark', 'system']),
  });

export const portalSettingsView = lazy(() =>
  portalSettingsFields().clone().register(z.globalRegistry, { id: 'PortalSettings' }),
);

/** The settings a PUT replaces: the same fields, named apart from the answer in the OpenAPI document. */
export const portalSettingsBody = lazy(() =>
  portalSettingsFields().clone().register(z.globalRegistry, { id: 'PortalSettingsInput' }),
);

export const exchangeBody = lazy(() => z.object({ token: z.string().check(z.maxLength(200)) }));

/** Who is signed in, as the console reads it when it loads: never the token. */
export const currentSessionView = lazy(() =>
  z
    .object({
      kind: z.enum(['portal', 'console']),
      role: z.enum(ROLES),
      organizationId: z.string(),
      organizationName: z.nullable(z.string()),
      userId: z.string(),
      expiresAt: isoTimeSchema(),
      sections: z.array(z.enum(PORTAL_SECTIONS)),
      /** The console page the session starts on. */
      home: z.string(),
      theme: z.object({
        brandColor: z.nullable(z.string()),
        logoUrl: z.nullable(z.string()),
        appearance: z.enum(['light', 'dark', 'system']),
      }),
    })
    .clone()
    .register(z.globalRegistry, { id: 'CurrentSession' }),
);
