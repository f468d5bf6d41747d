// Per-connection params over HTTP, on both runtimes: a provider hosted per region (a choice param) and
// one on each customer's own server (a host param). The catalog shows them, a create refuses bad ones
// naming the param, the connect page asks for those not given (a wrong answer leaves the link usable),
// the consent and every later call go to the chosen host (the fakes' grants are good under the
// issuing region or server only), the connection keeps them, and the same user id on two servers is
// two connections while a reconnect on the same server folds into the first.
import { PROVIDER_MODULES } from '../../functions/connectors/providers';
import type { ConnectionParamSpec } from '../../functions/connectors/domain/provider-definition';
import { Browser, connectThroughSandbox, consentThroughSandbox } from '../support/connect';
import type { RunningServer } from '../support/local-server';
import { api, startLocalServer } from '../support/local-server';

/** The first provider module declaring a param of `kind`, with that param's name and spec. */
function withParam(kind: ConnectionParamSpec['kind']) {
  for (const module of PROVIDER_MODULES) {
    const definition = module.definition as { id: string; params?: Record<string, ConnectionParamSpec> };
    const found = Object.entries(definition.params ?? {}).find(([, spec]) => spec.kind === kind);
    if (found) return { provider: definition.id, name: found[0], spec: found[1] };
  }
  throw new Error(`no provider module declares a ${kind} param`);
}

const regional = withParam('choice');
const hosted = withParam('host');
const regionalChoices = Object.keys((regional.spec as { choices: Record<string, unknown> }).choices);
/** A region that is not the default, so a connection that ignored the answer would show. */
const otherRegion = regionalChoices.find((value) => value !== regional.spec.default)!;

let server: RunningServer;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startLocalServer();
  call = api(server);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

async function create(body: Record<string, unknown>) {
  const response = await call('/connectors/v1/connections', {
    method: 'POST',
    body: JSON.stringify({ return_url: 'https://app.example.com/back', ...body }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { connect_url: string; error: { code: string; message: string } },
  };
}

async function connection(id: string) {
  const response = await call(`/connectors/v1/connections/${id}`);
  expect(response.status).toBe(200);
  return (await response.json()) as { status: string; params?: Record<string, string> };
}

describe('the catalog', () => {
  it("lists each provider's params with what a form needs", async () => {
    const response = await call('/connectors/v1/providers');
    const { data } = (await response.json()) as {
      data: { id: string; params: { name: string; choices?: { value: string }[] }[] }[];
    };
    const choice = data.find((p) => p.id === regional.provider)!.params.find((p) => p.name === regional.name);
    expect(choice).toMatchObject({ kind: 'choice', required: regional.spec.default === undefined });
    expect(choice!.choices!.map((c) => c.value)).toEqual(regionalChoices);
    const host = data.find((p) => p.id === hosted.provider)!.params.find((p) => p.name === hosted.name);
    expect(host).toMatchObject({ kind: 'host', example: expect.any(String) });
    expect(data.find((p) => p.id === 'practice')!.params).toEqual([]);
  });
});

describe('creating a connection with a server', () => {
  it.each([
    [{ [hosted.name]: 'https://work.firm.example' }, 'DNS host name'],
    [{ [hosted.name]: 'work.firm.example:8443' }, 'DNS host name'],
    [{ [hosted.name]: '10.0.0.7' }, 'DNS host name'],
    [{ [hosted.name]: 'localhost' }, 'DNS host name'],
    [{ [hosted.name]: '' }, 'DNS host name'],
  ])('refuses the host param %j, naming it', async (params, problem) => {
    const { status, body } = await create({ provider: hosted.provider, params });
    expect(status).toBe(400);
    expect(body.error.code).toBe('INVALID_REQUEST');
    expect(body.error.message).toContain(`params.${hosted.name}`);
    expect(body.error.message).toContain(problem);
  });
});

describe('creating a connection', () => {
  it('refuses a choice not offered and a param the provider does not take', async () => {
    const wrong = await create({ provider: regional.provider, params: { [regional.name]: 'atlantis' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toContain(regional.name);
    const unknown = await create({ provider: 'practice', params: { region: 'eu' } });
    expect(unknown.status).toBe(400);
  });
});

describe('the connect page', () => {
  it('asks for a param not given; a wrong answer leaves the link usable; the answer is where the consent goes', async () => {
    const { status, body } = await create({ provider: regional.provider });
    expect(status).toBe(201);
    const browser = new Browser();
    const page = await browser.request(body.connect_url);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`name="${regional.name}"`);
    for (const value of regionalChoices) expect(page.body).toContain(`value="${value}"`);

    const refused = await browser.request(body.connect_url, { [regional.name]: 'atlantis' });
    expect(refused.status).toBe(400);

    const { connectionId, sandboxUrl } = await consentThroughSandbox(body.connect_url, 'acct-region', {
      [regional.name]: otherRegion,
    });
    expect(sandboxUrl).toBeTruthy();
    expect(await connection(connectionId)).toMatchObject({
      status: 'healthy',
      params: { [regional.name]: otherRegion },
    });
    // The grant is good in that region only: a call routed to another would be refused.
    const sources = await call(`/connectors/v1/connections/${connectionId}/sources`);
    expect(sources.status).toBe(200);
  });

  it('asks nothing for a param the server gave, and the page cannot change it', async () => {
    const { body } = await create({ provider: regional.provider, params: { [regional.name]: otherRegion } });
    const page = await new Browser().request(body.connect_url);
    expect(page.body).not.toContain(`name="${regional.name}"`);
    const other = regionalChoices.find((value) => value !== otherRegion)!;
    const { connectionId } = await consentThroughSandbox(body.connect_url, 'acct-given', {
      [regional.name]: other,
    });
    expect((await connection(connectionId)).params).toEqual({ [regional.name]: otherRegion });
  });
});

describe("a customer's own server", () => {
  it('keeps the same user on two servers apart, and folds a reconnect on the same server', async () => {
    const connect = (server: string) =>
      connectThroughSandbox(call, {
        provider: hosted.provider,
        account: 'jsmith',
        params: { [hosted.name]: server },
      });
    const first = await connect('work.firm-a.example');
    const second = await connect('work.firm-b.example');
    expect(second.connectionId).not.toBe(first.connectionId);
    expect((await connection(first.connectionId)).params).toEqual({ [hosted.name]: 'work.firm-a.example' });
    expect((await connection(second.connectionId)).params).toEqual({ [hosted.name]: 'work.firm-b.example' });
    const again = await connect('WORK.firm-a.example');
    expect(again.connectionId).toBe(first.connectionId);
    for (const id of [first.connectionId, second.connectionId]) {
      const sources = await call(`/connectors/v1/connections/${id}/sources`);
      expect(sources.status).toBe(200);
    }
  });
});

describe("an organization's allowed hosts", () => {
  const patch = async (body: Record<string, unknown>) => {
    const response = await call('/connectors/v1/connections', {
      method: 'PATCH',
      body: JSON.stringify({ enabled: true, confirm_organization_wide: true, ...body }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  afterAll(async () => {
    await patch({ provider: hosted.provider, allowed_hosts: null });
  });

  it('refuse a server outside the list, at create and on the connect page, and keep the list across a switch', async () => {
    const set = await patch({ provider: hosted.provider, allowed_hosts: ['*.firm-a.example'] });
    expect(set).toMatchObject({ status: 200, body: { allowed_hosts: ['*.firm-a.example'] } });

    const refused = await create({
      provider: hosted.provider,
      params: { [hosted.name]: 'work.firm-b.example' },
    });
    // A well-formed server the policy refuses: 403, naming the param.
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('not a host this organization allows');

    // On the page: a server typed there is held to the same list, and the link stays usable.
    const { body } = await create({ provider: hosted.provider });
    const browser = new Browser();
    const page = await browser.request(body.connect_url);
    expect(page.body).toContain(`name="${hosted.name}"`);
    expect((await browser.request(body.connect_url, { [hosted.name]: 'work.firm-b.example' })).status).toBe(
      403,
    );
    const { connectionId } = await consentThroughSandbox(body.connect_url, 'acct-allowed', {
      [hosted.name]: 'docs.firm-a.example',
    });
    expect((await connection(connectionId)).params).toEqual({ [hosted.name]: 'docs.firm-a.example' });

    // Switching the provider off and on again without naming hosts keeps the list.
    const kept = await patch({ provider: hosted.provider });
    expect(kept.body.allowed_hosts).toEqual(['*.firm-a.example']);
  });

  it('refuse a malformed host', async () => {
    expect((await patch({ provider: hosted.provider, allowed_hosts: ['https://x.example'] })).status).toBe(
      400,
    );
  });
});
