// `npx tsx scripts/zod-mini-codemod.ts [files...]`: rewrites zod's classic (method-chaining) API to
// zod/mini's functional one, which bundles only what a schema uses (~40 KB instead of ~100 KB per
// Lambda; docs/decisions.md, "Cold starts"). Idempotent: a file already on zod/mini is left
// alone. Run it on a branch that still writes classic zod (the lint rule refuses `from 'zod'`).
import type { CallExpression, Node as MorphNode, SourceFile } from 'ts-morph';
import { Node, Project, SyntaxKind } from 'ts-morph';

const project = new Project({ tsConfigFilePath: 'tsconfig.json' });
const asked = process.argv.slice(2);
const files = project
  .getSourceFiles()
  .filter((f) => /\/functions\//.test(f.getFilePath()))
  .filter((f) => !asked.length || asked.some((a) => f.getFilePath().endsWith(a)))
  .filter((f) => f.getImportDeclarations().some((d) => d.getModuleSpecifierValue() === 'zod'));

const isSchema = (node: MorphNode) => Boolean(node.getType().getProperty('_zod'));
const kindOf = (node: MorphNode): 'length' | 'number' => {
  const text = node.getType().getText();
  return /Zod(Number|Int|NumberFormat|BigInt|Coerced)/.test(text) && !/Zod(String|Array)/.test(text)
    ? 'number'
    : 'length';
};

/** `R.m(args)` in mini terms, given R's and the arguments' converted text. */
function mini(
  call: CallExpression,
  recv: MorphNode,
  r: string,
  m: string,
  args: string[],
): string | undefined {
  const a = args.join(', ');
  const check = (fn: string) => `${r}.check(z.${fn}(${a}))`;
  switch (m) {
    case 'optional':
    case 'nullable':
    case 'nullish':
    case 'array':
      return `z.${m}(${r})`;
    case 'default':
      return `z._default(${r}, ${a})`;
    case 'catch':
    case 'extend':
    case 'pick':
    case 'omit':
    case 'partial':
    case 'required':
    case 'catchall':
      return `z.${m}(${r}${a ? `, ${a}` : ''})`;
    case 'transform':
      return `z.pipe(${r}, z.transform(${a}))`;
    case 'pipe':
      return `z.pipe(${r}, ${a})`;
    // As classic's .meta(): a clone carrying the metadata (ids included), not a check every later
    // clone would re-run (which would give derived schemas the same id).
    case 'meta':
      return `${r}.clone().register(z.globalRegistry, ${a})`;
    case 'min':
      return check(kindOf(recv) === 'number' ? 'gte' : 'minLength');
    case 'max':
      return check(kindOf(recv) === 'number' ? 'lte' : 'maxLength');
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
    case 'length':
    case 'regex':
    case 'includes':
    case 'startsWith':
    case 'endsWith':
    case 'toLowerCase':
    case 'toUpperCase':
    case 'trim':
    case 'positive':
    case 'nonnegative':
    case 'negative':
    case 'multipleOf':
    case 'refine':
    case 'superRefine':
    case 'describe':
    case 'overwrite':
      return check(m);
    case 'int':
      return check('int');
    default:
      void call;
      return undefined;
  }
}

function convert(node: MorphNode): string {
  if (Node.isCallExpression(node)) {
    const callee = node.getExpression();
    // zod/mini has no preprocess: a transform piped into the schema is the same thing.
    if (callee.getText() === 'z.preprocess') {
      const [fn, schema] = node.getArguments().map(convert);
      return `z.pipe(z.transform(${fn}), ${schema})`;
    }
    if (Node.isPropertyAccessExpression(callee)) {
      const recv = callee.getExpression();
      // z.x(...) itself is mini already; only methods on schemas change.
      if (!(Node.isIdentifier(recv) && recv.getText() === 'z') && isSchema(recv)) {
        const out = mini(node, recv, convert(recv), callee.getName(), node.getArguments().map(convert));
        if (out !== undefined) return out;
      }
    }
  }
  // A file keeps its leading comments (the start of a node skips its trivia).
  const whole = Node.isSourceFile(node);
  const start = whole ? node.getPos() : node.getStart();
  let text = whole ? node.getFullText() : node.getText();
  const children = node.forEachChildAsArray().filter((c) => c.getStart() >= start);
  for (const child of children.reverse()) {
    const from = child.getStart() - start;
    const to = child.getEnd() - start;
    text = text.slice(0, from) + convert(child) + text.slice(to);
  }
  return text;
}

const TYPES: Record<string, string> = {
  'z.ZodType': 'z.ZodMiniType',
  'z.ZodObject': 'z.ZodMiniObject',
  'z.ZodLiteral': 'z.ZodMiniLiteral',
  'z.ZodArray': 'z.ZodMiniArray',
  'z.ZodRawShape': 'z.core.$ZodLooseShape',
  'z.ZodError': 'z.core.$ZodError',
};

function rewrite(file: SourceFile): string {
  let text = convert(file);
  for (const [from, to] of Object.entries(TYPES)) text = text.split(from).join(to);
  text = text.replace(/from 'zod';/g, "from 'zod/mini';");
  // A file that only named zod's types may now call it (z.check helpers).
  return /\bz\.(?!infer|output|input|core\.|ZodMini)[a-z_]/.test(text.replace(/^import.*$/gm, ''))
    ? text.replace("import type * as z from 'zod/mini';", "import * as z from 'zod/mini';")
    : text;
}

const results = files.map((f) => [f, rewrite(f)] as const);
for (const [file, text] of results) {
  file.replaceWithText(text);
  console.log(`rewrote ${file.getFilePath()}`);
}
await project.save();
void SyntaxKind;
