// How a flow step answers the browser: a 302 that leaks nothing through Referer or caches.
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { FlowRedirect } from '../../app/connect-flow';

export function redirect(result: FlowRedirect): {
  status: 302;
  headers: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
} {
  return {
    status: 302,
    headers: { Location: result.location, 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' },
    ...(result.cookie ? { multiValueHeaders: { 'Set-Cookie': [result.cookie] } } : {}),
  };
}

export function cookieHeader(event: APIGatewayProxyEvent): string | undefined {
  const entry = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'cookie');
  return entry?.[1] ?? undefined;
}
