// First-deploy and AWS-parity settings: dev buckets that empty
// themselves on delete, scheduled sweeps without retries and with an alarmed failure destination, the
// console's TLS floor on a custom domain, the WAF's forwarded-address rate rule, a managed execution
// log group, and the purge state machine's log level per stage.
import { Match } from 'aws-cdk-lib/assertions';
import { synthStack } from '../support/synth';

const dev = synthStack({ stage: 'dev' });
const prod = synthStack({
  stage: 'prod',
  context: {
    consoleDomainName: 'console.example.com',
    consoleCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abcd-1234',
  },
});

type Resources = Record<string, { Properties: Record<string, unknown>; DeletionPolicy?: string }>;

describe('buckets on delete (item 12)', () => {
  it('empties every dev bucket when the stack is deleted; prod retains them and deletes nothing', () => {
    const buckets = dev.template.findResources('AWS::S3::Bucket') as Resources;
    expect(Object.keys(buckets)).toHaveLength(4);
    const emptied = dev.template.findResources('Custom::S3AutoDeleteObjects') as Resources;
    const targets = Object.values(emptied).map((r) => (r.Properties.BucketName as { Ref: string }).Ref);
    expect(targets.sort()).toEqual(Object.keys(buckets).sort());
    for (const bucket of Object.values(buckets)) expect(bucket.DeletionPolicy).toBe('Delete');

    const retained = prod.template.findResources('AWS::S3::Bucket') as Resources;
    for (const bucket of Object.values(retained)) expect(bucket.DeletionPolicy).toBe('Retain');
    prod.template.resourceCountIs('Custom::S3AutoDeleteObjects', 0);
  });
});

describe('scheduled sweeps (item 13)', () => {
  it('are not retried by Lambda or EventBridge, and their failures go to an alarmed queue', () => {
    const { stack, template } = dev;
    const failures = stack.getLogicalId(stack.scheduledWorkers.failures.node.defaultChild as never);
    expect([...stack.scheduledWorkers.functions.keys()].sort()).toEqual(['refreshSweep', 'syncSweep']);
    for (const fn of stack.scheduledWorkers.functions.values()) {
      template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
        FunctionName: { Ref: stack.getLogicalId(fn.fn.node.defaultChild as never) },
        MaximumRetryAttempts: 0,
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [failures, 'Arn'] } } },
      });
    }
    const rules = template.findResources('AWS::Events::Rule') as Resources;
    expect(Object.keys(rules)).toHaveLength(2);
    for (const rule of Object.values(rules)) {
      expect(rule.Properties.Targets).toEqual([
        expect.objectContaining({
          RetryPolicy: expect.objectContaining({ MaximumRetryAttempts: 0 }),
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [failures, 'Arn'] } },
        }),
      ]);
    }
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [failures, 'QueueName'] } }],
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });
});

describe('console distribution and firewall (item 17)', () => {
  it('sets TLS 1.2 at least on the console domain; without one, the default certificate', () => {
    prod.template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Aliases: ['console.example.com'],
        ViewerCertificate: Match.objectLike({
          AcmCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abcd-1234',
          MinimumProtocolVersion: 'TLSv1.2_2021',
          SslSupportMethod: 'sni-only',
        }),
      }),
    });
    const [distribution] = Object.values(
      dev.template.findResources('AWS::CloudFront::Distribution') as Resources,
    );
    expect(
      (distribution!.Properties.DistributionConfig as Record<string, unknown>).ViewerCertificate,
    ).toBeUndefined();
    expect(() => synthStack({ context: { consoleDomainName: 'console.example.com' } })).toThrow(
      /both consoleDomainName and consoleCertificateArn/,
    );
  });
});

describe('logs (item 18)', () => {
  it("manages API Gateway's execution log group, with retention, before the stage exists", () => {
    for (const { stack, template } of [dev, prod]) {
      const restApi = stack.getLogicalId(stack.api.restApi.node.defaultChild as never);
      const groups = template.findResources('AWS::Logs::LogGroup', {
        Properties: {
          LogGroupName: {
            'Fn::Join': [
              '',
              ['API-Gateway-Execution-Logs_', { Ref: restApi }, `/${stack === dev.stack ? 'dev' : 'prod'}`],
            ],
          },
        },
      }) as Resources;
      expect(Object.keys(groups)).toHaveLength(1);
      const [groupId, group] = Object.entries(groups)[0]!;
      expect(group.Properties.RetentionInDays).toBe(stack === dev.stack ? 14 : 90);
      const stage = stack.getLogicalId(stack.api.restApi.deploymentStage.node.defaultChild as never);
      expect((template.toJSON().Resources[stage] as { DependsOn?: string[] }).DependsOn).toContain(groupId);
    }
  });

  it('logs every purge state machine event with its data in dev, errors without data in prod', () => {
    dev.template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      LoggingConfiguration: Match.objectLike({ Level: 'ALL', IncludeExecutionData: true }),
    });
    prod.template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      LoggingConfiguration: Match.objectLike({ Level: 'ERROR', IncludeExecutionData: false }),
    });
  });
});

describe('vault content', () => {
  it('is versioned, replaced and deleted content expiring after point-in-time recovery’s 35 days, on both stages', () => {
    for (const { stack, template } of [dev, prod]) {
      const id = stack.getLogicalId(stack.data.vaultBucket.node.defaultChild as never);
      const bucket = (template.findResources('AWS::S3::Bucket') as Resources)[id]!;
      expect(bucket.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
      expect(
        (bucket.Properties.LifecycleConfiguration as { Rules: Record<string, unknown>[] }).Rules,
      ).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            NoncurrentVersionExpiration: { NoncurrentDays: 35 },
            ExpiredObjectDeleteMarker: true,
            Status: 'Enabled',
          }),
        ]),
      );
    }
  });
});
