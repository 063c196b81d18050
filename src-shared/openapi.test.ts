// The OpenAPI document in docs/ is for script writers and mock tools; this keeps it equal to the contract.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { IMAGE_COUNTS, MAX_REFERENCE_IMAGES, MODELS, MODEL_IDS, PROMPT_MAX_CODE_POINTS, PURPOSE_IDS, QUALITIES, RATIOS, RESOLUTIONS, CONCRETE_MODEL_IDS, DEFAULT_RATIO } from './catalog.ts';
import { ERROR_CODES, SPEC_ERROR_CODES } from './errors.ts';
import { ID_SHAPES } from './ids.ts';
import { GENERATE_FIELDS } from './validation.ts';
import { WEBHOOK_EVENTS, WEBHOOK_USER_AGENT } from './webhook-signature.ts';

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const doc = parse(readFileSync(new URL('../docs/openapi.yaml', import.meta.url), 'utf8')) as Doc;
const schemas = doc.components.schemas as Doc;

describe('docs/openapi.yaml', () => {
  it('is OpenAPI 3.1 with the public paths and the webhook', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(['/api/file/{filename}', '/api/v1/generate', '/api/v1/image-pack-publications/{id}', '/direct/{filename}']);
    expect(Object.keys(doc.webhooks)).toEqual(['publishNotification']);
  });

  it('has the contract enums', () => {
    expect(schemas.Model.enum).toEqual([...MODEL_IDS]);
    expect(schemas.Ratio.enum).toEqual([...RATIOS]);
    expect(schemas.Ratio.default).toBe(DEFAULT_RATIO);
    expect(schemas.Resolution.enum).toEqual([...RESOLUTIONS]);
    expect(schemas.Quality.enum).toEqual([...QUALITIES]);
    expect(schemas.ImageCount.enum).toEqual([...IMAGE_COUNTS]);
    expect(schemas.Purpose.enum).toEqual([...PURPOSE_IDS]);
    expect(schemas.WebhookEvent.enum).toEqual([...WEBHOOK_EVENTS]);
  });

  it('has the contract limits and fields', () => {
    const req = schemas.GenerateRequest;
    expect(Object.keys(req.properties).sort()).toEqual([...GENERATE_FIELDS].sort());
    expect(req.additionalProperties).toBe(false);
    expect(req.properties.prompt.maxLength).toBe(PROMPT_MAX_CODE_POINTS);
    expect(req.properties.ref_image_ids.maxItems).toBe(MAX_REFERENCE_IMAGES);
    for (const model of CONCRETE_MODEL_IDS) {
      expect(req.properties.ref_image_ids.description).toContain(`${model} ${MODELS[model].referenceLimit}`);
    }
  });

  it('is typed by generators: no top-level anyOf of required; the per-model rules as if/then equal the catalog', () => {
    const req = schemas.GenerateRequest;
    expect(req.anyOf).toBeUndefined();
    expect(req.oneOf).toBeUndefined();
    expect(req.type).toBe('object');
    const rules = (schemas.ModelRules.allOf as Doc[]).flatMap((rule) => {
      const model = rule.if.properties.model;
      return ((model.enum as string[] | undefined) ?? [model.const as string]).map((id) => ({ id, then: rule.then }));
    });
    expect(rules.map((r) => r.id).sort()).toEqual([...CONCRETE_MODEL_IDS].sort());
    for (const { id, then } of rules) {
      const spec = MODELS[id as keyof typeof MODELS];
      expect(then.properties.ref_image_ids.maxItems, id).toBe(spec.referenceLimit);
      const resolutions = then.properties.resolution?.enum ?? [...RESOLUTIONS];
      expect(resolutions, id).toEqual([...spec.resolutions]);
      const refused = then.properties.ratio ? [then.properties.ratio.not.const] : [];
      expect(RATIOS.filter((r) => !refused.includes(r)), id).toEqual([...spec.ratios]);
      expect(then.properties.ref_image_ids.minItems ?? 0, id).toBe(spec.requiresReference ? 1 : 0);
    }
    // Without a prompt that has a non-space character, references are required and not empty.
    expect(schemas.PromptOrReferences.else).toEqual({ required: ['ref_image_ids'], properties: { ref_image_ids: { minItems: 1 } } });
  });

  it('lists exactly the error codes of spec §7', () => {
    expect([...schemas.ErrorCode.enum].sort()).toEqual([...SPEC_ERROR_CODES].sort());
  });

  it('documents every status the generate endpoint can answer', () => {
    const documented = Object.keys(doc.paths['/api/v1/generate'].post.responses).filter((s) => s !== '200').map(Number).sort();
    const fromContract = [...new Set(SPEC_ERROR_CODES.filter((c) => c !== 'not_found').map((c) => ERROR_CODES[c].status))].sort();
    // And the HTTP layer's own: 408 slow client, 413 body over the limit, 431 headers over 16 KiB (each
    // provoked against the real service in src-service/openapi-statuses.test.ts).
    expect(documented).toEqual([...new Set([...fromContract, 408, 413, 431])].sort());
  });

  it('uses the id shapes of the contract', () => {
    expect(schemas.GenerateResult.properties.turn_id.pattern).toBe(ID_SHAPES.turn.pattern.source);
    expect(schemas.GenerateResult.properties.session_id.pattern).toBe(ID_SHAPES.session.pattern.source);
    expect(schemas.Image.properties.id.pattern).toBe(ID_SHAPES.image.pattern.source);
    expect(schemas.Publication.properties.pack_id.pattern).toBe(ID_SHAPES.pack.pattern.source);
    expect(doc.components.headers.XRequestId.schema.pattern).toBe(ID_SHAPES.request.pattern.source);
  });

  it('describes the webhook headers of spec §6', () => {
    const params = doc.webhooks.publishNotification.post.parameters as Array<{ name: string; schema: Doc }>;
    expect(params.map((p) => p.name)).toEqual(['User-Agent', 'X-Service-Event', 'X-Service-Delivery', 'X-Service-Timestamp', 'X-Service-Signature']);
    expect(params[0]?.schema.const).toBe(WEBHOOK_USER_AGENT);
  });

  it('resolves every $ref', () => {
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) {
          if (k === '$ref' && typeof v === 'string') refs.push(v);
          else walk(v);
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of refs) {
      const target = ref.replace(/^#\//, '').split('/').reduce<unknown>((n, key) => (n as Doc | undefined)?.[key], doc);
      expect(target, ref).toBeDefined();
    }
  });
});
