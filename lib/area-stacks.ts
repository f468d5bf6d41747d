// One nested stack per area of the route table (docs/decisions.md, "One stack per area").
// The parent stack keeps everything stateful (tables, the envelope key, buckets, queues, secrets, the
// purge state machine) and the API's surface (REST API, methods, authorizers, stage), so their
// logical ids never change; an area's stack holds what is safe to recreate: its route and worker
// functions, their roles, log groups, schedules and alarms. Functions are made in the stack of the
// area that owns their handler module, so a new route or worker lands in its area's stack by itself.
import { NestedStack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { RouteArea } from '../functions/routes';
import { areaOfHandler } from '../functions/routes';

const pascal = (id: string) => id[0]!.toUpperCase() + id.slice(1);

/**
 * A part of an area kept in a stack of its own: `workflow` holds a workflow's task functions, which
 * the state machine (in the parent) names and which the area's routes, that start the state machine,
 * must not share a stack with (that would be a dependency cycle through the parent).
 */
export type AreaPart = 'routes' | 'workflow';

export class AreaStacks {
  private readonly stacks = new Map<string, NestedStack>();

  constructor(private readonly parent: Construct) {}

  /** The nested stack of an area (made on first use). */
  of(area: RouteArea, part: AreaPart = 'routes'): NestedStack {
    const id = `${pascal(area)}${part === 'routes' ? '' : pascal(part)}Area`;
    let stack = this.stacks.get(id);
    if (!stack) {
      stack = new NestedStack(this.parent, id, {
        description: `The ${area} area's ${part === 'routes' ? 'routes and workers' : 'workflow tasks'}`,
      });
      this.stacks.set(id, stack);
    }
    return stack;
  }

  /** Where a function for this handler module is made. */
  readonly scopeFor = (handler: string, part: AreaPart = 'routes'): Construct =>
    this.of(areaOfHandler(handler), part);

  /** Every area stack made so far. */
  all(): NestedStack[] {
    return [...this.stacks.values()];
  }
}
