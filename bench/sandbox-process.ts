// The import benchmark's provider: the sandbox OAuth provider and its content APIs in their own
// process, so the bench's figures hold only the importer's work. Parent messages:
//   {cmd:'start', latencyMs?} -> {url}: every request served after latencyMs (the latency mode)
//   {cmd:'register', baseUrl} -> {env}: our clients registered (the PROVIDER_* variables naming them)
//   {cmd:'tokens', provider, account, scopes} -> {accessToken}: a plain client's token for the raw loop
import { startSandboxProvider } from '../sandbox';
import type { SandboxProvider } from '../sandbox';
import { registerSandboxClients } from '../functions/dev-runtime/hooks/sandbox-setup';
import { sandboxTestClient } from '../test/support/sandbox-tokens';

let sandbox: SandboxProvider | undefined;

process.on('message', (message: { cmd: string; [key: string]: unknown }) => {
  void (async () => {
    if (message.cmd === 'start') {
      sandbox = await startSandboxProvider({
        exposeIssued: true,
        apiRequestsPerMinute: 10_000_000,
        latencyMs: Number(message.latencyMs ?? 0),
      });
      process.send!({ url: sandbox.url });
    } else if (message.cmd === 'register') {
      process.send!({ env: registerSandboxClients(sandbox!, String(message.baseUrl)) });
    } else if (message.cmd === 'tokens') {
      const client = sandboxTestClient(sandbox!, String(message.provider), message.scopes as string[]);
      const tokens = await client.tokens(String(message.account), message.scopes as string[]);
      process.send!({ accessToken: tokens.access_token });
    }
  })();
});
process.on('disconnect', () => process.exit(0));
