// IAM, recorded: the check the e2e-aws tier runs on the calls the emulated runtime
// recorded finds a call the template's role would not allow, naming function, action and resource.
// Here the recorded calls are a route's real ones and the template is edited to lose one grant.
import { Template } from 'aws-cdk-lib/assertions';
import { grantsOf, violations } from '../support/iam-check';
import type { TemplateJson } from '../support/synth';
import { policyDocumentsOfRole, roleIdOf, synthStack } from '../support/synth';

const { stack, template } = synthStack();
const calls = [
  { function: 'apiKeyAuthorizer', action: 'dynamodb:GetItem', resource: 'table:platform' },
  { function: 'createWebhookEndpoint', action: 'dynamodb:PutItem', resource: 'table:webhooks' },
  { function: 'createWebhookEndpoint', action: 'kms:GenerateDataKey', resource: 'key:envelope' },
];

describe('the IAM check of recorded calls', () => {
  it('accepts calls the template grants', () => {
    expect(violations(calls, grantsOf(stack, template))).toEqual([]);
  });

  it('names function, action and resource of a call whose grant was removed from the template', () => {
    const json = template.toJSON() as TemplateJson;
    const roleId = roleIdOf(stack, stack.api.functions.get('createWebhookEndpoint')!);
    const documents = policyDocumentsOfRole(json, roleId);
    for (const document of documents) {
      document.Statement = document.Statement.filter((s) => !JSON.stringify(s.Action).includes('kms:'));
    }
    const edited = Template.fromJSON(json, { skipCyclicalDependenciesCheck: true });
    expect(violations(calls, grantsOf(stack, edited))).toEqual([
      'createWebhookEndpoint called kms:GenerateDataKey on key:envelope: its role in the template does not allow it',
    ]);
  });

  it('refuses a call on a resource the role has no grant on, and a function the template lacks', () => {
    expect(
      violations(
        [
          { function: 'createWebhookEndpoint', action: 'dynamodb:PutItem', resource: 'table:connectors' },
          { function: 'noSuchFunction', action: 'sqs:SendMessage', resource: 'queue:events' },
        ],
        grantsOf(stack, template),
      ),
    ).toEqual([
      'createWebhookEndpoint called dynamodb:PutItem on table:connectors: its role in the template does not allow it',
      'noSuchFunction: not a function of the template (sqs:SendMessage on queue:events)',
    ]);
  });
});
