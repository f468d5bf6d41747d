// The Drive API v3 routes of the Google Drive fake (under /google). Milestone 1: `about` (the
// account); files, changes, downloads and uploads follow.
import { sendJson } from '../../content/http';
import type { FakeRoute } from '../fake';

const DRIVE = 'https://www.googleapis.com/auth/drive';
const DRIVE_READONLY = 'https://www.googleapis.com/auth/drive.readonly';
const READ = [DRIVE, DRIVE_READONLY];

export function driveV3Routes(): FakeRoute[] {
  return [
    {
      method: 'GET',
      path: '/drive/v3/about',
      scopes: READ,
      handle: ({ grant, response }) =>
        sendJson(response, 200, {
          kind: 'drive#about',
          user: {
            kind: 'drive#user',
            displayName: grant.name,
            emailAddress: grant.email,
            permissionId: grant.accountId,
            me: true,
          },
        }),
    },
  ];
}
