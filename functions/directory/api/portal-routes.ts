// Portal routes (section of the route table in ../../routes.ts). With an API key holding portal:write a
// customer's server mints one-time links to the portal for its users (and a system key, links to the
// full console for a deployment's operators), lists and revokes live sessions, and sets the portal's
// framing and theme. The session paths are what a browser calls: the link's page, its exchange for the
// session cookie, the session read and sign-out; the portal page itself.
import * as z from 'zod/mini';
import type { RouteDefinition } from '../../platform/route-types';
import {
  currentSessionView,
  exchangeBody,
  mintLinkBody,
  portalLinkPath,
  portalLinkView,
  portalSessionListView,
  portalSessionPath,
  portalSettingsBody,
  portalSettingsView,
} from './portal-schemas';

const PORTAL = '/connectors/v1/portal';
const SESSION = '/connectors/v1/session';
const html = (description: string) => ({ description, schema: z.string(), mediaType: 'text/html' as const });

export const PORTAL_ROUTE = {
  createPortalLink: {
    id: 'createPortalLink',
    method: 'POST',
    path: `${PORTAL}/links`,
    handler: 'directory/api/handlers/create-portal-link',
    auth: 'apiKey',
    permission: 'portal:write',
    summary:
      'Mint a one-time link to the portal (or, with a system key, the full console): opened once within its lifetime, it signs the browser in',
    request: {
      get body() {
        return mintLinkBody();
      },
    },
    responses: {
      201: {
        description: 'The link (shown once)',
        get schema() {
          return portalLinkView();
        },
      },
      404: { description: 'No such organization, or no such application in it (NOT_FOUND)' },
    },
    uses: { tables: { platform: 'write' } },
  },
  listPortalSessions: {
    id: 'listPortalSessions',
    method: 'GET',
    path: `${PORTAL}/sessions`,
    handler: 'directory/api/handlers/list-portal-sessions',
    auth: 'apiKey',
    permission: 'portal:read',
    summary: "The organization's live portal and console sessions opened from links, newest first",
    responses: {
      200: {
        description: 'The live sessions',
        get schema() {
          return portalSessionListView();
        },
      },
    },
    uses: { tables: { platform: 'read' } },
  },
  revokePortalSession: {
    id: 'revokePortalSession',
    method: 'DELETE',
    path: `${PORTAL}/sessions/{id}`,
    handler: 'directory/api/handlers/revoke-portal-session',
    auth: 'apiKey',
    permission: 'portal:write',
    summary: 'End a live session now (its next API call is refused)',
    request: {
      get path() {
        return portalSessionPath();
      },
    },
    responses: { 204: { description: 'Ended' } },
    uses: { tables: { platform: 'write' } },
  },
  getPortalSettings: {
    id: 'getPortalSettings',
    method: 'GET',
    path: `${PORTAL}/settings`,
    handler: 'directory/api/handlers/get-portal-settings',
    auth: 'apiKey',
    permission: 'portal:read',
    summary: 'Who may frame the portal, and its brand colour, logo and appearance',
    responses: {
      200: {
        description: 'The settings',
        get schema() {
          return portalSettingsView();
        },
      },
    },
    uses: { tables: { platform: 'read' } },
  },
  putPortalSettings: {
    id: 'putPortalSettings',
    method: 'PUT',
    path: `${PORTAL}/settings`,
    handler: 'directory/api/handlers/put-portal-settings',
    auth: 'apiKey',
    permission: 'portal:write',
    summary: 'Set who may frame the portal (no origin by default) and its brand colour, logo and appearance',
    request: {
      get body() {
        return portalSettingsBody();
      },
    },
    responses: {
      200: {
        description: 'The settings as stored',
        get schema() {
          return portalSettingsView();
        },
      },
    },
    uses: { tables: { platform: 'write' } },
  },
  openPortalLink: {
    id: 'openPortalLink',
    method: 'GET',
    path: `${SESSION}/open/{id}`,
    handler: 'directory/api/handlers/open-portal-link',
    auth: 'public',
    summary:
      "A link's page: its script sends the secret from the fragment to the exchange; framed only by the organization's allowed origins",
    request: {
      get path() {
        return portalLinkPath();
      },
    },
    responses: { 200: html('A page that exchanges the link, or says why it cannot') },
    uses: { tables: { platform: 'read' } },
  },
  exchangePortalLink: {
    id: 'exchangePortalLink',
    method: 'POST',
    path: `${SESSION}/exchange`,
    handler: 'directory/api/handlers/exchange-portal-link',
    auth: 'public',
    summary:
      "Exchange a link's token, once, for the console session cookie; only from the console's own pages (X-Console-Request, JSON, same origin)",
    request: {
      get body() {
        return exchangeBody();
      },
    },
    responses: {
      200: {
        description: 'Signed in: the session cookie is set; where to go',
        get schema() {
          return z.object({ redirect: z.string() });
        },
      },
      403: { description: "Not from the console's own page (PERMISSION_DENIED)" },
      410: { description: 'The link was used already, has expired, or is not a link (GONE)' },
    },
    uses: { tables: { platform: 'write' } },
  },
  readSession: {
    id: 'readSession',
    method: 'GET',
    path: SESSION,
    handler: 'directory/api/handlers/read-session',
    auth: 'public',
    summary: 'Who the console session signs in (never the token); 401 without one',
    responses: {
      200: {
        description: 'The session',
        get schema() {
          return currentSessionView();
        },
      },
      401: { description: 'Not signed in (AUTH_INVALID)' },
    },
    uses: { tables: { platform: 'read' } },
  },
  signOut: {
    id: 'signOut',
    method: 'POST',
    path: `${SESSION}/sign-out`,
    handler: 'directory/api/handlers/sign-out',
    auth: 'public',
    summary: "End the browser's console session and clear its cookie (from the console's own page)",
    responses: {
      204: { description: 'Signed out' },
      403: { description: "Not from the console's own page (PERMISSION_DENIED)" },
    },
    uses: { tables: { platform: 'write' } },
  },
  showPortal: {
    id: 'showPortal',
    method: 'GET',
    path: `${SESSION}/portal/{id}`,
    handler: 'directory/api/handlers/show-portal',
    auth: 'public',
    summary:
      "The console page for a session opened from a link, framed only by the organization's allowed origins",
    request: {
      get path() {
        return portalSessionPath();
      },
    },
    responses: { 200: html('The console page') },
    uses: { tables: { platform: 'read' } },
  },
} satisfies Record<string, RouteDefinition>;

export const PORTAL_ROUTES: RouteDefinition[] = Object.values(PORTAL_ROUTE);
