// Webhook routes (section of the route table in ../routes.ts).
import type { RouteDefinition } from '../platform/route-types';

export const WEBHOOK_ROUTES: RouteDefinition[] = [];
