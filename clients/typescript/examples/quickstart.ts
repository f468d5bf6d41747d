// Connect -> import -> export, and a webhook verified: CES_BASE_URL, CES_API_KEY, PORT (the receiver's).
import { createServer } from 'node:http';
import { Client, verify } from 'ces-client';

const client = new Client({ baseUrl: process.env.CES_BASE_URL!, apiKey: process.env.CES_API_KEY! });
const port = Number(process.env.PORT ?? 8080);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const hook = {
  url: `http://localhost:${port}/hooks`,
  eventTypeFilters: ['connector.sync.completed' as const],
};
const { signingSecret } = await client.endpoints.create(hook);
const verified: unknown[] = [];
const receiver = createServer(async (request, response) => {
  let body = '';
  for await (const chunk of request) body += chunk;
  verified.push(verify(body, request.headers, signingSecret)); // throws on a bad signature
  response.writeHead(204).end();
}).listen(port);

const back = 'https://app.example.com/back';
const { connection_id, connect_url } = await client.connections.create({
  provider: 'practice',
  return_url: back,
});
console.log(`Open ${connect_url}`); // the user consents there
while ((await client.connections.get(connection_id)).status !== 'healthy') await sleep(1000);

const [matter] = await client.connections.sources(connection_id).toArray();
const link = await client.links.create(connection_id, { vault_id: 'vlt_demo', source: { id: matter!.id } });
console.log('import', (await client.jobs.wait(await client.links.runs.start(link.id))).status);
const document_ids = (await client.links.documents(link.id).toArray()).map((d) => d.document_id);
const destination = { id: matter!.id };
const exported = await client.exports.create(connection_id, {
  vault_id: 'vlt_demo',
  document_ids,
  destination,
});
console.log('export', (await client.jobs.wait(exported)).status);

while (verified.length === 0) await sleep(200);
console.log('webhook verified', (verified[0] as { type: string }).type);
receiver.close();
