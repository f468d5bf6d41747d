// The stage's throttling in the template is the one the emulated AWS runtime's API Gateway applies
// (STAGE_THROTTLING; functions/dev-runtime/server/api-gateway.ts, test/unit/api-gateway.test.ts).
import { STAGE_THROTTLING } from '../../functions/platform/gateway-responses';
import { synthStack } from '../support/synth';

type Stage = { Properties: { MethodSettings?: Record<string, unknown>[] } };

describe("the stage's throttling", () => {
  for (const stage of ['dev', 'prod'] as const) {
    it(`is STAGE_THROTTLING on every method of the ${stage} stage`, () => {
      const { template } = synthStack({ stage });
      const stages = Object.values(template.findResources('AWS::ApiGateway::Stage')) as Stage[];
      expect(stages).toHaveLength(1);
      const all = stages[0]!.Properties.MethodSettings?.find(
        (m) => m.HttpMethod === '*' && m.ResourcePath === '/*',
      );
      expect(all).toMatchObject({
        ThrottlingRateLimit: STAGE_THROTTLING.rateLimit,
        ThrottlingBurstLimit: STAGE_THROTTLING.burstLimit,
      });
    });
  }
});
